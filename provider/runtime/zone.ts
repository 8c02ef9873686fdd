/**
 * The I/O of one zone: observe -> plan -> one transaction, for apply, diff and destroy, over a
 * Northbound connection. The state key is written in the same transaction as the rows and only
 * when its text changes, so an unchanged apply sends nothing. Usable by the CLI and the providers.
 */
import { observe, planApply, transactPlan, type ApplyRequest } from '../nb/apply';
import type { DesiredRow } from '../nb/desired';
import { ledgerHome } from '../nb/ledger';
import { nbSchema } from '../nb/generated/nb';
import { isOwnedBy } from '../nb/ownership';
import type { Plan, RowChange } from '../nb/reconcile';
import type { OvsdbDatabase } from '../ovsdb/client';
import type { Operation } from '../ovsdb/notation';
import { adaptToServer, dropForeignShared, type ForeignShared } from './compat';
import { NB_DATABASE } from './connections';
import type { ZonePlan } from './plan';
import { parseState, selectGlobal, serializeState, stateKey, stateOperations, type RuntimeState } from './state';

export interface ZoneResult {
  zone: string;
  endpoint: string;
  /** Whether a transaction was sent. */
  sent: boolean;
  /** Operations in that transaction (0 when none was sent). */
  operations: number;
  /** One line per row change, in words (plus the state key when it changed). */
  summary: string[];
  /** What was adapted for this server (compat.ts), in words. */
  notes: string[];
}

interface Lookup {
  hasGlobal: boolean;
  storedState?: string;
  foreign: ForeignShared;
}

/** NB_Global's state key and the shared rows (Copp, Meter) that exist without our marker. */
async function lookup(db: OvsdbDatabase, owner: string): Promise<Lookup> {
  const ops: Operation[] = [
    selectGlobal(),
    { op: 'select', table: 'Copp', where: [], columns: ['name', 'external_ids'] },
    { op: 'select', table: 'Meter', where: [], columns: ['name', 'external_ids'] },
  ];
  const [global, copps, meters] = await db.transact(NB_DATABASE, ops);
  const notOurs = (rows: Record<string, unknown>[] = []) =>
    new Set(
      rows
        .filter((r) => !isOwnedBy((r.external_ids ?? {}) as Record<string, string>, owner))
        .map((r) => r.name as string),
    );
  const row = global!.rows?.[0];
  const ids = (row?.external_ids ?? {}) as Record<string, string>;
  return {
    hasGlobal: row !== undefined,
    storedState: ids[stateKey(owner)],
    foreign: { copps: notOurs(copps!.rows), meters: notOurs(meters!.rows) },
  };
}

/** The state this owner stored in the zone's Northbound, if any. */
export async function readZoneState(db: OvsdbDatabase, owner: string): Promise<RuntimeState | undefined> {
  const [global] = await db.transact(NB_DATABASE, [selectGlobal()]);
  const text = ((global!.rows?.[0]?.external_ids ?? {}) as Record<string, string>)[stateKey(owner)];
  return text === undefined
    ? undefined
    : parseState(text, `NB_Global.external_ids["${stateKey(owner)}"] of ${db.endpoint}`);
}

async function reconcileZone(
  db: OvsdbDatabase,
  rows: DesiredRow[],
  owner: string,
): Promise<{ plan: Plan; found: Lookup; notes: string[] }> {
  const [found, server] = await Promise.all([lookup(db, owner), db.getSchema(NB_DATABASE)]);
  const adapted = adaptToServer(rows, server);
  const desired = dropForeignShared(adapted.rows, found.foreign);
  const request: ApplyRequest = { owner, schema: nbSchema, desired };
  const observation = await observe(db, request);
  return { plan: planApply(request, observation).plan, found, notes: adapted.notes };
}

async function send(
  db: OvsdbDatabase,
  zone: string,
  plan: Plan,
  stateOps: Operation[],
  stateLine: string[],
  notes: string[] = [],
): Promise<ZoneResult> {
  const operations = [...plan.operations, ...stateOps];
  const { sent } = await transactPlan(db, NB_DATABASE, { ...plan, operations });
  return {
    zone,
    endpoint: db.endpoint,
    sent,
    operations: sent ? operations.length : 0,
    summary: [...plan.summary, ...stateLine],
    notes,
  };
}

/** Make the zone's Northbound hold exactly `zone.rows` of `owner`, and store `state`. */
export async function applyZone(
  db: OvsdbDatabase,
  zone: ZonePlan,
  owner: string,
  state: RuntimeState,
): Promise<ZoneResult> {
  const { plan, found, notes } = await reconcileZone(db, zone.rows, owner);
  const text = serializeState(state);
  const changed = found.storedState !== text;
  // nb's ledger (Static_MAC_Binding rows) may create NB_Global in this transaction: then set the key there
  const hasGlobal = found.hasGlobal || plan.operations.some((op) => op.op === 'insert' && op.table === 'NB_Global');
  const stateOps = changed ? stateOperations(owner, text, hasGlobal) : [];
  return send(db, zone.name, plan, stateOps, changed ? [`set NB_Global external_ids ${stateKey(owner)}`] : [], notes);
}

/** Remove every row of `owner` from the zone's Northbound and its state key. */
export async function destroyZone(db: OvsdbDatabase, zone: string, owner: string): Promise<ZoneResult> {
  const { plan, found } = await reconcileZone(db, [], owner);
  const has = found.storedState !== undefined;
  return send(
    db,
    zone,
    plan,
    has ? stateOperations(owner, undefined, true) : [],
    has ? [`remove NB_Global external_ids ${stateKey(owner)}`] : [],
  );
}

export interface Drift {
  zone: string;
  endpoint: string;
  /** One line per drifted row, in words. */
  lines: string[];
  changes: RowChange[];
}

const driftWords: Record<RowChange['action'], string> = {
  create: 'missing',
  update: 'changed',
  delete: 'extra row of ours',
  attach: 'not attached',
  detach: 'attached to a former parent',
};

/**
 * The difference between the zone's rows of `owner` and `zone.rows`, row by row; nothing is
 * written. Bookkeeping in NB_Global (nb's ledger, like the state key) is not a row of the spec,
 * so it is not drift.
 */
export async function diffZone(db: OvsdbDatabase, zone: ZonePlan, owner: string): Promise<Drift> {
  const { plan } = await reconcileZone(db, zone.rows, owner);
  const changes = plan.changes.filter((c) => c.table !== ledgerHome(NB_DATABASE)?.table);
  const lines = changes.map((c) => {
    const row = c.identity === undefined ? c.table : `${c.table} ${JSON.stringify(c.identity)}`;
    return c.details.length === 0
      ? `${driftWords[c.action]}: ${row}`
      : `${driftWords[c.action]}: ${row}: ${c.details.join('; ')}`;
  });
  return { zone: zone.name, endpoint: db.endpoint, lines, changes };
}
