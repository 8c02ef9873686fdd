import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { predictedAnnotations } from '../../../provider/alloc/annotations';
import { inventoryFromCluster, type ClusterObjects } from '../../../provider/model/clusterInventory';
import { validateObject } from '../../../provider/model/crd';
import { allocateInputs } from '../../../provider/runtime/pulumi/topologyInput';

// Reading a cluster into an Inventory, with objects built exactly as upstream's unit tests build
// them, and planning from that Inventory to the allocations upstream recorded.

/**
 * chassisIDForNode of upstream's go-controller/pkg/ovn/pods_test.go: a UUIDv5 of the node name in
 * the OID namespace.
 */
function chassisIDForNode(name: string): string {
  const oid = Buffer.from('6ba7b8129dad11d180b400c04fd430c8', 'hex');
  const hash = createHash('sha1')
    .update(Buffer.concat([oid, Buffer.from(name)]))
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * newNodeWithUserDefinedNetworks of upstream's ovn/layer3_user_defined_network_controller_test.go:
 * the same annotations, written the same way (`"default":"<v4Node1Subnet>", "<net>": "<hostsubnets>"`
 * with v4Node1Subnet = 10.128.0.0/16 of egressip_test.go, the gateway config's fmt string, node id 4).
 */
function newNodeWithUserDefinedNetworks(name: string, nodeIPv4CIDR: string, nets: [string, string][], id = '4') {
  const [ip] = nodeIPv4CIDR.split('/') as [string];
  const mac = `0a:58:${ip
    .split('.')
    .map((o) => Number(o).toString(16).padStart(2, '0'))
    .join(':')}`;
  const nextHop = `${ip.split('.').slice(0, 3).join('.')}.1`;
  const subnets = nets.map(([net, subnet]) => `${JSON.stringify(net)}: ${JSON.stringify(subnet)}`);
  const parsedNodeSubnets =
    subnets.length > 0 ? `{"default":"10.128.0.0/16", ${subnets.join(',')}}` : `{"default":"10.128.0.0/16"}`;
  return {
    metadata: {
      name,
      annotations: {
        'k8s.ovn.org/layer2-topology-version': '2.0',
        'k8s.ovn.org/node-primary-ifaddr': `{"ipv4": "${nodeIPv4CIDR}", "ipv6": ""}`,
        'k8s.ovn.org/node-subnets': parsedNodeSubnets,
        'k8s.ovn.org/host-cidrs': `["${nodeIPv4CIDR}"]`,
        'k8s.ovn.org/l3-gateway-config': `{"default":{"mode":"shared","bridge-id":"breth0","interface-id":"breth0_ovn-worker","mac-address":"${mac}","ip-addresses":["${nodeIPv4CIDR}"],"ip-address":"${nodeIPv4CIDR}","next-hops":["${nextHop}"],"next-hop":"${nextHop}","node-port-enable":"true","vlan-id":"0"}}`,
        'k8s.ovn.org/node-chassis-id': chassisIDForNode(name),
        'k8s.ovn.org/network-ids': '{"default":"0","isolatednet":"2"}',
        'k8s.ovn.org/node-id': id,
        'k8s.ovn.org/udn-layer2-node-gateway-router-lrp-tunnel-ids': '{"isolatednet":"25"}',
        'k8s.ovn.org/node-transit-switch-port-ifaddr': '{"ipv4":"100.88.0.3/16"}',
      },
      labels: { 'k8s.ovn.org/egress-assignable': '' },
    },
  };
}

const empty: ClusterObjects = { nodes: [], namespaces: [], nads: [], connects: [], configMaps: [] };
const nodesOf = (inventory: Record<string, unknown>) => (inventory.spec as { nodes: unknown[] }).nodes;

/** The NAD of upstream's clustermanager_test.go "check for combined NAD and CNC tunnel keys allocations". */
const test1Nad = {
  metadata: {
    name: 'test1',
    namespace: 'test',
    annotations: {
      'k8s.ovn.org/network-name': 'test_test1',
      'k8s.ovn.org/network-id': '2',
      'k8s.ovn.org/tunnel-keys': '[16711685,16715779]',
    },
  },
};

describe('an Inventory read from a cluster', () => {
  it('takes a Node as upstream’s newNodeWithUserDefinedNetworks annotates it: id, chassis, host subnets, gateway', () => {
    const node = newNodeWithUserDefinedNetworks('node1', '192.168.126.202/24', [['isolatednet', '10.100.1.0/24']]);
    const { inventory, notes } = inventoryFromCluster('kind-ovn', { ...empty, nodes: [node] });
    expect(nodesOf(inventory)).toEqual([
      {
        name: 'node1',
        labels: { 'k8s.ovn.org/egress-assignable': '' },
        id: 4,
        chassisId: chassisIDForNode('node1'),
        hostSubnets: { isolatednet: ['10.100.1.0/24'] },
        gatewayBridge: 'breth0',
        gatewayMac: '0a:58:c0:a8:7e:ca',
        nodeIPs: ['192.168.126.202/24'],
        gatewayNextHops: ['192.168.126.1'],
      },
    ]);
    expect(notes.filter((n) => n.startsWith('Node/'))).toEqual([]);
    expect(validateObject(inventory)).toEqual([]);
  });

  it('reads dual-stack node-subnets lists, the older single ip-address, and notes what upstream has not written yet', () => {
    const node = {
      metadata: {
        name: 'node2',
        annotations: {
          'k8s.ovn.org/node-subnets': '{"default":["10.244.1.0/24","fd00:10:244:2::/64"],"ns_red":["10.1.2.0/24"]}',
          // clustermanager/egressip_controller_test.go's form: ip-address and next-hop only
          'k8s.ovn.org/l3-gateway-config':
            '{"default":{"mode":"local","mac-address":"7e:57:f8:f0:3c:49", "ip-address":"192.168.126.12/24", "next-hop":"192.168.126.1"}}',
        },
      },
    };
    const { inventory, notes } = inventoryFromCluster('c', { ...empty, nodes: [node] });
    expect(nodesOf(inventory)).toEqual([
      {
        name: 'node2',
        hostSubnets: { ns_red: ['10.1.2.0/24'] },
        gatewayMac: '7e:57:f8:f0:3c:49',
        nodeIPs: ['192.168.126.12/24'],
        gatewayNextHops: ['192.168.126.1'],
      },
    ]);
    expect(notes).toContain('Node/node2: k8s.ovn.org/node-id is not written yet; the plan allocates it');
  });

  it('takes namespaces with their labels, upstream’s configmaps, NAD and CNC allocations, sorted by name', () => {
    const { inventory } = inventoryFromCluster('kind-ovn', {
      nodes: [],
      namespaces: [
        { metadata: { name: 'red', labels: { 'kubernetes.io/metadata.name': 'red', tenant: 'red' } } },
        { metadata: { name: 'blue', labels: { 'kubernetes.io/metadata.name': 'blue' } } },
      ],
      nads: [test1Nad, { metadata: { name: 'macvlan', namespace: 'test' } }],
      connects: [{ metadata: { name: 'cnc1', annotations: { 'k8s.ovn.org/connect-router-tunnel-key': '16715780' } } }],
      configMaps: [
        { name: 'ovn-config', data: { net_cidr: '10.244.0.0/16/24', svc_cidr: '10.96.0.0/16', mtu: '1400' } },
        {
          name: 'ovnkube-config',
          data: { 'ovnkube.conf': '[gateway]\nmode = local\nv4-masquerade-subnet = 169.254.0.0/17\n' },
        },
      ],
    });
    expect(inventory.spec).toEqual({
      zones: 'per-node',
      clusterSubnets: ['10.244.0.0/16'],
      serviceCIDRs: ['10.96.0.0/16'],
      mtu: 1400,
      gatewayMode: 'local',
      masqueradeSubnets: ['169.254.0.0/17'],
      namespaces: [{ name: 'blue' }, { name: 'red', labels: { tenant: 'red' } }],
      nodes: [],
      allocations: {
        networks: [{ name: 'test_test1', id: 2, tunnelKeys: [16711685, 16715779] }],
        connects: [{ name: 'cnc1', annotations: { 'k8s.ovn.org/connect-router-tunnel-key': '16715780' } }],
      },
    });
    expect(validateObject(inventory)).toEqual([]);
  });
});

const layer2 = (namespace: string, name: string) => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'UserDefinedNetwork',
  metadata: { name, namespace },
  spec: { topology: 'Layer2', layer2: { role: 'Primary', subnets: ['10.0.0.0/24'] } },
});

describe('a plan from an Inventory read from the cluster', () => {
  it('adopts upstream’s keys and allocates past them (clustermanager_test.go "check for combined NAD and CNC tunnel keys allocations")', () => {
    const { inventory } = inventoryFromCluster('c', {
      ...empty,
      namespaces: [{ metadata: { name: 'test' } }],
      nodes: [newNodeWithUserDefinedNetworks('node1', '192.168.126.202/24', [], '2')],
      nads: [test1Nad],
      connects: [{ metadata: { name: 'cnc1', annotations: { 'k8s.ovn.org/connect-router-tunnel-key': '16715780' } } }],
    });
    // test1 is in the plan, cnc1 is not (its key stays taken); newnetwork is new, with network id 3
    // as upstream's test gives it
    const newnetwork = layer2('test', 'newnetwork');
    const pinned = {
      ...newnetwork,
      metadata: { ...newnetwork.metadata, annotations: { 'k8s.ovn.org/network-id': '3' } },
    };
    const planned = allocateInputs({
      inventory,
      networks: [layer2('test', 'test1'), pinned],
      connects: [],
    });
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    const { allocation } = planned.allocated;
    expect(allocation.networkIds).toEqual({ test_newnetwork: 3, test_test1: 2 });
    const nads = predictedAnnotations(allocation).networks;
    expect(nads.test_test1!['k8s.ovn.org/tunnel-keys']).toBe('[16711685,16715779]');
    // upstream: "allocate new keys for a new NAD (networkID 3) ... [16711686, 16715781]"
    expect(nads.test_newnetwork!['k8s.ovn.org/tunnel-keys']).toBe('[16711686,16715781]');
  });

  it('without the cluster’s allocations the same plan would hand test1’s keys out again: the adoption is what keeps them', () => {
    const planned = allocateInputs({
      inventory: {
        apiVersion: 'ovnk/v1alpha1',
        kind: 'Inventory',
        metadata: { name: 'c' },
        spec: { namespaces: [{ name: 'test' }], nodes: [{ name: 'node1' }] },
      },
      networks: [layer2('test', 'test1'), layer2('test', 'newnetwork')],
      connects: [],
    });
    if (!planned.ok) throw new Error('refused');
    const nads = predictedAnnotations(planned.allocated.allocation).networks;
    expect(nads.test_newnetwork!['k8s.ovn.org/tunnel-keys']).toBe('[16711684,16715779]');
  });

  it('keeps each node’s id and host subnets as upstream annotated them, and predicts the same node annotations back', () => {
    const nodes = [
      newNodeWithUserDefinedNetworks('node1', '192.168.126.202/24', [['cluster_udn_blue', '103.103.7.0/24']], '7'),
      newNodeWithUserDefinedNetworks('node2', '192.168.126.203/24', [['cluster_udn_blue', '103.103.3.0/24']], '3'),
    ];
    const { inventory } = inventoryFromCluster('c', {
      ...empty,
      nodes,
      namespaces: [{ metadata: { name: 'blue', labels: { tenant: 'blue' } } }],
    });
    const blue = {
      apiVersion: 'k8s.ovn.org/v1',
      kind: 'ClusterUserDefinedNetwork',
      metadata: { name: 'blue' },
      spec: {
        namespaceSelector: { matchLabels: { tenant: 'blue' } },
        network: {
          topology: 'Layer3',
          layer3: { role: 'Primary', subnets: [{ cidr: '103.103.0.0/16', hostSubnet: 24 }] },
        },
      },
    };
    const planned = allocateInputs({ inventory, networks: [blue], connects: [] });
    if (!planned.ok) throw new Error('refused');
    const predicted = predictedAnnotations(planned.allocated.allocation).nodes;
    expect(predicted).toEqual({
      node1: { 'k8s.ovn.org/node-id': '7', 'k8s.ovn.org/node-subnets': '{"cluster_udn_blue":["103.103.7.0/24"]}' },
      node2: { 'k8s.ovn.org/node-id': '3', 'k8s.ovn.org/node-subnets': '{"cluster_udn_blue":["103.103.3.0/24"]}' },
    });
  });
});
