import { describe, expect, it } from 'vitest';
import { planCluster } from '../../../provider/connect/plan';
import { topologyInputs, zonesOf } from '../../../provider/topology/fromCluster';
import { renderNetwork } from '../../../provider/topology/render';

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

const networks = `
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: blue}
spec:
  namespaceSelector: {matchLabels: {network: blue}}
  network:
    topology: Layer3
    layer3: {role: Primary, subnets: [{cidr: 10.10.0.0/16, hostSubnet: 24}, {cidr: "fd10::/60", hostSubnet: 64}]}
---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: net, namespace: green}
spec:
  topology: Layer2
  layer2: {role: Primary, subnets: [10.20.0.0/24]}
`;

function plan(zones: string) {
  const outcome = planCluster(inventory(zones) + networks);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.inputProblems));
  return outcome;
}

describe('topologyInputs', () => {
  it('the central layout has one zone named central with every node local', () => {
    const { cluster, allocation } = plan('central');
    expect(zonesOf(cluster)).toEqual([{ name: 'central', localNodes: ['n1', 'n2'], layout: 'central' }]);
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
    expect(n1!.gateway).toEqual({ bridge: 'breth0', mac: '0a:00:00:00:00:01', ips: ['172.18.0.2/16', 'fc00::2/64'], nextHops: ['172.18.0.1', 'fc00::1'] });
    expect(n2).toMatchObject({ name: 'n2', chassisId: 'n2' });
    expect(n2!.gateway).toBeUndefined();
    expect(n1!.hostSubnets!.cluster_udn_blue).toEqual(allocation.hostSubnets.cluster_udn_blue!.n1);
  });

  it('the cluster input follows the inventory families, masquerade subnets and gateway mode', () => {
    const { cluster, allocation } = plan('central');
    const input = topologyInputs(cluster, allocation).zones[0]!.inputs[0]!;
    expect(input.cluster).toEqual({ ipFamilies: ['ipv4', 'ipv6'], masqueradeSubnets: cluster.inventory.masqueradeSubnets, gatewayMode: 'shared' });
  });

  it('a Layer3 pod gets addresses from its node host subnets, skipping network, gateway and management addresses', () => {
    const { cluster, allocation } = plan('central');
    const result = topologyInputs(cluster, allocation);
    const hostV4 = allocation.hostSubnets.cluster_udn_blue!.n1![0]!;
    const ipsA = result.pods.cluster_udn_blue!['blue/a']!;
    expect(ipsA).toHaveLength(2);
    expect(ipsA[0]).toBe(hostV4.replace(/0\/24$/, '3'));
    const pods = result.zones[0]!.inputs[0]!.pods!;
    expect(pods.map((p) => [p.name, p.node, p.nadKey])).toEqual([['a', 'n1', 'blue/blue'], ['b', 'n2', 'blue/blue']]);
  });

  it('a Layer2 network gets its transit subnets, datapath keys and pod addresses from the network subnet', () => {
    const { cluster, allocation } = plan('central');
    const input = topologyInputs(cluster, allocation).zones[0]!.inputs[1]!;
    expect(input.network).toMatchObject({ topology: 'layer2', transitSubnets: ['100.88.0.0/16', 'fd97::/64'], nadKeys: ['green/net'] });
    expect(input.network.tunnelKeys).toEqual({ switch: allocation.datapathKeys.networks.green_net!.transitSwitch, transitRouter: allocation.datapathKeys.networks.green_net!.transitRouter });
    expect(input.pods).toEqual([{ name: 'c', namespace: 'green', node: 'n2', nadKey: 'green/net', ips: ['10.20.0.3'] }]);
  });

  it('a namespace without a primary network gets no network and no pod', () => {
    const { cluster, allocation } = plan('central');
    const inputs = topologyInputs(cluster, allocation).zones[0]!.inputs;
    expect(inputs.flatMap((i) => i.network.nadKeys)).not.toContain('plain/blue');
    expect(inputs.flatMap((i) => i.pods ?? []).map((p) => p.namespace).sort()).toEqual(['blue', 'blue', 'green']);
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
      for (const z of topologyInputs(cluster, allocation).zones) for (const input of z.inputs) expect(renderNetwork(input).length).toBeGreaterThan(0);
    }
  });
});
