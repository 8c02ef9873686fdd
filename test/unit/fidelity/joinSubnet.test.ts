/**
 * A primary network's join subnet must hold every active node's gateway-router address: upstream
 * takes node id N's as the join subnet's Nth address (util.GetGWRouterIPs, GenerateIPFromOffset)
 * and fails that node otherwise ("generated ip 172.16.0.4 from the idx 4 is out of range in the
 * network 172.16.0.0/30", measured by the oracle's fuzz, seed 24, cases 403 and 1045), leaving it
 * without the network's gateway router. We refuse such a join subnet before writing anything.
 */
import { describe, expect, it } from 'vitest';
import { planTopology } from '../../../provider/runtime/plan';

const withJoin = (topology: 'Layer3' | 'Layer2', join: string) => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: join}
spec:
  namespaces: [{name: a}]
  nodes: [{name: n1, id: 2, chassisId: c1}, {name: n2, id: 3, chassisId: c2}, {name: n3, id: 4, chassisId: c3}]
---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: blue, namespace: a}
spec:
  topology: ${topology}
  ${topology === 'Layer3' ? 'layer3: {role: Primary, subnets: [{cidr: 10.10.0.0/16}]' : 'layer2: {role: Primary, subnets: [10.10.0.0/16]'}, joinSubnets: [${join}]}
`;

const problemsOf = (text: string) => {
  const planned = planTopology(text);
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  return planned.plan.problems;
};

describe('join subnets', () => {
  it.each(['Layer3', 'Layer2'] as const)(
    'refuse a %s join subnet /30 that holds node ids 0-3 when a node has id 4, naming the field and the node',
    (topology) => {
      expect(problemsOf(withJoin(topology, '172.16.0.0/30'))).toEqual([
        expect.objectContaining({
          reason: 'JoinSubnetTooSmall',
          path: `UserDefinedNetwork/a/blue: spec.${topology.toLowerCase()}.joinSubnets[0]`,
          message: expect.stringContaining(
            'join subnet "172.16.0.0/30" of network a_blue holds node ids below 4 only; n3 (node id 4) would get no gateway-router address',
          ),
        }),
      ]);
    },
  );

  it('accept a /29, which holds node ids up to 7', () => {
    expect(problemsOf(withJoin('Layer3', '172.16.0.0/29'))).toEqual([]);
  });
});
