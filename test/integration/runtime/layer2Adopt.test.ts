/**
 * Taking over a Northbound whose old Layer2 topology ovn-kubernetes wrote (no ovnk owner marker),
 * for OKEP-5094's rolling upgrade: refused, naming the rows, unless the Inventory says
 * `adoptUpstreamRows: true`; then the apply makes the zone hold exactly the planned rows, with
 * nothing of the old topology left behind. Upstream's rows are simulated as our own rendering of
 * the old topology with every ovnk trace removed (test/support/upstreamLike.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { OvsdbClient } from '../../../provider/ovsdb/client';
import type { Operation } from '../../../provider/ovsdb/notation';
import { UpstreamRowsError } from '../../../provider/runtime/adoptUpstream';
import { applyZone, diffZone, planTopology, type TopologyPlan } from '../../../provider/runtime/cli';
import { dump } from '../../support/nbDump';
import { gatewayNode, layer2, networkFor, ownedNetworks } from '../../support/objects';
import { recording, writes } from '../../support/recordingDatabase';
import { stripOurMarks } from '../../support/upstreamLike';
import { useZoneServers } from '../../support/zoneServers';

const NB = 'OVN_Northbound';
const NODES = ['n1', 'n2'];

function world(owner: string, upgraded: string[], adopt = false): TopologyPlan {
  const nodes = [1, 2].map((i) => ({
    ...gatewayNode(i),
    layer2TopologyVersion: upgraded.includes(`n${i}`) ? '2.0' : '1.0',
  }));
  const pods = NODES.map((node, i) => ({ name: `pod${i + 1}`, namespace: 'blue', node }));
  const spec = { zones: 'per-node', nodes, pods, ...(adopt ? { adoptUpstreamRows: true } : {}) };
  const result = planTopology(ownedNetworks(owner, spec, networkFor('blue', layer2(['10.20.0.0/16']))));
  if (!result.ok) throw new Error(result.problems[0]!.message);
  return result.plan;
}

const zoneOf = (p: TopologyPlan, node: string) => p.zones.find((z) => z.name === node)!;

/** Every row's table, name (or uuid-free columns) of the zone, sorted: what changed shows as a difference. */
async function names(client: OvsdbClient): Promise<string[]> {
  const schema = await client.getSchema(NB);
  const tables = Object.keys(schema.tables).filter((t) => t !== 'NB_Global' && schema.tables[t]!.columns.name);
  const results = await client.transact(
    NB,
    tables.map((table): Operation => ({ op: 'select', table, where: [], columns: ['name'] })),
  );
  return results.flatMap((r, i) => (r.rows ?? []).map((row) => `${tables[i]}:${String(row.name)}`)).sort();
}

describe('a Northbound holding the old Layer2 topology without owner markers (as ovn-kubernetes wrote it)', () => {
  const zones = useZoneServers(NODES.length);
  const fresh = useZoneServers(NODES.length);

  beforeAll(async () => {
    const old = world('upstream-sim', []);
    for (const [i, node] of NODES.entries()) {
      await applyZone(zones.clients[i]!, zoneOf(old, node), 'upstream-sim', old.state);
      await stripOurMarks(zones.servers[i]!.unix);
    }
  }, 60_000);

  it('refuses to upgrade it without adoptUpstreamRows, naming upstream rows and changing nothing', async () => {
    const before = await names(zones.clients[0]!);
    const p = world('upgrade', ['n1']);
    const refused = applyZone(zones.clients[0]!, zoneOf(p, 'n1'), 'upgrade', p.state);
    const error = await refused.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamRowsError);
    expect((error as UpstreamRowsError).rows).toEqual(
      expect.arrayContaining([
        'Logical_Switch "cluster_udn_blue_ovn_layer2_switch"',
        'Logical_Router "GR_cluster_udn_blue_n1"',
        'Logical_Router_Port "rtos-cluster_udn_blue_ovn_layer2_switch"',
      ]),
    );
    expect((error as Error).message).toMatch(/without an ovnk owner marker.*set spec\.adoptUpstreamRows: true/);
    expect(await names(zones.clients[0]!)).toEqual(before);
  });

  it('with adoptUpstreamRows takes the rows over: diff clean, and exactly what a fresh apply writes', async () => {
    for (const upgraded of [['n1'], NODES]) {
      const p = world('upgrade', upgraded, true);
      for (const [i, node] of NODES.entries()) {
        const result = await applyZone(zones.clients[i]!, zoneOf(p, node), 'upgrade', p.state);
        expect(result.sent).toBe(true);
        expect((await diffZone(zones.clients[i]!, zoneOf(p, node), 'upgrade')).lines).toEqual([]);
      }
    }
    const done = world('upgrade', NODES);
    for (const [i, node] of NODES.entries())
      await applyZone(fresh.clients[i]!, zoneOf(done, node), 'upgrade', done.state);
    // upstream's Copp and meters stay upstream's, as any owner's shared rows do (nb/shared.ts): compared apart
    const SHARED = ['Copp', 'Meter', 'Meter_Band'];
    for (const i of NODES.keys())
      expect(await dump(zones.clients[i]!, SHARED)).toEqual(await dump(fresh.clients[i]!, SHARED));
    const copp = (rows: string[]) => rows.filter((r) => r.startsWith('Copp:')).map((r) => r.split(' ')[0]);
    expect(copp(await dump(zones.clients[0]!))).toEqual(['Copp:ovnkube-default']);
    // the first apply took the rows over; the old topology's own rows are gone with the last node
    const n1 = await names(zones.clients[0]!);
    expect(n1.filter((n) => /:(stor-|rtos-)|-upgrade$/.test(n))).toEqual([]);
  });
});

describe('taking upstream rows over costs one read phase and one transaction (nb/upstreamRows.ts)', () => {
  const zone = useZoneServers(1);

  it('reads them by condition only, never a whole table of rows, and writes rows and takeover in one transaction', async () => {
    const old = world('upstream-sim', []);
    await applyZone(zone.clients[0]!, zoneOf(old, 'n1'), 'upstream-sim', old.state);
    await stripOurMarks(zone.servers[0]!.unix);
    const p = world('upgrade', ['n1'], true);
    const db = recording(zone.clients[0]!);
    const result = await applyZone(db, zoneOf(p, 'n1'), 'upgrade', p.state);
    expect(result.notes[0]).toMatch(/^took over \d+ rows written without an owner marker/);
    expect(writes(db)).toHaveLength(1);
    // the zone's own bookkeeping reads NB_Global and the few Copp and Meter rows whole (zone.ts lookup)
    const whole = db.sent
      .flat()
      .filter(
        (op) => op.op === 'select' && op.where.length === 0 && !['NB_Global', 'Copp', 'Meter'].includes(op.table),
      );
    expect(whole).toEqual([]);
    expect((await diffZone(zone.clients[0]!, zoneOf(p, 'n1'), 'upgrade')).lines).toEqual([]);
    const again = recording(zone.clients[0]!);
    expect((await applyZone(again, zoneOf(p, 'n1'), 'upgrade', p.state)).sent).toBe(false);
    // once taken over, a re-apply's probe asks per table for the three topologies, not per network
    const probes = (key: string) =>
      again.sent
        .flat()
        .filter((op) => op.op === 'select' && ['Logical_Switch', 'Logical_Router'].includes(op.table))
        .filter((op) => JSON.stringify((op as { where: unknown }).where).includes(key));
    expect(probes('k8s.ovn.org/network')).toEqual([]);
    expect(probes('k8s.ovn.org/topology')).toHaveLength(6);
  });
});
