import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OvsdbClient } from '../../../provider/ovsdb/client';
import type { Operation } from '../../../provider/ovsdb/notation';
import {
  applyZone,
  destroyZone,
  diffZone,
  OwnerConflictError,
  type OtherOwners,
  planTopology,
  type TopologyPlan,
} from '../../../provider/runtime/cli';
import { startNbUnderTest, stopNbUnderTest } from '../../support/nbUnderTest';
import type { OvsdbServer } from '../../support/ovsdbServer';
import { recording } from '../../support/recordingDatabase';
import { oneLayer3 } from '../../support/worlds';

const NB = 'OVN_Northbound';

const topology = oneLayer3;

let server: OvsdbServer;
let client: OvsdbClient;

beforeAll(async () => {
  ({ server, client } = await startNbUnderTest());
});

afterAll(() => stopNbUnderTest({ server, client }));

/** Planned as the CLI plans: the other owners' allocations stored in the Northbound are taken. */
function plan(text: string, others: OtherOwners = {}): TopologyPlan {
  const result = planTopology(text, undefined, { others });
  if (!result.ok) throw new Error(result.problems[0]!.message);
  return result.plan;
}

async function select(table: string, columns?: string[]) {
  const op: Operation = { op: 'select', table, where: [], ...(columns ? { columns } : {}) };
  return (await client.transact(NB, [op]))[0]!.rows ?? [];
}

const users = (row: Record<string, unknown>) =>
  Object.keys(row.external_ids as object)
    .filter((k) => k.startsWith('ovnk.io/user/'))
    .sort();

describe('two owners in one Northbound share the Copp and the meters', () => {
  const blue = plan(topology('owner-a', 'blue', '10.10.0.0/16'));
  const red = plan(topology('owner-b', 'red', '10.20.0.0/16'), { 'owner-a': blue.state.allocation });

  it('each owner claims the shared rows the other created, with one row of each', async () => {
    await applyZone(client, blue.zones[0]!, 'owner-a', blue.state);
    await applyZone(client, red.zones[0]!, 'owner-b', red.state);
    const copps = await select('Copp', ['_uuid', 'external_ids']);
    expect(copps).toHaveLength(1);
    expect(users(copps[0]!)).toEqual(['ovnk.io/user/owner-a', 'ovnk.io/user/owner-b']);
    expect((await select('Meter', ['name', 'external_ids'])).map(users)).toEqual(
      Array(10).fill(['ovnk.io/user/owner-a', 'ovnk.io/user/owner-b']),
    );
    expect((await applyZone(client, red.zones[0]!, 'owner-b', red.state)).sent).toBe(false);
    expect((await applyZone(client, blue.zones[0]!, 'owner-a', blue.state)).sent).toBe(false);
  });

  it('destroying one owner leaves the shared rows to the other, whose routers keep their Copp', async () => {
    const [copp] = await select('Copp', ['_uuid']);
    const destroyed = await destroyZone(client, 'central', 'owner-a');
    expect(destroyed.summary).toContain('update Copp "ovnkube-default": released, still used by owner-b');
    const routers = await select('Logical_Router', ['name', 'copp']);
    expect(routers.length).toBeGreaterThan(0);
    for (const router of routers) expect(router.copp).toEqual(copp!._uuid);
    expect(users((await select('Copp', ['external_ids']))[0]!)).toEqual(['ovnk.io/user/owner-b']);
    expect(await select('Meter')).toHaveLength(10);
    // Meters of one rate share one band, as upstream's EnsureDefaultCOPP makes them (see provider/topology/shared.ts).
    expect(await select('Meter_Band')).toHaveLength(2);
    expect((await diffZone(client, red.zones[0]!, 'owner-b')).lines).toEqual([]);
  });

  it('destroying the last owner removes them', async () => {
    await destroyZone(client, 'central', 'owner-b');
    expect(await select('Copp')).toEqual([]);
    expect(await select('Meter')).toEqual([]);
    expect(await select('Meter_Band')).toEqual([]);
    expect(await select('Logical_Router')).toEqual([]);
  });
});

describe('the last user of the shared rows, raced by another owner', () => {
  it('releases them instead of deleting them when another owner claims them between its read and its commit', async () => {
    const blue = plan(topology('owner-a', 'blue', '10.10.0.0/16'));
    const red = plan(topology('owner-b', 'red', '10.20.0.0/16'), { 'owner-a': blue.state.allocation });
    await applyZone(client, blue.zones[0]!, 'owner-a', blue.state);
    const db = recording(client, {
      beforeWrite: async (_ops, attempt) => {
        if (attempt === 1) await applyZone(client, red.zones[0]!, 'owner-b', red.state);
      },
    });
    const destroyed = await destroyZone(db, 'central', 'owner-a', { backoffMs: 1 });
    expect(destroyed.attempts).toBe(2);
    const [copp] = await select('Copp', ['_uuid', 'external_ids']);
    expect(users(copp!)).toEqual(['ovnk.io/user/owner-b']);
    const routers = await select('Logical_Router', ['name', 'copp']);
    expect(routers.length).toBeGreaterThan(0);
    for (const router of routers) expect(router.copp).toEqual(copp!._uuid);
    expect(await select('Meter')).toHaveLength(10);
    expect((await diffZone(client, red.zones[0]!, 'owner-b')).lines).toEqual([]);
    await destroyZone(client, 'central', 'owner-b');
    expect(await select('Copp')).toEqual([]);
  });
});

describe('two owners allocating in one Northbound', () => {
  it("refuses, naming the other owner, an apply planned before that owner's allocations were stored", async () => {
    const green = plan(topology('owner-c', 'green', '10.30.0.0/16'));
    const yellow = plan(topology('owner-d', 'yellow', '10.40.0.0/16'));
    expect(yellow.allocation.networkIds).toEqual({ cluster_udn_yellow: 1 });
    await applyZone(client, green.zones[0]!, 'owner-c', green.state);
    const error = await applyZone(client, yellow.zones[0]!, 'owner-d', yellow.state).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OwnerConflictError);
    expect((error as Error).message).toMatch(
      /network id 1 of network "cluster_udn_yellow" is also held by owner "owner-c" \(network "cluster_udn_green"\); nothing was written: another owner allocated it meanwhile: plan and apply again$/,
    );
    expect(await select('Logical_Switch', ['name'])).not.toContainEqual({ name: 'cluster_udn_yellow_join' });
    await destroyZone(client, 'central', 'owner-c');
  });

  it("retries when another owner's state changes between our read and our commit, and re-checks against the new one", async () => {
    const green = plan(topology('owner-c', 'green', '10.30.0.0/16'));
    await applyZone(client, green.zones[0]!, 'owner-c', green.state);
    const yellow = plan(topology('owner-d', 'yellow', '10.40.0.0/16'), { 'owner-c': green.state.allocation });
    const moved = plan(topology('owner-c', 'green', '10.31.0.0/16'));
    const db = recording(client, {
      beforeWrite: async (_ops, attempt) => {
        if (attempt === 1) await applyZone(client, moved.zones[0]!, 'owner-c', moved.state);
      },
    });
    const applied = await applyZone(db, yellow.zones[0]!, 'owner-d', yellow.state, { backoffMs: 1 });
    expect(applied.attempts).toBe(2);
    await destroyZone(client, 'central', 'owner-c');
    await destroyZone(client, 'central', 'owner-d');
  });

  it('refuses, naming that owner and repair, to allocate beside an owner whose stored allocations cannot be read', async () => {
    const green = plan(topology('owner-c', 'green', '10.30.0.0/16'));
    await applyZone(client, green.zones[0]!, 'owner-c', green.state);
    const key = 'ovnk.io/state/owner-c';
    const [global] = await select('NB_Global', ['external_ids']);
    const good = (global!.external_ids as Record<string, string>)[key]!;
    const setKey = (text: string) =>
      client.transact(NB, [
        { op: 'mutate', table: 'NB_Global', where: [], mutations: [['external_ids', 'delete', ['set', [key]]]] },
        {
          op: 'mutate',
          table: 'NB_Global',
          where: [],
          mutations: [['external_ids', 'insert', ['map', [[key, text]]]]],
        },
      ]);
    await setKey('{not json');
    const yellow = plan(topology('owner-d', 'yellow', '10.40.0.0/16'));
    const error = await applyZone(client, yellow.zones[0]!, 'owner-d', yellow.state).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OwnerConflictError);
    expect((error as Error).message).toMatch(
      /the allocations of owner "owner-c" \(NB_Global.external_ids\["ovnk.io\/state\/owner-c"\]\) cannot be read; nothing was written: .*run `ovnk repair` with that owner's file, then apply again$/,
    );
    expect(await select('Logical_Switch', ['name'])).not.toContainEqual({ name: 'cluster_udn_yellow_join' });
    await setKey(good);
    await destroyZone(client, 'central', 'owner-c');
  });
});
