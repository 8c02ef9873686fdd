/**
 * The I/O of one zone: observe (on apply, upstream's rows of the plan too: adoptUpstream.ts) ->
 * plan -> one transaction (commit.ts: guarded, retried when another writer interferes, its
 * outcome read back when the connection fails), for apply, diff and destroy, over a Northbound
 * connection. The state key is written in the same transaction as
 * the rows and only when its text changes, so an unchanged apply sends nothing. Usable by the CLI
 * and the providers.
 */
import type { OtherOwners } from '../alloc/others';
import { observe, planApply, type ApplyRequest } from '../nb/apply';
import type { DesiredRow } from '../nb/desired';
import { nbSchema } from '../nb/generated/nb';
import type { KeyWrite } from '../nb/homeKey';
import { ledgerHome, serializeLedger } from '../nb/ledger';
import { recoverLedger, unreadableLedger } from '../nb/ledgerRecovery';
import { observeLedgerRows } from '../nb/observe';
import { isOwnedBy } from '../nb/ownership';
import { describeChange, type Plan, type RowChange } from '../nb/reconcile';
import { isSharedRow } from '../nb/shared';
import type { OvsdbDatabase } from '../ovsdb/client';
import type { Operation } from '../ovsdb/notation';
import { takeOverUpstreamRows, upstreamOf } from './adoptUpstream';
import { ChangedByAnotherWriterError, commit, type CommitOptions, type Committed, type GlobalRow } from './commit';
import { adaptToServer, dropForeignShared, type ForeignShared } from './compat';
import { NB_DATABASE } from './connections';
import { checkOthers, otherOwners, othersUnchanged } from './owners';
import type { ZonePlan } from './plan';
import { parseState, selectGlobal, serializeState, StateError, stateKey, stateWrite, type RuntimeState } from './state';
import { boundedSummary } from './summary';

export interface ZoneResult {
  zone: string;
  endpoint: string;
  /** Whether a transaction was sent (and, as far as could be known, committed). */
  sent: boolean;
  /** Operations in that transaction (0 when none was sent). */
  operations: number;
  /**
   * One line per row change, in words (plus the state key when it changed); past SUMMARY_LINES a
   * count of the rest (summary.ts).
   */
  summary: string[];
  /** What was adapted for this server (compat.ts), and how the outcome was learnt after a failed connection. */
  notes: string[];
  /** Transactions tried: more than 1 when another writer's changes made guards fail (commit.ts). */
  attempts: number;
}

interface Lookup {
  global: GlobalRow;
  storedState?: string;
  foreign: ForeignShared;
}

/** NB_Global (the state key among its external_ids) and the shared rows (Copp, Meter) that exist without our marker. */
async function lookup(db: OvsdbDatabase, owner: string): Promise<Lookup> {
  const ops: Operation[] = [
    selectGlobal(),
    { op: 'select', table: 'Copp', where: [], columns: ['name', 'external_ids'] },
    { op: 'select', table: 'Meter', where: [], columns: ['name', 'external_ids'] },
  ];
  const [global, copps, meters] = await db.transact(NB_DATABASE, ops);
  // shared rows (nb/shared.ts) are everyone's: the engine claims them
  const notOurs = (rows: Record<string, unknown>[] = []) =>
    new Set(
      rows
        .filter((r) => {
          const ids = (r.external_ids ?? {}) as Record<string, string>;
          return !isOwnedBy(ids, owner) && !isSharedRow(ids);
        })
        .map((r) => r.name as string),
    );
  const row = global!.rows?.[0];
  const ids = (row?.external_ids ?? {}) as Record<string, string>;
  return {
    global: { exists: row !== undefined, ids },
    storedState: ids[stateKey(owner)],
    foreign: { copps: notOurs(copps!.rows), meters: notOurs(meters!.rows) },
  };
}

/**
 * NB_Global's external_ids, decoded by our own schema (a uuid and a map of strings in every
 * version): a state read fetches no schema; the zone's run fetches it, once per connection.
 */
async function globalIds(db: OvsdbDatabase): Promise<Record<string, string>> {
  const [global] = await db.transact(NB_DATABASE, [selectGlobal()], { schema: nbSchema });
  return (global!.rows?.[0]?.external_ids ?? {}) as Record<string, string>;
}

/**
 * This owner's stored state and the other owners' allocation states stored beside it (owners.ts).
 * A state of ours that cannot be read is a StateError carrying the others, which a repair still
 * plans around.
 */
export async function readZoneStates(
  db: OvsdbDatabase,
  owner: string,
): Promise<{ state?: RuntimeState; others: OtherOwners; unreadableOthers: string[] }> {
  const ids = await globalIds(db);
  const text = ids[stateKey(owner)];
  const { others, unreadable } = otherOwners(ids, owner);
  const where = `NB_Global.external_ids["${stateKey(owner)}"] of ${db.endpoint}`;
  try {
    return { ...(text === undefined ? {} : { state: parseState(text, where) }), others, unreadableOthers: unreadable };
  } catch (error) {
    if (error instanceof StateError) error.others = others;
    throw error;
  }
}

/** The state this owner stored in the zone's Northbound, if any. */
export async function readZoneState(db: OvsdbDatabase, owner: string): Promise<RuntimeState | undefined> {
  const text = (await globalIds(db))[stateKey(owner)];
  return text === undefined
    ? undefined
    : parseState(text, `NB_Global.external_ids["${stateKey(owner)}"] of ${db.endpoint}`);
}

interface ReconcileOptions {
  /** A lost or unreadable ledger is rebuilt from the owner markers (destroy works from them alone). */
  recover?: boolean;
  /** An apply: upstream's rows of the planned networks are looked for, taken over when `adopt` (adoptUpstream.ts). */
  upstream?: { adopt: boolean };
}

async function reconcileZone(
  db: OvsdbDatabase,
  rows: DesiredRow[],
  owner: string,
  options: ReconcileOptions = {},
): Promise<{ plan: Plan; found: Lookup; notes: string[] }> {
  const [found, server] = await Promise.all([lookup(db, owner), db.getSchema(NB_DATABASE)]);
  const adapted = adaptToServer(rows, server);
  const desired = dropForeignShared(adapted.rows, found.foreign);
  const upstream = options.upstream && upstreamOf(desired);
  const request: ApplyRequest = { owner, schema: nbSchema, desired, ...(upstream && { upstream }) };
  const observation = await observe(db, request);
  const notes = [...takeOverUpstreamRows(observation, db.endpoint, options.upstream?.adopt === true), ...adapted.notes];
  const recover = options.recover === true;
  const ledger = observation.ledger;
  if (recover && ledger && (ledger.text === undefined || unreadableLedger(ledger.text))) {
    const recovered = await recoverLedger(db, NB_DATABASE, owner);
    if (ledger.text !== undefined || Object.keys(recovered).length > 0) {
      observation.ledger = { ...ledger, recovered };
      await observeLedgerRows(db, NB_DATABASE, observation, recovered);
      notes.push(
        `ledger ${ledger.text === undefined ? 'missing' : 'unreadable'}: rebuilt from the owner markers as ${serializeLedger(recovered) ?? '{}'}`,
      );
    }
  }
  return { plan: planApply(request, observation).plan, found, notes };
}

/** The plan with the state key set to `text` (or removed) after the rows, when it changes. */
function withState(plan: Plan, owner: string, found: Lookup, text: string | undefined): Plan {
  if (found.storedState === text) return plan;
  // nb's ledger (Static_MAC_Binding rows) may create NB_Global in this transaction: then set the key there
  const inserted = plan.operations.some((op) => op.op === 'insert' && op.table === 'NB_Global');
  const write = stateWrite(owner, found.storedState, text, found.global.exists || inserted);
  const line = `${text === undefined ? 'remove' : 'set'} NB_Global external_ids ${stateKey(owner)}`;
  return {
    ...plan,
    operations: [...plan.operations, ...write.operations],
    guards: [...plan.guards, ...write.guards],
    summary: [...plan.summary, line],
  };
}

function withGuards(plan: Plan, write: KeyWrite): Plan {
  return { ...plan, operations: [...plan.operations, ...write.operations], guards: [...plan.guards, ...write.guards] };
}

function zoneResult(zone: string, db: OvsdbDatabase, committed: Committed, notes: string[]): ZoneResult {
  const { plan, sent, attempts, recovered } = committed;
  return {
    zone,
    endpoint: db.endpoint,
    sent,
    operations: sent ? plan.operations.length : 0,
    summary: boundedSummary(plan.summary),
    notes: recovered === undefined ? notes : [...notes, recovered],
    attempts,
  };
}

/**
 * Make the zone's Northbound hold exactly `zone.rows` of `owner`, and store `state`. Guard
 * failures are retried with the same state; a state another writer of this owner stored meanwhile
 * is not overwritten (the plan was made from the one read first).
 */
export async function applyZone(
  db: OvsdbDatabase,
  zone: ZonePlan,
  owner: string,
  state: RuntimeState,
  options: CommitOptions = {},
): Promise<ZoneResult> {
  const text = serializeState(state);
  let first: Lookup | undefined;
  let notes: string[] = [];
  // rendered once: a zone that does not hold its rows renders them on each read (plan.ts zonePlans)
  const rows = zone.rows;
  const committed = await commit(
    db,
    owner,
    async (conn) => {
      const planned = await reconcileZone(conn, rows, owner, { upstream: { adopt: zone.adoptUpstream === true } });
      first ??= planned.found;
      if (planned.found.storedState !== first.storedState)
        throw new ChangedByAnotherWriterError(
          db.endpoint,
          `NB_Global.external_ids["${stateKey(owner)}"], the state this plan was made from, was rewritten meanwhile (plan and apply again)`,
          1,
        );
      notes = planned.notes;
      const plan = withState(planned.plan, owner, planned.found, text);
      if (planned.found.storedState === text) return { plan, global: planned.found.global };
      // new allocations: none may be another owner's, and no other owner's may change before we commit
      const ids = planned.found.global.ids;
      checkOthers(
        db.endpoint,
        state.allocation,
        ids,
        owner,
        'another owner allocated it meanwhile: plan and apply again',
      );
      return { plan: withGuards(plan, othersUnchanged(ids, owner)), global: planned.found.global };
    },
    options,
  );
  return zoneResult(zone.name, db, committed, notes);
}

/**
 * Remove every row of `owner` from the zone's Northbound, its state key and its marker. It needs
 * nothing but the owner markers: the state is not read, and a lost or unreadable ledger is
 * rebuilt from the marked rows (nb/ledgerRecovery.ts).
 */
export async function destroyZone(
  db: OvsdbDatabase,
  zone: string,
  owner: string,
  options: CommitOptions = {},
): Promise<ZoneResult> {
  let notes: string[] = [];
  const committed = await commit(
    db,
    owner,
    async (conn) => {
      const planned = await reconcileZone(conn, [], owner, { recover: true });
      notes = planned.notes;
      return { plan: withState(planned.plan, owner, planned.found, undefined), global: planned.found.global };
    },
    { ...options, removeMarker: true },
  );
  return zoneResult(zone, db, committed, notes);
}

export interface Drift {
  zone: string;
  endpoint: string;
  /** One line per drifted row, in words. */
  lines: string[];
  changes: RowChange[];
}

/**
 * The difference between the zone's rows of `owner` and `zone.rows`, row by row; nothing is
 * written. Bookkeeping in NB_Global (nb's ledger, like the state key) is not a row of the spec,
 * so it is not drift.
 */
export async function diffZone(
  db: OvsdbDatabase,
  zone: ZonePlan,
  owner: string,
  options: { recoverLedger?: boolean } = {},
): Promise<Drift> {
  const { plan } = await reconcileZone(db, zone.rows, owner, { recover: options.recoverLedger === true });
  const changes = plan.changes.filter((c) => c.table !== ledgerHome(NB_DATABASE)?.table);
  const lines = changes.map((c) => describeChange(c, 'drift'));
  return { zone: zone.name, endpoint: db.endpoint, lines, changes };
}
