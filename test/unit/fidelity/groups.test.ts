/**
 * Point 4 of issue 16: the load-balancer groups and port groups every primary UDN has from its
 * creation, with or without services. Expected rows from upstream:
 * - base_network_controller.go initLoadBalancerGroups: `<P>clusterLBGroup`,
 *   `<P>clusterSwitchLBGroup`, `<P>clusterRouterLBGroup` (master_test.go newLoadBalancerGroup);
 * - multihoming_test.go expectedLogicalSwitchesAndPortsWithLspEnabled: node switch and Layer2 switch
 *   load_balancer_group [clusterLBGroup, clusterSwitchLBGroup];
 * - layer3_user_defined_network_controller_test.go expectedGWRouterPlusNATAndStaticRoutes: gateway
 *   router load_balancer_group [clusterLBGroup, clusterRouterLBGroup];
 * - master_test.go newNetworkClusterPortGroup / newNetworkRouterPortGroup and policy_test.go
 *   getHairpinningACLsV4AndPortGroupForNetwork: port groups named HashForOVN of
 *   `<N>-network-controller:Cluster:clusterPortGroup` (clusterRtrPortGroup), the cluster one
 *   holding the management port and the two allow-hairpinning ACLs (from 169.254.169.5, the
 *   V4OVNServiceHairpinMasqueradeIP).
 */
import { describe, expect, it } from 'vitest';
import { has, planOf, rowOf, rowsIn, upstreamL3, zoneRows } from './plan';

const CONTROLLER = 'namespace1_blue-net-network-controller';
const P = 'namespace1_blue.net_';

describe("a primary network's load-balancer groups and port groups", () => {
  const rows = zoneRows(planOf(upstreamL3()), 'test-node');

  it('exist from network creation without any service, empty', () => {
    for (const group of ['clusterLBGroup', 'clusterSwitchLBGroup', 'clusterRouterLBGroup'])
      expect(rowOf(rows, 'Load_Balancer_Group', `${P}${group}`)).toEqual({ name: `${P}${group}`, load_balancer: [] });
  });

  it('are attached to the node switch and the gateway router where upstream attaches them', () => {
    expect(rowOf(rows, 'Logical_Switch', `${P}test-node`).load_balancer_group).toEqual([
      `${P}clusterLBGroup`,
      `${P}clusterSwitchLBGroup`,
    ]);
    expect(rowOf(rows, 'Logical_Router', `GR_${P}test-node`).load_balancer_group).toEqual([
      `${P}clusterLBGroup`,
      `${P}clusterRouterLBGroup`,
    ]);
    expect(rowOf(rows, 'Logical_Switch', `${P}join`).load_balancer_group).toBeUndefined();
  });

  it('include the cluster port group with the management port and the hairpin ACLs, and the empty router port group', () => {
    expect(rowOf(rows, 'Port_Group', 'a16314866834619522570')).toEqual({
      name: 'a16314866834619522570',
      ports: [`k8s-${P}test-node`],
      acls: [
        `${CONTROLLER}:NetpolDefault:allow-hairpinning:Egress`,
        `${CONTROLLER}:NetpolDefault:allow-hairpinning:Ingress`,
      ],
      external_ids: {
        'k8s.ovn.org/owner-controller': CONTROLLER,
        'k8s.ovn.org/owner-type': 'Cluster',
        'k8s.ovn.org/name': 'clusterPortGroup',
        'k8s.ovn.org/id': `${CONTROLLER}:Cluster:clusterPortGroup`,
      },
    });
    expect(rowOf(rows, 'Port_Group', 'a14925341030238903462')).toMatchObject({ ports: [], acls: [] });
    const hairpin = rowsIn(rows, 'ACL').filter((a) => a.external_ids['k8s.ovn.org/owner-type'] === 'NetpolDefault');
    expect(hairpin.map((a) => [a.direction, a.priority, a.match, a.action, a.meter, a.tier, a.options])).toEqual([
      ['from-lport', 1001, 'ip4.src == 169.254.169.5', 'allow-related', 'acl-logging', 2, { 'apply-after-lb': 'true' }],
      ['to-lport', 1001, 'ip4.src == 169.254.169.5', 'allow-related', 'acl-logging', 2, undefined],
    ]);
  });

  it("put the network's ClusterIP load balancers in clusterLBGroup, one per protocol, and none for a headless service", () => {
    const services = `  services:
  - {namespace: namespace1, name: web, clusterIPs: [10.96.10.10], ports: [{protocol: TCP, port: 80}, {protocol: UDP, port: 53}]}
  - {namespace: namespace1, name: headless, clusterIPs: [None], ports: [{protocol: TCP, port: 80}]}`;
    const withServices = zoneRows(planOf(upstreamL3({ inventory: services })), 'test-node');
    expect(rowOf(withServices, 'Load_Balancer_Group', `${P}clusterLBGroup`).load_balancer).toEqual([
      `${P}Service_namespace1/web_TCP_cluster`,
      `${P}Service_namespace1/web_UDP_cluster`,
    ]);
    expect(rowOf(withServices, 'Load_Balancer', `${P}Service_namespace1/web_TCP_cluster`)).toMatchObject({
      protocol: 'tcp',
      vips: { '10.96.10.10:80': '192.168.1.3:80' },
    });
    expect(has(withServices, 'Load_Balancer', `${P}Service_namespace1/headless_TCP_cluster`)).toBe(false);
  });

  it('put the Layer2 switch in [cluster, switch] groups and hold its one management port', () => {
    const text = upstreamL3()
      .replace('topology: Layer3', 'topology: Layer2')
      .replace(
        'layer3: {role: Primary, subnets: [{cidr: 192.168.0.0/16, hostSubnet: 24}]}',
        'layer2: {role: Primary, subnets: [100.200.0.0/16]}',
      );
    const l2 = zoneRows(planOf(text), 'test-node');
    expect(rowOf(l2, 'Logical_Switch', `${P}ovn_layer2_switch`).load_balancer_group).toEqual([
      `${P}clusterLBGroup`,
      `${P}clusterSwitchLBGroup`,
    ]);
    expect(rowOf(l2, 'Port_Group', 'a16314866834619522570').ports).toEqual([`k8s-${P}test-node`]);
  });
});
