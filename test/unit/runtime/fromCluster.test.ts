import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inventoryZones } from '../../../provider/model/zones';
import { allocateTopology } from '../../../provider/runtime/plan';
import { planTopology } from '../../../provider/runtime/plan';
import { parseState, serializeState } from '../../../provider/runtime/state';
import { TopologyInputError } from '../../../provider/topology/errors';
import { topologyInputs } from '../../../provider/topology/fromCluster';
import { assignPodTunnels, MAX_POD_TUNNEL_ID } from '../../../provider/topology/pod-tunnels';
import { renderNetwork } from '../../../provider/topology/render';
import { layer2, networkFor, udn, yamlOf } from '../../support/objects';

const inventory = (zones: string, extraNodes = '') => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: lab}
spec:
  zones: ${zones}
  ipFamilies: [IPv4, IPv6]
  clusterSubnets: [10.244.0.0/16, fd00:10:244::/48]
  serviceCIDRs: [10.96.0.0/16, fd00:10:96::/112]
  namespaces:
  - {name: blue, labels: {network: blue}}
  - {name: green}
  - {name: plain}
  nodes:
  - {name: n1, chassisId: ch-1, gatewayBridge: breth0, gatewayMac: "0a:00:00:00:00:01", nodeIPs: [172.18.0.2/16, "fc00::2/64"], gatewayNextHops: [172.18.0.1, "fc00::1"]}
  - {name: n2}
${extraNodes}
  pods:
  - {name: a, namespace: blue, node: n1}
  - {name: b, namespace: blue, node: n2}
  - {name: c, namespace: green, node: n2}
`;

const dualStack = {
  topology: 'Layer3',
  layer3: {
    role: 'Primary',
    subnets: [
      { cidr: '10.10.0.0/16', hostSubnet: 24 },
      { cidr: 'fd10::/60', hostSubnet: 64 },
    ],
  },
};
/** The dual-stack CUDN blue and green's Layer2 UDN, to follow `inventory(...)`. */
const networks = `---\n${yamlOf(networkFor('blue', dualStack), udn('green', 'net', layer2(['10.20.0.0/24'])))}`;

function plan(zones: string) {
  const outcome = allocateTopology(inventory(zones) + networks);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.allocated;
}

describe('topologyInputs', () => {
  it('the central layout has one zone named central with every node local', () => {
    const { cluster, allocation } = plan('central');
    expect(inventoryZones(cluster.inventory)).toEqual([
      { name: 'central', localNodes: ['n1', 'n2'], layout: 'central' },
    ]);
    const result = topologyInputs(cluster, allocation);
    expect(result.zones.map((z) => z.zone.name)).toEqual(['central']);
    expect(result.zones[0]!.inputs.map((i) => i.network.name)).toEqual(['cluster_udn_blue', 'green_net']);
  });

  it('the per-node layout has one zone per node, named after it', () => {
    const { cluster, allocation } = plan('per-node');
    const result = topologyInputs(cluster, allocation);
    expect(result.zones.map((z) => [z.zone.name, z.zone.localNodes, z.zone.layout])).toEqual([
      ['n1', ['n1'], 'per-node'],
      ['n2', ['n2'], 'per-node'],
    ]);
    expect(topologyInputs(cluster, allocation, {}, 'n2').zones.map((z) => z.zone.name)).toEqual(['n2']);
  });

  it('nodes carry their allocated ids, host subnets, inventory chassis and gateway, and fall back to the node name as chassis', () => {
    const { cluster, allocation } = plan('central');
    const input = topologyInputs(cluster, allocation).zones[0]!.inputs[0]!;
    const [n1, n2] = input.nodes;
    expect(n1).toMatchObject({ name: 'n1', id: allocation.nodeIds.n1, chassisId: 'ch-1' });
    expect(n1!.gateway).toEqual({
      bridge: 'breth0',
      mac: '0a:00:00:00:00:01',
      ips: ['172.18.0.2/16', 'fc00::2/64'],
      nextHops: ['172.18.0.1', 'fc00::1'],
    });
    expect(n2).toMatchObject({ name: 'n2', chassisId: 'n2' });
    expect(n2!.gateway).toBeUndefined();
    expect(n1!.hostSubnets!.cluster_udn_blue).toEqual(allocation.hostSubnets.cluster_udn_blue!.n1);
  });

  it('the cluster input follows the inventory families, masquerade subnets, gateway mode, MTU and port range', () => {
    const { cluster, allocation } = plan('central');
    const input = topologyInputs(cluster, allocation).zones[0]!.inputs[0]!;
    expect(input.cluster).toEqual({
      ipFamilies: ['ipv4', 'ipv6'],
      masqueradeSubnets: cluster.inventory.masqueradeSubnets,
      gatewayMode: 'shared',
      mtu: 1400,
      ephemeralPortRange: '32768-60999',
    });
  });

  it('a Layer3 pod gets addresses from its node host subnets, skipping network, gateway and management addresses', () => {
    const { cluster, allocation } = plan('central');
    const result = topologyInputs(cluster, allocation);
    const hostV4 = allocation.hostSubnets.cluster_udn_blue!.n1![0]!;
    const ipsA = result.pods.cluster_udn_blue!['blue/a']!;
    expect(ipsA).toHaveLength(2);
    expect(ipsA[0]).toBe(hostV4.replace(/0\/24$/, '3'));
    const pods = result.zones[0]!.inputs[0]!.pods!;
    expect(pods.map((p) => [p.name, p.node, p.nadKey])).toEqual([
      ['a', 'n1', 'blue/blue'],
      ['b', 'n2', 'blue/blue'],
    ]);
  });

  it('a Layer2 network gets its transit subnets, datapath keys and pod addresses from the network subnet', () => {
    const { cluster, allocation } = plan('central');
    const input = topologyInputs(cluster, allocation).zones[0]!.inputs[1]!;
    expect(input.network).toMatchObject({
      topology: 'layer2',
      transitSubnets: ['100.88.0.0/16', 'fd97::/64'],
      nadKeys: ['green/net'],
    });
    expect(input.network.tunnelKeys).toEqual({
      switch: allocation.datapathKeys.networks.green_net!.transitSwitch,
      transitRouter: allocation.datapathKeys.networks.green_net!.transitRouter,
    });
    expect(input.pods).toEqual([
      { name: 'c', namespace: 'green', node: 'n2', nadKey: 'green/net', ips: ['10.20.0.3'] },
    ]);
  });

  it('a namespace without a primary network gets no network and no pod', () => {
    const { cluster, allocation } = plan('central');
    const inputs = topologyInputs(cluster, allocation).zones[0]!.inputs;
    expect(inputs.flatMap((i) => i.network.nadKeys)).not.toContain('plain/blue');
    expect(
      inputs
        .flatMap((i) => i.pods ?? [])
        .map((p) => p.namespace)
        .sort(),
    ).toEqual(['blue', 'blue', 'green']);
  });

  it('previous pod addresses are kept when still valid', () => {
    const { cluster, allocation } = plan('central');
    const hostV4 = allocation.hostSubnets.cluster_udn_blue!.n1![0]!.replace(/0\/24$/, '77');
    const result = topologyInputs(cluster, allocation, { cluster_udn_blue: { 'blue/a': [hostV4] } });
    expect(result.pods.cluster_udn_blue!['blue/a']![0]).toBe(hostV4);
  });

  it('every zone input renders without error in both layouts', () => {
    for (const zones of ['central', 'per-node']) {
      const { cluster, allocation } = plan(zones);
      for (const z of topologyInputs(cluster, allocation).zones)
        for (const input of z.inputs) expect(renderNetwork(input).length).toBeGreaterThan(0);
    }
  });
});

const pod = (namespace: string, name: string) => ({ namespace, name });

describe('Layer2 pod tunnel ids', () => {
  it('new pods get the lowest free ids in namespace/name order', () => {
    expect(assignPodTunnels('net', [pod('b', 'x'), pod('a', 'y'), pod('a', 'x')])).toEqual({
      'a/x': 1,
      'a/y': 2,
      'b/x': 3,
    });
  });

  it('previous ids are kept and new pods fill the gaps below them', () => {
    const ids = assignPodTunnels('net', [pod('a', 'x'), pod('a', 'y'), pod('a', 'z')], { 'a/y': 1, 'a/z': 7, gone: 2 });
    expect(ids).toEqual({ 'a/x': 2, 'a/y': 1, 'a/z': 7 });
  });

  it('a previous id out of range or taken twice is replaced', () => {
    const ids = assignPodTunnels('net', [pod('a', 'x'), pod('a', 'y'), pod('a', 'z')], {
      'a/x': 0,
      'a/y': 40000,
      'a/z': 1,
    });
    expect(ids).toEqual({ 'a/x': 2, 'a/y': 3, 'a/z': 1 });
    expect(assignPodTunnels('net', [pod('a', 'x'), pod('a', 'y')], { 'a/x': 5, 'a/y': 5 })).toEqual({
      'a/x': 5,
      'a/y': 1,
    });
  });

  it('more pods than ids is an error naming the network', () => {
    const pods = Array.from({ length: MAX_POD_TUNNEL_ID + 1 }, (_, i) => pod('ns', `p${String(i).padStart(5, '0')}`));
    expect(() => assignPodTunnels('green_net', pods)).toThrow(TopologyInputError);
    expect(() => assignPodTunnels('green_net', pods)).toThrow(/network green_net/);
    expect(Object.keys(assignPodTunnels('green_net', pods.slice(1))).length).toBe(MAX_POD_TUNNEL_ID);
  });

  it('ids are unique, in range, and stable when passed back with pods added', () => {
    const names = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,4}$/), { maxLength: 40 });
    fc.assert(
      fc.property(names, names, (first, more) => {
        const before = assignPodTunnels(
          'n',
          first.map((n) => pod('ns', n)),
        );
        const after = assignPodTunnels(
          'n',
          [...first, ...more].map((n) => pod('ns', n)),
          before,
        );
        const ids = Object.values(after);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.every((id) => id >= 1 && id <= MAX_POD_TUNNEL_ID)).toBe(true);
        for (const [key, id] of Object.entries(before)) expect(after[key]).toBe(id);
      }),
    );
  });

  it('the per-node layout gives Layer2 pods tunnel ids, the same in every zone, and none to Layer3 pods', () => {
    const { cluster, allocation } = plan('per-node');
    const result = topologyInputs(cluster, allocation);
    expect(result.tunnels).toEqual({ green_net: { 'green/c': 1 } });
    for (const z of result.zones) {
      const [blue, green] = z.inputs;
      expect(blue!.pods!.every((p) => p.tunnelId === undefined)).toBe(true);
      expect(green!.pods!.map((p) => p.tunnelId)).toEqual([1]);
    }
    const remote = renderNetwork(result.zones[0]!.inputs[1]!).find(
      (r) => r.table === 'Logical_Switch_Port' && r.columns.name === 'green.net_green_c',
    );
    expect(remote?.columns).toMatchObject({
      type: 'remote',
      options: expect.objectContaining({ 'requested-tnl-key': '1' }),
    });
  });

  it('the central layout assigns no tunnel id: northd picks the keys', () => {
    const { cluster, allocation } = plan('central');
    const result = topologyInputs(cluster, allocation);
    expect(result.tunnels).toEqual({});
    expect(result.zones[0]!.inputs[1]!.pods!.every((p) => p.tunnelId === undefined)).toBe(true);
  });

  it('previous tunnel ids are kept, and the plan stores them in state', () => {
    const { cluster, allocation } = plan('per-node');
    expect(topologyInputs(cluster, allocation, {}, undefined, { green_net: { 'green/c': 9 } }).tunnels).toEqual({
      green_net: { 'green/c': 9 },
    });
    const first = planTopology(inventory('per-node') + networks);
    if (!first.ok) throw new Error('plan failed');
    expect(first.plan.state.podTunnels).toEqual({ green_net: { 'green/c': 1 } });
    const again = planTopology(inventory('per-node') + networks, {
      ...first.plan.state,
      podTunnels: { green_net: { 'green/c': 4 } },
    });
    if (!again.ok) throw new Error('plan failed');
    expect(again.plan.state.podTunnels).toEqual({ green_net: { 'green/c': 4 } });
    expect(parseState(serializeState(again.plan.state), 'state').podTunnels).toEqual({ green_net: { 'green/c': 4 } });
  });
});
