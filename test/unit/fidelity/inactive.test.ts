/**
 * Point 5 of issue 16: networks inactive on a node (Dynamic UDN; the Inventory's
 * spec.nodes[].networks). Expected behaviour from upstream:
 * - layer3/layer2_user_defined_network_controller_test.go Entry "with dynamic UDN allocation, a
 *   remote node with no NAD is ignored" and It "activates a remote node when a NAD becomes active
 *   and cleans it up when inactive": no transit-switch port (`<P>tstor-<node>`, Layer2 `trtor-GR_`)
 *   for an inactive remote node;
 * - networkconnect topology_test.go TestSyncNetworkConnectionsInactiveNetwork and
 *   TestEnsureConnectPortsOpsDeletesInactiveLayer3RemoteNodePorts: netA (ours neta) active on node1 only,
 *   netB (netb) on node2 only; in node1's zone neta's policies towards netb, netb's route and remote
 *   `crtor-` port for node2, no local netb pair, nothing of neta for node2;
 * - a zone whose node the network is not active on runs no controller for it: no rows at all;
 * - clustermanager network_cluster_controller.go: an inactive node gets no host subnet.
 */
import { describe, expect, it } from 'vitest';
import { buildCluster } from '../../../provider/model/cluster';
import { loadDocuments } from '../../../provider/model/load';
import { connectLabelled, yamlOf } from '../../support/objects';
import { has, planOf, rowsIn, zoneRows } from './plan';

const cudn = (name: string, id: number, topology: string, spec: string) => `---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: ${name}, labels: {connect: "yes"}, annotations: {k8s.ovn.org/network-id: "${id}"}}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ns-${name}}}
  network: {topology: ${topology}, ${spec}}
`;

const world = (pods = '') => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: dyn}
spec:
  ipFamilies: [IPv4]
  namespaces: [{name: ns-neta}, {name: ns-netb}, {name: ns-green}]
  nodes:
  - {name: node1, id: 2, chassisId: c1, networks: [neta, green]}
  - {name: node2, id: 3, chassisId: c2, networks: [netb]}
${pods}
${cudn('neta', 1, 'Layer3', 'layer3: {role: Primary, subnets: [{cidr: 10.0.0.0/16}]}')}${cudn('netb', 2, 'Layer3', 'layer3: {role: Primary, subnets: [{cidr: 10.1.0.0/16}]}')}${cudn('green', 3, 'Layer2', 'layer2: {role: Primary, subnets: [10.100.0.0/16]}')}---
${yamlOf(connectLabelled('cnc1', { connect: 'yes' }))}`;

const names = (rows: ReturnType<typeof zoneRows>, table: string) => rowsIn(rows, table).map((r) => r.name as string);

describe('a network inactive on a node', () => {
  const plan = planOf(world());
  const node1 = zoneRows(plan, 'node1');
  const node2 = zoneRows(plan, 'node2');

  it('gets no host subnet there', () => {
    expect(plan.allocation.hostSubnets).toEqual({
      cluster_udn_neta: { node1: ['10.0.0.0/24'] },
      cluster_udn_netb: { node2: ['10.1.0.0/24'] },
    });
  });

  it('has no rows at all in the zone of that node, and no remote stand-in for it in the others', () => {
    expect(names(node1, 'Logical_Router').filter((n) => n.includes('netb'))).toEqual([]);
    expect(names(node1, 'Logical_Switch').filter((n) => n.includes('netb'))).toEqual([]);
    expect(names(node1, 'Logical_Switch_Port').filter((n) => n.includes('tstor'))).toEqual([
      'cluster_udn_neta_tstor-node1',
    ]);
    expect(names(node2, 'Logical_Router').filter((n) => n.includes('neta') || n.includes('green'))).toEqual([]);
  });

  it('has no remote transit-router port or join route for the inactive node on Layer2', () => {
    expect(names(node1, 'Logical_Router_Port').filter((n) => n.startsWith('trtor-'))).toEqual([
      'trtor-GR_cluster_udn_green_node1',
    ]);
    const joinRoutes = rowsIn(node1, 'Logical_Router_Static_Route').filter((r) => r.ip_prefix === '100.65.0.3');
    expect(joinRoutes).toEqual([]);
  });

  it("keeps a locally active network's policies towards it and its route and remote port for the node it is active on", () => {
    const policies = rowsIn(node1, 'Logical_Router_Policy').filter((p) => p.priority === 9001);
    const pairs = policies.map(
      (p) => `${p.external_ids['source-network-id']}->${p.external_ids['destination-network-id']}`,
    );
    // neta (1) and green (3) are active on node1; netb (2) is not, so no policy goes from it
    expect(pairs.sort()).toEqual(['1->2', '1->3', '3->1', '3->2']);
    const netbRoutes = rowsIn(node1, 'Logical_Router_Static_Route').filter((r) => r.external_ids['network-id'] === '2');
    expect(netbRoutes.map((r) => [r.external_ids['node-id'], r.ip_prefix])).toEqual([['3', '10.1.0.0/24']]);
    expect(has(node1, 'Logical_Router_Port', 'crtor-cnc1_cluster_udn_netb_node2')).toBe(true);
    expect(has(node1, 'Logical_Router_Port', 'rtocr-cluster_udn_netb_node1_cnc1')).toBe(false);
    expect(has(node1, 'Logical_Router_Port', 'crtor-cnc1_cluster_udn_neta_node2')).toBe(false);
    expect(
      rowsIn(node1, 'Logical_Router_Static_Route').filter(
        (r) => r.external_ids['network-id'] === '1' && r.external_ids['node-id'] === '3',
      ),
    ).toEqual([]);
  });

  it('has no Layer2 link in the zone of a node it is not active on', () => {
    expect(names(node2, 'Logical_Router_Port').filter((n) => n.includes('green'))).toEqual([]);
    expect(names(node1, 'Logical_Router_Port')).toContain('rtocr-cluster_udn_green_cnc1');
  });

  it('refuses a pod on a node its network is not active on, naming the field', () => {
    const text = world('  pods: [{name: p, namespace: ns-neta, node: node2}]');
    const problems = buildCluster(loadDocuments(text).documents).problems;
    expect(problems.map((p) => p.path)).toEqual(['Inventory/dyn: spec.pods[0].node']);
    expect(problems[0]!.message).toContain('network cluster_udn_neta of namespace ns-neta is not active on node node2');
  });
});
