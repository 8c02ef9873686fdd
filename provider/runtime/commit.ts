/**
 * One zone's write, with an honest outcome. `prepare` observes and plans (rows plus bookkeeping);
 * every transaction that writes also sets this owner's marker
 * `NB_Global.external_ids["ovnk.io/txn/<owner>"]` to a fresh id, guarded like every home key
 * (nb/homeKey.ts), so it doubles as a lock between two writers of one owner.
 * - A failed guard (another writer changed what was read) is retried: re-observe, re-plan,
 *   re-send, up to `attempts` times with doubling pauses, then ChangedByAnotherWriterError.
 * - A connection that fails after the transaction was sent leaves it maybe committed. After
 *   reconnecting the marker is read: our id means committed; the id read before means not yet,
 *   and it is then replaced by a fence id in a guarded write, so the lost transaction (whose guard
 *   expects the old id) can never commit later: NotCommittedError. Anything else, or no
 *   connection, is OutcomeUnknownError, which says how to find out.
 */
import { randomUUID } from 'node:crypto';
import { MARKER_PREFIX } from '../model/externalIds';
import { ConcurrentChangeError, transactPlan } from '../nb/apply';
import { writeHomeKey, type Home } from '../nb/homeKey';
import { checkOwner } from '../nb/ownership';
import type { Plan } from '../nb/reconcile';
import type { OvsdbDatabase } from '../ovsdb/client';
import { OvsdbTransportError, TimedOut } from '../ovsdb/errors';
import { NB_DATABASE, TargetUnreachableError, withReconnected } from './connections';
import { selectGlobal } from './state';

export const markerKey = (owner: string): string => `${MARKER_PREFIX}${checkOwner(owner)}`;
const HOME: Home = { table: 'NB_Global', column: 'external_ids' };

/** NB_Global as observed: whether the row exists and its external_ids. */
export interface GlobalRow {
  exists: boolean;
  ids: Record<string, string>;
}

export interface Prepared {
  /** Rows and bookkeeping of this owner, with a guard text for each wait. */
  plan: Plan;
  global: GlobalRow;
}

export interface CommitOptions {
  /** Attempts in all when guards fail (default 5). */
  attempts?: number;
  /** The first pause between attempts (default 50 ms), doubled each time, plus up to as much again at random. */
  backoffMs?: number;
  /** Remove the marker instead of setting it (destroy: nothing of the owner is left). */
  removeMarker?: boolean;
  /** A fresh connection after a transport failure (default: connections.ts withReconnected). */
  reconnect?: <T>(body: (db: OvsdbDatabase) => Promise<T>) => Promise<T>;
}

export interface Committed {
  plan: Plan;
  sent: boolean;
  attempts: number;
  /** Set when the connection failed after sending and reading the marker back showed it committed. */
  recovered?: string;
}

/** Guards kept failing: another writer keeps changing what this owner's transaction depends on. */
export class ChangedByAnotherWriterError extends Error {
  override name = 'ChangedByAnotherWriterError';
  /** @param what what no longer held at commit, in words */
  constructor(
    readonly endpoint: string,
    readonly what: string,
    readonly attempts: number,
  ) {
    super(
      `${endpoint}: changed by another writer: ${what}; tried ${attempts} time${attempts === 1 ? '' : 's'}, nothing was written`,
    );
  }
}

/** The connection failed after sending; reading back showed the transaction did not commit, and now never will. */
export class NotCommittedError extends Error {
  override name = 'NotCommittedError';
  constructor(
    readonly endpoint: string,
    detail: string,
  ) {
    super(
      `${endpoint}: the connection failed before the answer (${detail}); read back: not committed, nothing was changed`,
    );
  }
}

/** The connection failed after sending and the outcome could not be read back. */
export class OutcomeUnknownError extends Error {
  override name = 'OutcomeUnknownError';
  constructor(
    readonly endpoint: string,
    detail: string,
    why: string,
  ) {
    super(
      `${endpoint}: outcome unknown: the connection failed after the transaction was sent (${detail}) and ${why}; run \`ovnk diff\` with the same file and target to see what the Northbound holds`,
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** prepare -> one guarded transaction with the marker, retried on guard failures (see the header). */
export async function commit(
  db: OvsdbDatabase,
  owner: string,
  prepare: (db: OvsdbDatabase, attempt: number) => Promise<Prepared>,
  options: CommitOptions = {},
): Promise<Committed> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    const { plan, global } = await prepare(db, attempt);
    const before = global.ids[markerKey(owner)];
    const after = options.removeMarker ? undefined : randomUUID();
    if (plan.operations.length === 0 && (after !== undefined || before === undefined))
      return { plan, sent: false, attempts: attempt };
    const marked = withMarker(plan, owner, global, before, after);
    try {
      await transactPlan(db, NB_DATABASE, marked);
      return { plan, sent: true, attempts: attempt };
    } catch (error) {
      if (error instanceof ConcurrentChangeError) {
        // a transaction resent after a failover may find its own commit: then it is done
        if (after !== undefined && (await markerOf(db, owner)) === after)
          return { plan, sent: true, attempts: attempt };
        if (attempt >= attempts) throw new ChangedByAnotherWriterError(db.endpoint, `expected ${error.guard}`, attempt);
        await sleep((options.backoffMs ?? 50) * 2 ** (attempt - 1) * (1 + Math.random()));
        continue;
      }
      if (!(error instanceof OvsdbTransportError || error instanceof TargetUnreachableError)) throw error;
      const recovered = await readBack(db, owner, before, after, error.message, options);
      return { plan, sent: true, attempts: attempt, recovered };
    }
  }
}

/** The plan with the marker written last (inserting NB_Global when neither the Northbound nor the plan has it). */
function withMarker(
  plan: Plan,
  owner: string,
  global: GlobalRow,
  before: string | undefined,
  after: string | undefined,
): Plan {
  const inserted = plan.operations.some((op) => op.op === 'insert' && op.table === HOME.table);
  const write = writeHomeKey(HOME, markerKey(owner), before, after, global.exists || inserted);
  return { ...plan, operations: [...plan.operations, ...write.operations], guards: [...plan.guards, ...write.guards] };
}

async function readGlobal(db: OvsdbDatabase): Promise<GlobalRow> {
  const [result] = await db.transact(NB_DATABASE, [selectGlobal()]);
  const row = result!.rows?.[0];
  return { exists: row !== undefined, ids: (row?.external_ids ?? {}) as Record<string, string> };
}

async function markerOf(db: OvsdbDatabase, owner: string): Promise<string | undefined> {
  return (await readGlobal(db)).ids[markerKey(owner)];
}

/** See the header: committed (a note), or NotCommittedError / OutcomeUnknownError. */
async function readBack(
  db: OvsdbDatabase,
  owner: string,
  before: string | undefined,
  after: string | undefined,
  detail: string,
  options: CommitOptions,
): Promise<string> {
  if (before === undefined && after === undefined)
    throw new OutcomeUnknownError(db.endpoint, detail, 'this owner had no marker to read back');
  const reconnect = options.reconnect ?? ((body) => withReconnected(db, body));
  let outcome: 'committed' | 'not committed' | string;
  try {
    outcome = await reconnect((fresh) => settle(fresh, owner, before, after));
  } catch (error) {
    outcome = `reading it back failed too (${(error as Error).message})`;
  }
  if (outcome === 'committed')
    return `the connection failed after the transaction was sent (${detail}); read back: committed`;
  if (outcome === 'not committed') throw new NotCommittedError(db.endpoint, detail);
  throw new OutcomeUnknownError(db.endpoint, detail, outcome);
}

/** On a fresh connection: our marker is there (committed), or the old one is fenced off (not committed). */
async function settle(
  db: OvsdbDatabase,
  owner: string,
  before: string | undefined,
  after: string | undefined,
): Promise<string> {
  for (let round = 0; round < 3; round++) {
    const global = await readGlobal(db);
    const now = global.ids[markerKey(owner)];
    if (now === after) return 'committed';
    if (now !== before) return 'another writer of this owner has written since';
    const fence = writeHomeKey(HOME, markerKey(owner), before, `fence-${randomUUID()}`, global.exists);
    try {
      await db.transact(NB_DATABASE, fence.operations);
      return 'not committed';
    } catch (error) {
      if (!(error instanceof TimedOut)) throw error;
      // the lost transaction committed between our read and our fence: read again
    }
  }
  return 'the marker kept changing while it was read back';
}
