/**
 * Point 1 of issue 16: primary Layer3 networks with several subnets per family. Expected rows
 * come from upstream: the CUDN CRD (layer3.subnets maxItems 400, the one-per-family rule only for
 * Secondary), clustermanager/node/subnet_allocator_test.go TestMultipleSubnets (a node gets its
 * host subnet from the first range with room), gateway.go (one GR route per cluster subnet via
 * the cluster router's join IP, one masquerade SNAT per cluster subnet) and the networkconnect
 * controller_test.go "should update router policies when a connected primary Layer3 network adds
 * a subnet" (the 9001 match ORs the ranges).
 */
import { describe, expect, it } from 'vitest';
import { allocateTopology } from '../../../provider/runtime/plan';
import { connectLabelled, cudn, layer3, yamlOf } from '../../support/objects';
import { planOf, rowOf, rowsIn, zoneRows } from './plan';

const nodes = (count: number) =>
  Array.from({ length: count }, (_, i) => `  - {name: n${i + 1}, id: ${i + 2}, chassisId: c${i + 1}}`).join('\n');

/** TestMultipleSubnets' ranges: 10.1.0.0/16 and 10.2.0.0/16, /18 per node. */
const twoRanges = (count: number, connect = '') => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: multi}
spec:
  ipFamilies: [IPv4]
  namespaces: [{name: a, labels: {net: a}}, {name: b, labels: {net: b}}]
  nodes:
${nodes(count)}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: wide, labels: {connect: "yes"}}
spec:
  namespaceSelector: {matchLabels: {net: a}}
  network:
    topology: Layer3
    layer3: {role: Primary, subnets: [{cidr: 10.1.0.0/16, hostSubnet: 18}, {cidr: 10.2.0.0/16, hostSubnet: 18}]}
${connect}`;

const connected = `---
${yamlOf(
  cudn('other', layer3('10.9.0.0/16', 24), {
    labels: { connect: 'yes' },
    namespaceSelector: { matchLabels: { net: 'b' } },
  }),
  connectLabelled('c', { connect: 'yes' }),
)}`;

describe('a primary Layer3 network with several subnets of one family', () => {
  it('gives each node one host subnet from the first range with room (upstream TestMultipleSubnets)', () => {
    const plan = planOf(twoRanges(5));
    expect(plan.problems).toEqual([]);
    expect(plan.allocation.hostSubnets.cluster_udn_wide).toEqual({
      n1: ['10.1.0.0/18'],
      n2: ['10.1.64.0/18'],
      n3: ['10.1.128.0/18'],
      n4: ['10.1.192.0/18'],
      n5: ['10.2.0.0/18'],
    });
  });

  it('refuses a node once every range is full, as upstream reports no subnets available', () => {
    // the plan is refused (not unusable input) and renders nothing for the node left without a subnet
    const plan = planOf(twoRanges(9));
    expect(zoneRows(plan, 'n9').filter((r) => r.table === 'Logical_Router')).toEqual([]);
    const outcome = allocateTopology(twoRanges(9));
    if (!outcome.ok) throw new Error('input unusable');
    expect(outcome.allocated.allocation.problems.map((p) => p.message)).toEqual([
      'no host subnet left for node n9 in network cluster_udn_wide: no subnets available',
    ]);
  });

  it('renders no connect port for the node left without a subnet, in its zone or in the others', () => {
    const plan = planOf(twoRanges(9, connected));
    expect(plan.problems.map((p) => p.message)).toEqual([
      'no host subnet left for node n9 in network cluster_udn_wide: no subnets available',
    ]);
    const ports = (zone: string) =>
      rowsIn(zoneRows(plan, zone), 'Logical_Router_Port')
        .map((p) => p.name as string)
        .filter((n) => n.includes('wide_n9'));
    expect(ports('n9')).toEqual([]);
    expect(ports('n1')).toEqual([]);
  });

  it("routes every cluster subnet from the gateway router to the cluster router's join IP and masquerades each", () => {
    const rows = zoneRows(planOf(twoRanges(5)), 'n5');
    const gr = rowOf(rows, 'Logical_Router', 'GR_cluster_udn_wide_n5');
    const routes = (gr.static_routes as string[]).map((id) => rowOf(rows, 'Logical_Router_Static_Route', id));
    expect(routes.filter((r) => r.nexthop === '100.65.0.1').map((r) => r.ip_prefix)).toEqual([
      '10.1.0.0/16',
      '10.2.0.0/16',
    ]);
    const nats = (gr.nat as string[])
      .map((id) => rowOf(rows, 'NAT', id))
      .map((n) => `${n.external_ip}<-${n.logical_ip}`);
    expect(nats.sort()).toEqual(['169.254.0.11<-10.1.0.0/16', '169.254.0.11<-10.2.0.0/16', '169.254.0.11<-100.65.0.6']);
    expect(rowOf(rows, 'Logical_Switch', 'cluster_udn_wide_n5').other_config).toEqual({ subnet: '10.2.0.0/18' });
  });

  it("ORs the network's ranges in the connect's 9001 policy match of the other network", () => {
    const rows = zoneRows(planOf(twoRanges(2, connected)), 'n1');
    const policies = rowsIn(rows, 'Logical_Router_Policy').filter((p) => p.priority === 9001);
    expect(policies.map((p) => p.match).sort()).toEqual([
      'inport == "rtos-cluster_udn_other_n1" && (ip4.dst == 10.1.0.0/16 || ip4.dst == 10.2.0.0/16)',
      'inport == "rtos-cluster_udn_wide_n1" && ip4.dst == 10.9.0.0/16',
    ]);
  });

  it("keeps upstream's static route id on the connect router: a node holds one host subnet per family", () => {
    const rows = zoneRows(planOf(twoRanges(2, connected)), 'n1');
    const ids = rowsIn(rows, 'Logical_Router_Static_Route')
      .map((r) => r.external_ids['k8s.ovn.org/id'] as string | undefined)
      .filter((id): id is string => id !== undefined)
      .sort();
    expect(ids).toEqual([
      'ovnkube-network-connect-controller:ClusterNetworkConnect:c:1:2:v4',
      'ovnkube-network-connect-controller:ClusterNetworkConnect:c:1:3:v4',
      'ovnkube-network-connect-controller:ClusterNetworkConnect:c:2:2:v4',
      'ovnkube-network-connect-controller:ClusterNetworkConnect:c:2:3:v4',
    ]);
  });
});
