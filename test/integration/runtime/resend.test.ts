import { beforeAll, expect, it } from 'vitest';
import type { OvsdbDatabase } from '../../../provider/ovsdb/client';
import { applyZone, diffZone, planTopology } from '../../../provider/runtime/cli';
import { blueLayer3, chassisNode, useNorthbound } from '../../support/worlds';

// A RAFT leader killed after it committed, before its answer arrived, makes the cluster client
// send the same transaction again to the next leader (provider/ovsdb/cluster.ts). Here a real
// server gets each writing transaction twice, in a row, as that resend does: the second must
// fail (its guard, or on an owner's first apply, whose marker was absent, its first insert: the
// uuid we chose for it is taken by the first commit, provider/ovsdb/rowUuids.ts) and be
// recognised as our own commit, instead of writing its rows a second time.
const owner = 'resent';
const topology = blueLayer3(owner, [chassisNode(1)]);

const nb = useNorthbound();

beforeAll(async () => {
  await nb.client.transact('OVN_Northbound', [{ op: 'insert', table: 'NB_Global', row: {} }]);
});

/** Every writing transaction committed once, then sent again; the caller gets the second answer. */
function resending(sent: number[]): OvsdbDatabase {
  return {
    endpoint: nb.client.endpoint,
    listDbs: () => nb.client.listDbs(),
    getSchema: (db) => nb.client.getSchema(db),
    transact: async (db, ops, options) => {
      if (ops.every((op) => op.op === 'select')) return nb.client.transact(db, ops, options);
      await nb.client.transact(db, ops, options);
      sent.push(ops.length);
      return nb.client.transact(db, ops, options);
    },
    close: () => undefined,
  };
}

it("an owner's first apply, resent after it committed, is reported committed and its rows exist once", async () => {
  const planned = planTopology(topology);
  if (!planned.ok) throw new Error(planned.problems[0]!.message);
  const zone = planned.plan.zones[0]!;
  const sent: number[] = [];
  const result = await applyZone(resending(sent), zone, owner, planned.plan.state);
  expect(result.sent).toBe(true);
  expect(sent).toHaveLength(1);
  const [routers] = await nb.client.transact('OVN_Northbound', [
    { op: 'select', table: 'Logical_Router', where: [], columns: ['name'] },
  ]);
  const names = routers!.rows!.map((row) => String(row.name));
  expect(names.length).toBeGreaterThan(1);
  expect(names).toEqual([...new Set(names)]);
  expect((await diffZone(nb.client, zone, owner)).lines).toEqual([]);
});
