/**
 * A plan says which Uplink CUDNs get no gateway on which node, and why in upstream's words, so a
 * platform team sees at preview what upstream's ovnkube-controller only reports afterwards as the
 * node's error. Expected texts from upstream: go-controller/pkg/ovn/uplink_gateway.go
 * uplinkGatewayConfig ("waiting for UplinkState %s for uplink %q on node %q") and
 * go-controller/pkg/uplink/state.go ValidateOVSBridgeState ("uplink state %s for uplink %q on node
 * %q is not resolved"); the reasons are the CUDN's UplinksReady condition reasons
 * (uplink-upstream.md: MissingUplinkState, UplinkStateNotResolved).
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planTopology } from '../../../provider/runtime/plan';
import { uplinkGatewayWarnings, type YamlObject } from '../../../provider/runtime/pulumi';
import type { UplinkState } from '../../../provider/uplink/conditions';
import { documentOf, ovnk } from '../../support/cli';
import { cudn, inventory, layer3 } from '../../support/objects';
import { resolvedUplinkState, uplinkGatewayWorld } from '../../support/worlds';

const onBlue = (id: string) => ({ uplinks: ['blue'], annotations: { 'k8s.ovn.org/network-id': id } });
const world = uplinkGatewayWorld;
const state = resolvedUplinkState;

function warningsWith(states: UplinkState[]) {
  const result = planTopology(world, undefined, { uplinkStates: states });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan.warnings;
}

describe("a plan's warnings about Uplink CUDNs' gateways", () => {
  it('names the node, the Uplink, the network and upstream\'s "waiting for UplinkState" while the state is missing', () => {
    const upstream = 'waiting for UplinkState blue.node-a for uplink "blue" on node "node-a"';
    expect(warningsWith([])).toEqual(
      ['l2', 'l3'].map((name) => ({
        reason: 'MissingUplinkState',
        object: `ClusterUserDefinedNetwork/${name}`,
        path: `ClusterUserDefinedNetwork/${name}: spec.uplinks`,
        message: `node node-a gets no gateway for network cluster_udn_${name} on Uplink blue until its UplinkState resolves (upstream: ${upstream}); the next apply after it resolves adds it whole`,
      })),
    );
  });

  it("gives ValidateOVSBridgeState's words while the state is not resolved, and nothing once it is", () => {
    const waiting = warningsWith([state('False')]);
    expect(waiting.map((w) => w.reason)).toEqual(['UplinkStateNotResolved', 'UplinkStateNotResolved']);
    for (const w of waiting)
      expect(w.message).toContain(
        '(upstream: uplink state blue.node-a for uplink "blue" on node "node-a" is not resolved)',
      );
    expect(warningsWith([state('True')])).toEqual([]);
  });

  it('is printed by ovnk plan on stderr and carried in the JSON document, one per node and network', () => {
    const file = path.resolve(__dirname, '../../fixtures/uplink-lab.yaml');
    const json = ovnk(['plan', '-f', file, '-o', 'json']);
    expect(json.code).toBe(0);
    const warnings = documentOf(json).warnings as { reason: string; path: string; message: string }[];
    // offline nothing is discovered: every node of tenant-red (Uplink red) and tenant-blue (Uplink blue's two groups)
    const nodesOf = (network: string) =>
      warnings
        .filter((w) => w.path.startsWith(`ClusterUserDefinedNetwork/${network}:`))
        .map((w) => w.message.split(' ')[1]);
    expect(nodesOf('tenant-red')).toEqual(['ovn-worker', 'ovn-worker2', 'ovn-worker3']);
    expect(nodesOf('tenant-blue')).toEqual(['ovn-worker', 'ovn-worker2', 'ovn-worker3']);
    expect(warnings.every((w) => w.reason === 'MissingUplinkState')).toBe(true);
    const lines = json.stderr.split('\n').filter((l) => l.startsWith('Warning: '));
    expect(lines).toHaveLength(warnings.length);
    expect(lines[0]).toMatch(
      /^Warning: ClusterUserDefinedNetwork\/tenant-\w+: spec\.uplinks: node ovn-worker\d? gets no gateway/,
    );
  });

  it('is what a Pulumi CUDN component logs: the same warning per node its Inventory makes it active on', () => {
    const nodes = [
      { name: 'node-a', networks: ['l3'] },
      { name: 'node-b', networks: [] },
    ];
    const [inv, network] = [inventory('upl', { nodes }), cudn('l3', layer3('10.100.0.0/16', 24), onBlue('2'))].map(
      (o) => o as unknown as YamlObject,
    );
    const mock = {}; // a state not read back yet (mocks): no state
    const logged = uplinkGatewayWarnings(inv, network, [mock]);
    expect(logged).toEqual([warningsWith([]).find((w) => w.object === 'ClusterUserDefinedNetwork/l3')]);
    expect(uplinkGatewayWarnings(inv, network, [state('True')])).toEqual([]);
  });

  it('counts a node that lists no networks as active, as the planner does, beside one that lists them', () => {
    const nodes = [{ name: 'node-a' }, { name: 'node-b', networks: [] }];
    const [inv, network] = [inventory('upl', { nodes }), cudn('l3', layer3('10.100.0.0/16', 24), onBlue('2'))].map(
      (o) => o as unknown as YamlObject,
    );
    expect(uplinkGatewayWarnings(inv, network, []).map((w) => w.message.split(' ')[1])).toEqual(['node-a']);
  });
});
