import { describe, expect, it } from 'vitest';
import { renderNetwork, type RenderInput } from '../../../provider/topology';
import { exampleA, exampleB, has, rowOf, rowsOf } from './fixtures';

const CHASSIS = 'cb9ec8fa-b409-4ef3-9f42-d9283c47aac6';
const tables = (rows: ReturnType<typeof renderNetwork>) => [...new Set(rows.map((r) => r.table))].sort();

/**
 * Example A as a secondary network: upstream's layer3 test Entry "pod on a user defined secondary
 * network on an IC cluster".
 */
function secondaryLayer3(): RenderInput {
  const input = exampleA();
  return { ...input, network: { ...input.network, role: 'secondary', joinSubnets: [] } };
}

// Expectations: layer3_user_defined_network_controller_test.go DescribeTable "reconciles a new", Entry "pod on a user
// defined secondary network on an IC cluster", whose NB data comes from multihoming_test.go
// expectedLogicalSwitchesAndPortsWithLspEnabled and expectedLayer3EgressEntities (the
// IsPrimaryNetwork branches skipped).
describe('a secondary Layer3 network (upstream test data, IC zone of test-node)', () => {
  const rows = renderNetwork(secondaryLayer3());

  it('renders no join switch, gateway router, management port, port group, ACL, route, policy or NAT', () => {
    expect(tables(rows)).toEqual([
      'Gateway_Chassis',
      'Load_Balancer_Group',
      'Logical_Router',
      'Logical_Router_Port',
      'Logical_Switch',
      'Logical_Switch_Port',
    ]);
    expect(rowsOf(rows, 'Logical_Router').map((r) => r.name)).toEqual(['isolatednet_ovn_cluster_router']);
    expect(rowsOf(rows, 'Logical_Switch').map((r) => r.name)).toEqual([
      'isolatednet_test-node',
      'isolatednet_transit_switch',
    ]);
  });

  it('gives the cluster router the rtos and rtots ports only, with upstream external_ids and options', () => {
    expect(rowOf(rows, 'Logical_Router', 'isolatednet_ovn_cluster_router')).toEqual({
      name: 'isolatednet_ovn_cluster_router',
      options: { always_learn_from_arp_request: 'false' },
      external_ids: {
        'k8s-cluster-router': 'yes',
        'k8s.ovn.org/network': 'isolatednet',
        'k8s.ovn.org/topology': 'layer3',
      },
      copp: 'ovnkube-default',
      ports: ['isolatednet_rtots-test-node', 'rtos-isolatednet_test-node'],
      static_routes: [],
      policies: [],
      nat: [],
    });
    expect(rowOf(rows, 'Logical_Router_Port', 'rtos-isolatednet_test-node')).toEqual({
      name: 'rtos-isolatednet_test-node',
      networks: ['192.168.1.1/24'],
      mac: '0a:58:c0:a8:01:01',
      options: { gateway_mtu: '1400' },
      gateway_chassis: [`rtos-isolatednet_test-node-${CHASSIS}`],
    });
    expect(rowOf(rows, 'Logical_Router_Port', 'isolatednet_rtots-test-node')).toEqual({
      name: 'isolatednet_rtots-test-node',
      networks: ['100.88.0.3/16'],
      mac: '0a:58:64:58:00:03',
      options: { mcast_flood: 'true' },
    });
  });

  it('keeps the management address in exclude_ips and marks the switches secondary', () => {
    // multihoming_test.go: "for secondary networks that don't have management ports these tests are expecting
    // managementportIP to be excluded"
    expect(rowOf(rows, 'Logical_Switch', 'isolatednet_test-node')).toEqual({
      name: 'isolatednet_test-node',
      other_config: { subnet: '192.168.1.0/24', exclude_ips: '192.168.1.2' },
      external_ids: {
        'k8s.ovn.org/network': 'isolatednet',
        'k8s.ovn.org/role': 'secondary',
        'k8s.ovn.org/topology': 'layer3',
      },
      load_balancer_group: ['isolatednet_clusterLBGroup', 'isolatednet_clusterSwitchLBGroup'],
      ports: ['namespace1.blue.net_namespace1_myPod', 'stor-isolatednet_test-node'],
      acls: [],
    });
    expect(rowOf(rows, 'Logical_Switch', 'isolatednet_transit_switch').external_ids).toEqual({
      'k8s.ovn.org/network': 'isolatednet',
      'k8s.ovn.org/role': 'secondary',
      'k8s.ovn.org/topology': 'layer3',
    });
  });

  it("renders the pod's port as upstream's newExpectedSwitchPort", () => {
    expect(rowOf(rows, 'Logical_Switch_Port', 'namespace1.blue.net_namespace1_myPod')).toEqual({
      name: 'namespace1.blue.net_namespace1_myPod',
      addresses: ['0a:58:c0:a8:01:03 192.168.1.3'],
      port_security: ['0a:58:c0:a8:01:03 192.168.1.3'],
      options: { 'requested-chassis': CHASSIS },
      external_ids: {
        namespace: 'namespace1',
        pod: 'true',
        'k8s.ovn.org/network': 'isolatednet',
        'k8s.ovn.org/nad': 'namespace1/blue-net',
        'k8s.ovn.org/topology': 'layer3',
      },
    });
  });

  it('keeps the three load-balancer groups of initLoadBalancerGroups, empty', () => {
    expect(rowsOf(rows, 'Load_Balancer_Group')).toEqual([
      { name: 'isolatednet_clusterLBGroup', load_balancer: [] },
      { name: 'isolatednet_clusterRouterLBGroup', load_balancer: [] },
      { name: 'isolatednet_clusterSwitchLBGroup', load_balancer: [] },
    ]);
  });

  it('routes to a remote node only its host subnet, not join addresses (zone_ic_handler.go AddRemoteZoneNode)', () => {
    const input = secondaryLayer3();
    input.nodes.push({
      name: 'other',
      id: 5,
      chassisId: 'chassis-other',
      hostSubnets: { isolatednet: ['192.168.2.0/24'] },
    });
    const withRemote = renderNetwork(input);
    const routes = rowsOf(withRemote, 'Logical_Router_Static_Route').map((r) => [r.ip_prefix, r.nexthop]);
    expect(routes).toEqual([['192.168.2.0/24', '100.88.0.5']]);
    expect(has(withRemote, 'Logical_Switch_Port', 'isolatednet_tstor-other')).toBe(true);
  });

  it('renders no transit switch and no exclude_ips on IPv6 in the central layout', () => {
    const input = secondaryLayer3();
    input.zone = { name: 'central', localNodes: ['test-node'], layout: 'central' };
    input.nodes[0]!.hostSubnets = { isolatednet: ['192.168.1.0/24', 'fd00:1::/64'] };
    input.network.subnets.push({ cidr: 'fd00::/48', hostSubnetLength: 64 });
    const central = renderNetwork(input);
    expect(has(central, 'Logical_Switch', 'isolatednet_transit_switch')).toBe(false);
    expect(rowOf(central, 'Logical_Switch', 'isolatednet_test-node').other_config).toEqual({
      subnet: '192.168.1.0/24',
      ipv6_prefix: 'fd00:1::',
      exclude_ips: '192.168.1.2',
    });
  });
});

/**
 * Example B as a secondary network: upstream's layer2 test Entry "pod on a user defined secondary
 * network on an IC cluster".
 */
function secondaryLayer2(): RenderInput {
  const input = exampleB();
  const { transitSubnets: _t, tunnelKeys: _k, ...network } = input.network;
  return {
    ...input,
    network: { ...network, role: 'secondary', joinSubnets: [] },
    pods: [
      {
        name: 'myPod',
        namespace: 'namespace1',
        node: 'test-node',
        nadKey: 'namespace1/blue-net',
        ips: ['100.200.0.3'],
        tunnelId: 1,
      },
      {
        name: 'far',
        namespace: 'namespace1',
        node: 'stale-node',
        nadKey: 'namespace1/blue-net',
        ips: ['100.200.0.4'],
        tunnelId: 2,
      },
    ],
  };
}

// Expectations: layer2_user_defined_network_controller_test.go DescribeTable "reconciles a new", Entry "pod on a user
// defined secondary network on an IC cluster" (multihoming_test.go
// expectedLogicalSwitchesAndPortsWithLspEnabled, Layer2
// branch without the primary-only management and stotr ports), base_secondary_layer2_network_controller.go
// initializeLogicalSwitch and zone_ic_handler.go AddTransitSwitchConfig / AddTransitPortConfig.
describe('a secondary Layer2 network (upstream test data, IC zone of test-node)', () => {
  const rows = renderNetwork(secondaryLayer2());

  it('renders the layer2 switch and load-balancer groups only: no transit router, gateway router or management port', () => {
    expect(tables(rows)).toEqual(['Load_Balancer_Group', 'Logical_Switch', 'Logical_Switch_Port']);
    expect(rowOf(rows, 'Logical_Switch', 'isolatednet_ovn_layer2_switch')).toEqual({
      name: 'isolatednet_ovn_layer2_switch',
      other_config: {
        subnet: '100.200.0.0/16',
        'interconn-ts': 'isolatednet_ovn_layer2_switch',
        'requested-tnl-key': '16711685',
        mcast_snoop: 'true',
        mcast_querier: 'false',
        mcast_flood_unregistered: 'true',
      },
      external_ids: {
        'k8s.ovn.org/network': 'isolatednet',
        'k8s.ovn.org/role': 'secondary',
        'k8s.ovn.org/topology': 'layer2',
      },
      load_balancer_group: ['isolatednet_clusterLBGroup', 'isolatednet_clusterSwitchLBGroup'],
      ports: ['namespace1.blue.net_namespace1_far', 'namespace1.blue.net_namespace1_myPod'],
      acls: [],
    });
  });

  it("gives local and remote pods their tunnel id, the remote one as a `remote` port on its node's chassis", () => {
    expect(rowOf(rows, 'Logical_Switch_Port', 'namespace1.blue.net_namespace1_myPod').options).toEqual({
      'requested-chassis': 'chassis-test',
      'requested-tnl-key': '1',
    });
    expect(rowOf(rows, 'Logical_Switch_Port', 'namespace1.blue.net_namespace1_far')).toMatchObject({
      type: 'remote',
      options: { 'requested-chassis': 'chassis-stale', 'requested-tnl-key': '2' },
    });
  });

  it('renders a network without subnets (no IPAM) with an empty subnet config and no interconn-ts centrally', () => {
    const input = secondaryLayer2();
    input.network.subnets = [];
    input.pods = [];
    input.zone = { name: 'central', localNodes: ['test-node', 'stale-node'], layout: 'central' };
    const sw = rowOf(renderNetwork(input), 'Logical_Switch', 'isolatednet_ovn_layer2_switch');
    expect(sw.other_config).toEqual({
      'requested-tnl-key': '16711685',
      mcast_snoop: 'true',
      mcast_querier: 'false',
      mcast_flood_unregistered: 'true',
    });
  });
});

function localnet(vlan?: number): RenderInput {
  const input = secondaryLayer2();
  return {
    ...input,
    network: {
      ...input.network,
      name: 'cluster_udn_tenant-blue',
      topology: 'localnet',
      physicalNetworkName: 'physnet-blue',
      nadKeys: ['namespace1/tenant-blue'],
      ...(vlan === undefined ? {} : { vlan }),
    },
    pods: input.pods!.map((p) => ({ ...p, nadKey: 'namespace1/tenant-blue', tunnelId: undefined })),
  };
}

// Expectations: localnet_user_defined_network_controller.go init (switch via initializeLogicalSwitch with no
// load-balancer groups, port `<P>ovn_localnet_port`, TagRequest = Vlan()) and localnetPortNetworkNameOptions.
describe('a Localnet network', () => {
  const rows = renderNetwork(localnet(100));

  it('renders the localnet switch with its localnet port naming the physical network and the VLAN', () => {
    expect(rowOf(rows, 'Logical_Switch_Port', 'cluster_udn_tenant.blue_ovn_localnet_port')).toEqual({
      name: 'cluster_udn_tenant.blue_ovn_localnet_port',
      type: 'localnet',
      addresses: ['unknown'],
      options: { network_name: 'physnet-blue' },
      tag_request: 100,
    });
    expect(rowOf(rows, 'Logical_Switch', 'cluster_udn_tenant.blue_ovn_localnet_switch')).toEqual({
      name: 'cluster_udn_tenant.blue_ovn_localnet_switch',
      other_config: { subnet: '100.200.0.0/16' },
      external_ids: {
        'k8s.ovn.org/network': 'cluster_udn_tenant-blue',
        'k8s.ovn.org/role': 'secondary',
        'k8s.ovn.org/topology': 'localnet',
      },
      ports: ['cluster_udn_tenant.blue_ovn_localnet_port', 'namespace1.tenant.blue_namespace1_myPod'],
      acls: [],
    });
    expect(tables(rows)).toEqual(['Logical_Switch', 'Logical_Switch_Port']);
  });

  it("holds only the zone's own pods, without tunnel keys, and no tag_request without a VLAN", () => {
    const plain = renderNetwork(localnet());
    expect(
      rowOf(plain, 'Logical_Switch_Port', 'cluster_udn_tenant.blue_ovn_localnet_port').tag_request,
    ).toBeUndefined();
    expect(rowOf(plain, 'Logical_Switch_Port', 'namespace1.tenant.blue_namespace1_myPod').options).toEqual({
      'requested-chassis': 'chassis-test',
    });
    expect(has(plain, 'Logical_Switch_Port', 'namespace1.tenant.blue_namespace1_far')).toBe(false);
  });
});
