import { describe, expect, it } from 'vitest';
import { buildCluster } from '../../../provider/model/cluster';
import { loadDocuments } from '../../../provider/model/load';
import { type NodeDiscovery, planUplinks } from '../../../provider/uplink';
import { ovsBridgeConfig } from '../../support/objects';
import { blueUplinkCluster, mappedFacts, nodeFacts, tenant } from './world';

function clusterOf(nodes: string) {
  const built = blueUplinkCluster(nodes, [ovsBridgeConfig('blue0', { uplink: 'yes' })], tenant);
  expect(built.problems).toEqual([]);
  return built.cluster;
}

const discoverAll = (...nodes: string[]) =>
  new Map<string, NodeDiscovery>(nodes.map((n) => [n, { ok: true, value: nodeFacts(n) }]));

describe('where a CUDN is active (Inventory spec.nodes[].networks)', () => {
  it('parses the list and leaves nodes without it active for every network', () => {
    const cluster = clusterOf(
      '[{ name: n1, gatewayBridge: breth0, networks: [tenant] }, { name: n2, gatewayBridge: breth0 }]',
    );
    expect(cluster.inventory.nodes.map((n) => n.networks)).toEqual([['tenant'], undefined]);
  });

  it('a wrongly typed list names the field', () => {
    const text =
      'apiVersion: ovnk/v1alpha1\nkind: Inventory\nmetadata: { name: inv }\nspec:\n  nodes: [{ name: n1, networks: tenant }]\n';
    const { problems } = buildCluster(loadDocuments(text).documents);
    expect(problems.map((p) => p.path)).toContain('Inventory/inv: spec.nodes[0].networks');
  });

  it('without narrowing, a node the Uplink does not select fails the CUDN with UplinkNotFoundForNode', () => {
    const cluster = clusterOf(
      "[{ name: n1, gatewayBridge: breth0, labels: { uplink: 'yes' } }, { name: n2, gatewayBridge: breth0 }]",
    );
    const plan = planUplinks({ cluster, owner: 'o', discovery: discoverAll('n1', 'n2') });
    expect(plan.networks.cluster_udn_tenant!.conditions[0]).toMatchObject({
      reason: 'UplinksNotReady',
      message: expect.stringContaining('blue/n2=UplinkNotFoundForNode'),
    });
  });

  it('a node where the CUDN is not active neither counts for UplinksReady nor gets its mapping', () => {
    const cluster = clusterOf(
      "[{ name: n1, gatewayBridge: breth0, labels: { uplink: 'yes' } }, { name: n2, gatewayBridge: breth0, labels: { uplink: 'yes' }, networks: [] }]",
    );
    const plan = planUplinks({ cluster, owner: 'o', discovery: discoverAll('n1', 'n2') });
    expect(plan.nodes.map((n) => [n.node, n.desired])).toEqual([
      ['n1', [{ network: 'cluster_udn_tenant', bridge: 'br-blue' }]],
      ['n2', []],
    ]);
    expect(plan.nodes[1]!.change).toBeUndefined();
    const n2 = plan.uplinkStates.find((s) => s.spec.nodeName === 'n2')!;
    expect(n2.status.conditions.find((c) => c.type === 'GatewayReady')).toMatchObject({
      status: 'True',
      message: 'No active CUDNs require Uplink gateway programming',
    });
    expect(plan.networks.cluster_udn_tenant!.conditions[0]).toMatchObject({
      reason: 'GatewayConfigurationPending',
      message: expect.stringMatching(/^1 active node\/uplink readiness check\(s\) failed; examples: blue\/n1=/),
    });
  });

  it('narrowing the CUDN away from an unselected node makes it ready there', () => {
    const cluster = clusterOf(
      "[{ name: n1, gatewayBridge: breth0, labels: { uplink: 'yes' } }, { name: n2, gatewayBridge: breth0, networks: [] }]",
    );
    const mapped = mappedFacts('n1', ['cluster_udn_tenant']);
    const plan = planUplinks({
      cluster,
      owner: 'o',
      discovery: new Map<string, NodeDiscovery>([
        ['n1', { ok: true, value: mapped }],
        ['n2', { ok: true, value: nodeFacts('n2') }],
      ]),
    });
    expect(plan.networks.cluster_udn_tenant!.conditions[0]).toMatchObject({ status: 'True', reason: 'UplinksReady' });
  });

  it('a name that is no network of the file is refused as unusable input, naming the field and the value', () => {
    const text = `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: inv}
spec:
  namespaces: [{name: a}]
  nodes: [{ name: n1, networks: [tenant, ghost] }]
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: tenant}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: a}}
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.1.0.0/16}]}}
`;
    expect(buildCluster(loadDocuments(text).documents).problems).toEqual([
      expect.objectContaining({
        reason: 'InvalidSpec',
        path: 'Inventory/inv: spec.nodes[0].networks[1]',
        message: expect.stringContaining('"ghost" is not a network of this file'),
      }),
    ]);
  });
});
