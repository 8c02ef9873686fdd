/**
 * Pinned values (host subnet pins of the Inventory, tunnel keys an annotation names) refused for
 * a typed reason: the allocator says which reason and who holds the value, the planner turns the
 * reason into the Problem's, and `ovnk plan` and the Pulumi check show that Problem.
 */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { TunnelKeyAllocator } from '../../../provider/alloc/datapathKeys';
import { planTopology } from '../../../provider/runtime/plan';
import { pulumiKinds } from '../../../provider/runtime/pulumi';
import { documentOf, ovnk } from '../../support/cli';

const world = (pins: string) => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: pins}
spec:
  zones: per-node
  namespaces: [{name: blue, labels: {network: blue}}]
  nodes:
    - {name: n1, chassisId: c1, hostSubnets: {cluster_udn_blue: [10.10.1.0/24]}}
    - {name: n2, chassisId: c2, hostSubnets: {cluster_udn_blue: [${pins}]}}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: blue}
spec:
  namespaceSelector: {matchLabels: {network: blue}}
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.10.0.0/16, hostSubnet: 24}]}}
`;

function problemsOf(text: string) {
  const planned = planTopology(text);
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  return planned.plan.problems;
}

describe('tunnel keys reserved by a reason', () => {
  const keys = new TunnelKeyAllocator(undefined, new Map([[16716001, 'owner "a" (connect-router/x)']]));
  keys.reserve('transit-router/blue', 16716000);

  it('reserves a free key and gives it back', () => {
    expect(keys.reserve('connect-router/c', 16716002)).toEqual({ ok: true, value: 16716002 });
  });

  it('says outOfRange, taken (by whom) or otherOwner (by whom) with the words it always had', () => {
    expect(keys.reserve('connect-router/c', 5)).toEqual({
      ok: false,
      reason: 'outOfRange',
      why: 'tunnel key 5 is outside 16715779..16777215',
    });
    expect(keys.reserve('connect-router/c', 16716000)).toEqual({
      ok: false,
      reason: 'taken',
      holder: 'transit-router/blue',
      why: 'tunnel key 16716000 is already used by transit-router/blue',
    });
    expect(keys.reserve('connect-router/c', 16716001)).toEqual({
      ok: false,
      reason: 'otherOwner',
      holder: 'owner "a" (connect-router/x)',
      why: 'tunnel key 16716001 is held by owner "a" (connect-router/x) in this Northbound',
    });
  });
});

describe('host subnet pins refused by a reason', () => {
  const taken = {
    reason: 'HostSubnetConflict',
    object: 'Inventory',
    path: 'Inventory: spec.nodes[n2].hostSubnets.cluster_udn_blue',
    message: 'host subnet pin of node n2 for network cluster_udn_blue: network 10.10.1.0/24 already owned by n1',
  };

  it('a pin another node holds is a HostSubnetConflict naming the holder', () => {
    expect(problemsOf(world('10.10.1.0/24'))).toEqual([taken]);
  });

  it("a pin outside the network's subnets is a HostSubnetConflict too", () => {
    expect(problemsOf(world('10.99.0.0/24'))).toEqual([
      {
        ...taken,
        message:
          'host subnet pin of node n2 for network cluster_udn_blue: network 10.99.0.0/24 does not belong to any known range',
      },
    ]);
  });

  it('reaches ovnk plan as a refusal (exit 1) with the same reason, path and words', () => {
    const run = ovnk(['plan', '-f', '-', '-o', 'json'], { input: world('10.10.1.0/24') });
    expect(run.code).toBe(1);
    const { reason, path, message } = taken;
    expect(documentOf(run).problems).toEqual([{ reason, path, message }]);
  });

  it("reaches the Pulumi check as the same reason and words, at the pin's path", async () => {
    const [inventory, ...networks] = parseAllDocuments(world('10.10.1.0/24')).map((d) => d.toJS());
    const checked = await pulumiKinds.ClusterAllocations.check({}, { owner: 'o', inventory, networks, connects: [] });
    expect(checked.failures).toEqual([
      {
        property: 'inventory.spec.nodes[n2].hostSubnets.cluster_udn_blue',
        reason: `HostSubnetConflict: ${taken.message}`,
      },
    ]);
  });
});
