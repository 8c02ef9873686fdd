/**
 * A primary Layer2 network moved from the old topology to the transit router node by node
 * (OKEP-5094 "Rolling upgrade and traffic disruption", "After upgrade cleanups") on real
 * ovsdb-servers, one per zone: each step is an ordinary plan and apply with one more node marked
 * `layer2TopologyVersion: "2.0"`; after each, diff is clean in every zone, and after the last node
 * the Northbounds hold exactly what a fresh apply of the new topology writes.
 */
import { describe, expect, it } from 'vitest';
import { applyZone, diffZone, planTopology, type RuntimeState, type TopologyPlan } from '../../../provider/runtime/cli';
import { dump } from '../../support/nbDump';
import { gatewayNode, layer2, networkFor, ownedNetworks } from '../../support/objects';
import { useZoneServers, type ZoneServers } from '../../support/zoneServers';

const owner = 'upgrade';
const NODES = ['n1', 'n2', 'n3'];

/** The world with `upgraded` on the transit router and the other nodes on the old topology. */
function world(upgraded: string[]): string {
  const nodes = [1, 2, 3].map((i) => ({
    ...gatewayNode(i),
    layer2TopologyVersion: upgraded.includes(`n${i}`) ? '2.0' : '1.0',
  }));
  const pods = NODES.map((node, i) => ({ name: `pod${i + 1}`, namespace: 'blue', node }));
  return ownedNetworks(owner, { zones: 'per-node', nodes, pods }, networkFor('blue', layer2(['10.20.0.0/16'])));
}

function plan(text: string, previous?: RuntimeState): TopologyPlan {
  const result = planTopology(text, previous);
  if (!result.ok) throw new Error(result.problems[0]!.message);
  return result.plan;
}

async function applyAll(zones: ZoneServers, p: TopologyPlan): Promise<void> {
  for (const [i, node] of NODES.entries()) {
    const zone = p.zones.find((z) => z.name === node)!;
    await applyZone(zones.clients[i]!, zone, owner, p.state);
  }
}

async function drift(zones: ZoneServers, p: TopologyPlan): Promise<string[]> {
  const lines: string[] = [];
  for (const [i, node] of NODES.entries())
    lines.push(
      ...(
        await diffZone(
          zones.clients[i]!,
          p.zones.find((z) => z.name === node)!,
          owner,
        )
      ).lines,
    );
  return lines;
}

const names = (rows: string[], pattern: RegExp) => rows.filter((r) => pattern.test(r)).map((r) => r.split(' ')[0]);

describe('a Layer2 network upgraded node by node to the transit router, on real ovsdb-servers', () => {
  const zones = useZoneServers(NODES.length);
  let state: RuntimeState | undefined;

  const step = async (upgraded: string[]): Promise<TopologyPlan> => {
    const p = plan(world(upgraded), state);
    await applyAll(zones, p);
    state = p.state;
    expect(await drift(zones, p)).toEqual([]);
    return p;
  };

  it('starts on the old topology: gateway routers on the switch, no transit router (n1, n2, n3 old)', async () => {
    await step([]);
    const n1 = await dump(zones.clients[0]!);
    expect(names(n1, /^Logical_Router:/)).toEqual(['Logical_Router:GR_cluster_udn_blue_n1']);
    expect(names(n1, /^Logical_Switch_Port:stor-/)).toEqual([
      'Logical_Switch_Port:stor-cluster_udn_blue_ovn_layer2_switch',
      'Logical_Switch_Port:stor-cluster_udn_blue_ovn_layer2_switch_n2',
      'Logical_Switch_Port:stor-cluster_udn_blue_ovn_layer2_switch_n3',
    ]);
  });

  it('upgrades n1: its zone gets the transit router and the -upgrade pair, the others keep the old topology', async () => {
    await step(['n1']);
    const n1 = await dump(zones.clients[0]!);
    expect(names(n1, /^Logical_Router:/)).toEqual([
      'Logical_Router:GR_cluster_udn_blue_n1',
      'Logical_Router:cluster_udn_blue_transit_router',
    ]);
    expect(names(n1, /-upgrade /)).toEqual([
      'Logical_Router_Port:trtos-cluster_udn_blue_ovn_layer2_switch-upgrade',
      'Logical_Switch_Port:stotr-cluster_udn_blue_ovn_layer2_switch-upgrade',
    ]);
    // the old gateway-router port and its switch peer are gone from n1's zone (gateway.go oldLayer2TopoCleanup)
    expect(
      names(n1, /^Logical_Router_Port:rtos-|^Logical_Switch_Port:stor-cluster_udn_blue_ovn_layer2_switch /),
    ).toEqual([]);
    expect(names(n1, /^Logical_Switch_Port:stor-cluster_udn_blue_ovn_layer2_switch_/)).toEqual([
      'Logical_Switch_Port:stor-cluster_udn_blue_ovn_layer2_switch_n2',
      'Logical_Switch_Port:stor-cluster_udn_blue_ovn_layer2_switch_n3',
    ]);
    // only trtos- answers for the management masquerade IP meanwhile (ensureUpgradeTopology)
    expect(names(n1, /169\.254\.0\.12\/17/)).toEqual(['Logical_Router_Port:trtos-cluster_udn_blue_ovn_layer2_switch']);
    const n2 = await dump(zones.clients[1]!);
    expect(names(n2, /^Logical_Router:/)).toEqual(['Logical_Router:GR_cluster_udn_blue_n2']);
  });

  it('upgrades n2: n1 and n2 hold each other as transit-router peers and n3 as an old node', async () => {
    await step(['n1', 'n2']);
    const n1 = await dump(zones.clients[0]!);
    expect(names(n1, /^Logical_Router_Port:trtor-/)).toEqual([
      'Logical_Router_Port:trtor-GR_cluster_udn_blue_n1',
      'Logical_Router_Port:trtor-GR_cluster_udn_blue_n2',
    ]);
    expect(names(n1, /^Logical_Switch_Port:stor-/)).toEqual([
      'Logical_Switch_Port:stor-cluster_udn_blue_ovn_layer2_switch_n3',
    ]);
  });

  let walked: string[][] = [];

  it('upgrades n3, the last: the transitional rows are removed and nothing of the old topology is left', async () => {
    await step(NODES);
    walked = await Promise.all(zones.clients.map((c) => dump(c)));
    for (const rows of walked) {
      expect(names(rows, /-upgrade |^Logical_Switch_Port:stor-|^Logical_Router_Port:rtos-/)).toEqual([]);
      expect(rows.filter((r) => r.includes('169.254.0.12/17'))).toEqual([]);
    }
  });

  describe('compared with a fresh apply of the new topology', () => {
    const fresh = useZoneServers(NODES.length);
    it('holds the same rows in every zone', async () => {
      await applyAll(fresh, plan(world(NODES)));
      const expected = await Promise.all(fresh.clients.map((c) => dump(c)));
      expect(walked.map((rows) => rows.length)).toEqual(expected.map((rows) => rows.length));
      expect(walked).toEqual(expected);
    });
  });
});
