/**
 * Point 10 of issue 16: the offline plan (no node discovered) shows the Uplink conditions that
 * need no discovery: a node two nodeConfigs select (upstream's NodeSelectorOverlap on the
 * Uplink, UplinkOverlapOnNode on the CUDN) and an active node the Uplink does not select
 * (UplinkNotFoundForNode), with upstream's reasons and message forms (uplink-upstream.md sections
 * 2.2 and 5; cluster-manager's uplink and CUDN controllers). What needs a node (Resolved,
 * GatewayReady) is left out: offline, every selected node counts as fine, so the messages count
 * only the failures known without discovery, and a condition that would be True is not shown.
 * Issue 26 point 9: the UplinkState of a node two nodeConfigs select carries Resolved=False
 * NodeSelectorOverlap offline too, as upstream's node controller creates it before any discovery
 * (pkg/node/uplink/controller.go selectedNodeConfigForNode; controller_test.go
 * TestNodeUplinkControllerCreatesOverlappingNodeStateWithInitialStatus).
 */
import { describe, expect, it } from 'vitest';
import { planUplinks } from '../../../provider/uplink';
import { ovsBridgeConfig } from '../../support/objects';
import { blueUplinkCluster, tenant } from './world';

const world = (nodes: string) => {
  const configs = [ovsBridgeConfig('blue0', { a: '1' }), ovsBridgeConfig('blueb0', { b: '1' })];
  const { cluster, problems } = blueUplinkCluster(nodes, configs, tenant);
  expect(problems).toEqual([]);
  return planUplinks({ cluster, owner: 'o' });
};

const strip = (c: { type: string; status: string; reason: string; message: string }) => [
  c.type,
  c.status,
  c.reason,
  c.message,
];

describe('the offline Uplink plan', () => {
  it('shows a node two nodeConfigs select and a node none selects, on the Uplink and on the CUDN', () => {
    const plan = world('[{ name: n1, labels: { a: "1" } }, { name: n2, labels: { a: "1", b: "1" } }, { name: n3 }]');
    expect(plan.uplinks[0]!.status.conditions.map(strip)).toEqual([
      [
        'Ready',
        'False',
        'NodeSelectorOverlap',
        '1 of 2 selected node(s) have readiness failures; examples: n2=NodeSelectorOverlap',
      ],
    ]);
    expect(plan.networks.cluster_udn_tenant!.conditions.map(strip)).toEqual([
      [
        'UplinksReady',
        'False',
        'UplinksNotReady',
        '2 active node/uplink readiness check(s) failed; examples: blue/n2=UplinkOverlapOnNode, blue/n3=UplinkNotFoundForNode',
      ],
    ]);
  });

  it('names a CUDN not selected on a node with its reason, and shows nothing that needs discovery', () => {
    const plan = world('[{ name: n1, labels: { a: "1" } }, { name: n3 }]');
    expect(plan.uplinks[0]!.status.conditions).toEqual([]);
    expect(plan.networks.cluster_udn_tenant!.conditions.map(strip)).toEqual([
      [
        'UplinksReady',
        'False',
        'UplinkNotFoundForNode',
        '1 active node/uplink readiness check(s) failed; examples: blue/n3=UplinkNotFoundForNode',
      ],
    ]);
    expect(plan.uplinkStates.map((s) => s.status.conditions)).toEqual([[]]);
  });

  it('marks the UplinkState of a node two nodeConfigs select Resolved=False NodeSelectorOverlap without discovery', () => {
    const plan = world('[{ name: n1, labels: { a: "1" } }, { name: n2, labels: { a: "1", b: "1" } }]');
    const byNode = new Map(plan.uplinkStates.map((s) => [s.spec.nodeName, s.status]));
    expect(byNode.get('n2')).toEqual({
      type: 'OVSBridge',
      conditions: [
        {
          type: 'Resolved',
          status: 'False',
          reason: 'NodeSelectorOverlap',
          message: 'multiple Uplink "blue" nodeConfigs select node "n2"',
        },
      ],
    });
    // the node one nodeConfig selects still waits for discovery: nothing is claimed about it
    expect(byNode.get('n1')!.conditions).toEqual([]);
  });
});
