/**
 * Helpers for the fidelity tests: plan an Inventory + objects text as `ovnk plan` does
 * (runtime planTopology) and look at a zone's rows as they will be written (parents inlined).
 * UPSTREAM_L3 is the input of upstream's Layer3 UDN controller test, as an Inventory and a UDN.
 */
import { expect } from 'vitest';
import type { DesiredRow } from '../../../provider/nb/desired';
import { inlineParents } from '../../../provider/nb/parents';
import { planTopology, type TopologyPlan } from '../../../provider/runtime/plan';
import { identityOf } from '../../../provider/topology/rows';

export function planOf(text: string): TopologyPlan {
  const result = planTopology(text);
  if (!result.ok) throw new Error(`input unusable: ${JSON.stringify(result.problems)}`);
  return result.plan;
}

/** A zone's rows with every child written into its parents' columns. */
export function zoneRows(plan: TopologyPlan, zone: string): DesiredRow[] {
  const found = plan.zones.find((z) => z.name === zone);
  expect(found, `zone ${zone}`).toBeDefined();
  return inlineParents(found!.rows);
}

export function rowsIn(rows: DesiredRow[], table: string): Record<string, any>[] {
  return rows.filter((r) => r.table === table).map((r) => r.columns as Record<string, any>);
}

/** The row of `table` with this identity (a name, or an id); fails the test when absent. */
export function rowOf(rows: DesiredRow[], table: string, identity: string): Record<string, any> {
  const found = rows.find((r) => r.table === table && identityOf(r) === identity);
  expect(found, `${table} ${identity}`).toBeDefined();
  return found!.columns as Record<string, any>;
}

export function has(rows: DesiredRow[], table: string, identity: string): boolean {
  return rows.some((r) => r.table === table && identityOf(r) === identity);
}

/** Upstream's chassisIDForNode("test-node") (pods_test.go: UUID v5 of the name in the OID namespace). */
export const TEST_NODE_CHASSIS = '6e7c7c0e-90ca-5886-8278-8d6507e0a380';

/**
 * The input of layer3_user_defined_network_controller_test.go: UDN `blue-net` in `namespace1`
 * (NAD `namespace1/blue-net`; upstream's test names the network `isolatednet`, ours is
 * `namespace1_blue-net`), network id 2, 192.168.0.0/16 with the node's 192.168.1.0/24, node
 * `test-node` id 4 with l3-gateway-config breth0 192.168.126.202/24 via 192.168.126.1 and MAC
 * 0a:58:c0:a8:7e:ca, masquerade subnet 169.254.169.0/24, pod `mypod` with a UID.
 */
export function upstreamL3(extra: { inventory?: string; network?: string } = {}): string {
  return `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: upstream}
spec:
  ipFamilies: [IPv4]
  masqueradeSubnets: [169.254.169.0/24]
  namespaces: [{name: namespace1}]
  nodes:
  - name: test-node
    id: 4
    chassisId: ${TEST_NODE_CHASSIS}
    gatewayBridge: breth0
    gatewayMac: 0a:58:c0:a8:7e:ca
    nodeIPs: [192.168.126.202/24]
    gatewayNextHops: [192.168.126.1]
    hostSubnets: {namespace1_blue-net: [192.168.1.0/24]}
  pods: [{name: mypod, namespace: namespace1, node: test-node, uid: 7f4b2d9e-3c1a-4e5b-9d8c-2a6f1e0b3c4d}]
${extra.inventory ?? ''}
---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: blue-net, namespace: namespace1, annotations: {k8s.ovn.org/network-id: "2"}}
spec:
  topology: Layer3
  layer3: {role: Primary, subnets: [{cidr: 192.168.0.0/16, hostSubnet: 24}]${extra.network ?? ''}}
`;
}
