import { beforeEach, describe, expect, it } from 'vitest';
import { ForeignRowClash } from '../../../provider/nb/clash';
import type { OvsdbDatabase } from '../../../provider/ovsdb/client';
import { OvsdbTransportError } from '../../../provider/ovsdb/errors';
import type { Operation } from '../../../provider/ovsdb/notation';
import {
  applyZone,
  ChangedByAnotherWriterError,
  destroyZone,
  diffZone,
  NotCommittedError,
  OutcomeUnknownError,
  planTopology,
  type TopologyPlan,
} from '../../../provider/runtime/cli';
import { nbctl as nbctlAt } from '../../support/ovsdbServer';
import { recording, writes } from '../../support/recordingDatabase';
import { blueLayer3, chassisNode, useNorthbound } from '../../support/worlds';

const NB = 'OVN_Northbound';
const owner = 'honest';

const topology = blueLayer3(owner, [chassisNode(1), chassisNode(2)]);

const nb = useNorthbound();
const fast = { backoffMs: 1 };

beforeEach(async () => {
  await destroyZone(nb.client, 'central', owner);
  await destroyZone(nb.client, 'central', 'someone-else');
});

function plan(): TopologyPlan {
  const result = planTopology(topology);
  if (!result.ok) throw new Error(result.problems[0]!.message);
  return result.plan;
}

const nbctl = (...args: string[]) => nbctlAt(nb.server, ...args);
const ROUTER = 'cluster_udn_blue_ovn_cluster_router';
const marker = async () =>
  ((await nb.client.transact(NB, [{ op: 'select', table: 'NB_Global', where: [], columns: ['external_ids'] }]))[0]!
    .rows?.[0]?.external_ids ?? {}) as Record<string, string>;

/** Applied once, then a hand change our next apply must repair (so it guards that router). */
async function appliedWithDrift(): Promise<TopologyPlan> {
  const planned = plan();
  await applyZone(nb.client, planned.zones[0]!, owner, planned.state);
  await nbctl('set', 'Logical_Router', ROUTER, 'options:ovnk-test=true');
  return planned;
}

/** A database that sends each writing transaction itself, then behaves as if the connection failed. */
function dropping(mode: 'after-commit' | 'before-commit', held: Operation[][] = []): OvsdbDatabase {
  const db = recording(nb.client);
  return {
    ...db,
    transact: async (name, ops, options) => {
      if (!ops.some((op) => op.op !== 'select')) return nb.client.transact(name, ops, options);
      if (mode === 'after-commit') await nb.client.transact(name, ops, options);
      else held.push(ops);
      throw new OvsdbTransportError(db.endpoint, 'closed', 'transact failed: connection closed by the server');
    },
  };
}

describe('writers under contention', () => {
  it('retries when another writer rewrites one of our rows before each of the first two transactions, and the third commits', async () => {
    const planned = await appliedWithDrift();
    const rewrite = (attempt: number) =>
      attempt <= 2 ? nbctl('set', 'Logical_Router', ROUTER, `options:ovnk-test=x${attempt}`) : '';
    const db = recording(nb.client, { beforeWrite: async (_ops, attempt) => void (await rewrite(attempt)) });
    const result = await applyZone(db, planned.zones[0]!, owner, planned.state, fast);
    expect(result.attempts).toBe(3);
    expect(writes(db)).toHaveLength(3);
    expect(await nbctl('get', 'Logical_Router', ROUTER, 'options')).not.toMatch(/ovnk-test/);
    expect((await diffZone(nb.client, planned.zones[0]!, owner)).lines).toEqual([]);
  });

  it('refuses with "changed by another writer" after a bounded number of attempts, having written nothing', async () => {
    const planned = await appliedWithDrift();
    const db = recording(nb.client, {
      beforeWrite: async (_ops, attempt) =>
        void (await nbctl('set', 'Logical_Router', ROUTER, `options:ovnk-test=y${attempt}`)),
    });
    const error = await applyZone(db, planned.zones[0]!, owner, planned.state, { ...fast, attempts: 4 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChangedByAnotherWriterError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `changed by another writer: expected Logical_Router "${ROUTER}" \\(external_ids, options\\) is unchanged; tried 4 times, nothing was written`,
      ),
    );
    expect(writes(db)).toHaveLength(4);
    expect(await nbctl('get', 'Logical_Router', ROUTER, 'options:ovnk-test')).toBe('y4');
  });

  it('names the row of another owner that holds the unique name one of ours needs, and writes nothing', async () => {
    const planned = plan();
    const port = planned.zones[0]!.rows.find((r) => r.table === 'Logical_Router_Port')!.columns.name as string;
    await nbctl('lr-add', 'theirs', '--', 'lrp-add', 'theirs', port, '0a:00:00:00:00:01', '192.0.2.1/24');
    await nbctl('set', 'Logical_Router_Port', port, 'external_ids:ovnk.io/owner=someone-else');
    const error = await applyZone(nb.client, planned.zones[0]!, owner, planned.state).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForeignRowClash);
    expect((error as Error).message).toMatch(
      new RegExp(`Logical_Router_Port \\(${port}\\) already exists as a row of owner "someone-else" \\([0-9a-f-]+\\)`),
    );
    expect(await nbctl('--bare', '--columns=name', 'find', 'Logical_Router', `name=${ROUTER}`)).toBe('');
    await nbctl('lr-del', 'theirs');
  });
});

describe('a connection that fails after the transaction was sent', () => {
  it('reads the marker back and reports a committed transaction as committed', async () => {
    const planned = plan();
    const result = await applyZone(dropping('after-commit'), planned.zones[0]!, owner, planned.state);
    expect(result.sent).toBe(true);
    expect(result.notes.at(-1)).toEqual(
      'the connection failed after the transaction was sent (ovsdb: ' +
        `${nb.client.endpoint}: transact failed: connection closed by the server); read back: committed`,
    );
    expect((await diffZone(nb.client, planned.zones[0]!, owner)).lines).toEqual([]);
  });

  it('reports a transaction that did not commit as not committed, and fences it so it can never commit later', async () => {
    const planned = plan();
    const held: Operation[][] = [];
    const error = await applyZone(dropping('before-commit', held), planned.zones[0]!, owner, planned.state).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotCommittedError);
    expect((error as Error).message).toMatch(/read back: not committed, nothing was changed$/);
    expect(await nbctl('--bare', '--columns=name', 'find', 'Logical_Router', `name=${ROUTER}`)).toBe('');
    expect(held).toHaveLength(1);
    await expect(nb.client.transact(NB, held[0]!)).rejects.toThrow(/timed out/);
    expect(await nbctl('--bare', '--columns=name', 'find', 'Logical_Router', `name=${ROUTER}`)).toBe('');
    expect((await marker())[`ovnk.io/txn/${owner}`]).toMatch(/^fence-/);
    expect((await applyZone(nb.client, planned.zones[0]!, owner, planned.state)).sent).toBe(true);
  });

  it('says the outcome is unknown, and what to run, when it cannot be read back', async () => {
    const planned = plan();
    await applyZone(nb.client, planned.zones[0]!, owner, planned.state);
    const cannot = () => Promise.reject(new Error('connect ECONNREFUSED'));
    const error = await destroyZone(dropping('after-commit'), 'central', owner, { reconnect: cannot }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(
      /outcome unknown: .* reading it back failed too \(connect ECONNREFUSED\); run `ovnk diff` with the same file and target/,
    );
  });

  it('destroy read back after a failed connection is committed: nothing of the owner is left, marker included', async () => {
    const planned = plan();
    await applyZone(nb.client, planned.zones[0]!, owner, planned.state);
    const result = await destroyZone(dropping('after-commit'), 'central', owner);
    expect(result.notes.at(-1)).toMatch(/read back: committed$/);
    expect(Object.keys(await marker()).filter((k) => k.endsWith(`/${owner}`))).toEqual([]);
  });
});
