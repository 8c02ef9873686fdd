/**
 * Applying one owner's desired rows to a live database: observe (one transact of selects: our
 * rows in every table, plus the foreign rows references and parents name) -> adapt to the
 * server's schema -> reconcile -> one transaction, sent only when there is something to do.
 * The only I/O of provider/nb/, through an OvsdbDatabase (nb -> ovsdb is an allowed arrow).
 */
import type { OvsdbDatabase } from '../ovsdb/client';
import { TimedOut } from '../ovsdb/errors';
import type { Condition, Operation } from '../ovsdb/notation';
import type { DatabaseSchema } from '../ovsdb/schema';
import { adaptRows, compareSchemas, type SchemaMismatch } from './adapt';
import { rowIdentity, type DesiredRow, type ObservedRow } from './desired';
import { KEY_KEY, OWNER_KEY, UPSTREAM_ID_KEY } from './ownership';
import { reconcile, type Plan } from './reconcile';
import { referencedTable } from './references';

export interface Observation {
  /** The server's schema (row types and constraints as it enforces them). */
  server: DatabaseSchema;
  owned: ObservedRow[];
  foreign: ObservedRow[];
}

export interface ApplyRequest {
  owner: string;
  /** Our generated metadata (nbSchema, vswitchSchema); its name is the database. */
  schema: DatabaseSchema;
  desired: DesiredRow[];
}

export interface ApplyResult {
  plan: Plan;
  /** Differences between our schema and the server's (informational; refusals are thrown). */
  mismatches: SchemaMismatch[];
  /** Whether a transaction was sent (false when nothing changed). */
  sent: boolean;
  /** Uuids of the rows this apply created, by `Table/identity`. */
  created: Record<string, string>;
}

/** A `wait` guard failed: someone changed a row between our read and our write; nothing was written. */
export class ConcurrentChangeError extends Error {
  override name = 'ConcurrentChangeError';
  constructor(readonly guard: string, override readonly cause: TimedOut) {
    super(`nb: another writer changed the database since it was read: expected ${guard}; nothing was written (apply again to re-read)`);
  }
}

function ownedSelect(table: string, owner: string): Operation {
  return { op: 'select', table, where: [['external_ids', 'includes', ['map', [[OWNER_KEY, owner]]]]] };
}

/** The (table, identity) pairs desired rows reference outside their own set. */
function foreignWanted(request: ApplyRequest): Map<string, Set<string>> {
  const own = new Set(request.desired.map((r) => `${r.table}/${rowIdentity(r.table, r.columns)}`));
  const wanted = new Map<string, Set<string>>();
  const want = (table: string, identity: unknown) => {
    if (typeof identity !== 'string' || own.has(`${table}/${identity}`)) return;
    if (!wanted.has(table)) wanted.set(table, new Set());
    wanted.get(table)!.add(identity);
  };
  for (const row of request.desired) {
    if (row.parent) want(row.parent.table, row.parent.identity);
    for (const [column, value] of Object.entries(row.columns)) {
      const spec = request.schema.tables[row.table]?.columns[column];
      const refTable = spec && referencedTable(spec.type);
      if (refTable) for (const ref of Array.isArray(value) ? value : [value]) want(refTable, ref);
    }
  }
  return wanted;
}

/** Selects that find a row by any of the three identity rules (desired.ts). */
function identitySelects(server: DatabaseSchema, table: string, identity: string): Operation[] {
  const columns = server.tables[table]?.columns;
  if (columns === undefined) return [];
  const where: Condition[][] = [UPSTREAM_ID_KEY, KEY_KEY].map((key) => [['external_ids', 'includes', ['map', [[key, identity]]]]]);
  if (columns.name !== undefined) where.unshift([['name', '==', identity]]);
  return where.map((w) => ({ op: 'select', table, where: w }));
}

/** One round trip: our rows in every table we know that has external_ids, and the foreign rows named. */
export async function observe(db: OvsdbDatabase, request: ApplyRequest): Promise<Observation> {
  const server = await db.getSchema(request.schema.name);
  const tables = Object.keys(request.schema.tables).filter((t) => server.tables[t]?.columns.external_ids !== undefined).sort();
  const selects = tables.map((t) => ownedSelect(t, request.owner));
  const lookups: { table: string; identity: string; op: Operation }[] = [];
  for (const [table, identities] of foreignWanted(request)) {
    for (const identity of identities) for (const op of identitySelects(server, table, identity)) lookups.push({ table, identity, op });
  }
  const results = await db.transact(request.schema.name, [...selects, ...lookups.map((l) => l.op)]);
  const toRow = (table: string) => (row: Record<string, unknown>): ObservedRow => ({ table, uuid: (row._uuid as { uuid: string }).uuid, columns: row });
  const owned = tables.flatMap((table, i) => (results[i].rows ?? []).map(toRow(table)));
  const ownedUuids = new Set(owned.map((r) => r.uuid));
  const foreign = new Map<string, ObservedRow>();
  lookups.forEach((lookup, i) => {
    for (const row of (results[selects.length + i].rows ?? []).map(toRow(lookup.table))) {
      if (!ownedUuids.has(row.uuid) && rowIdentity(row.table, row.columns) === lookup.identity) foreign.set(row.uuid, row);
    }
  });
  return { server, owned, foreign: [...foreign.values()] };
}

/** The plan for an observation (pure): desired rows adapted to the server's schema, then reconciled. */
export function planApply(request: ApplyRequest, observation: Observation): { plan: Plan; mismatches: SchemaMismatch[] } {
  const desired = adaptRows(request.desired, request.schema, observation.server);
  const plan = reconcile({ owner: request.owner, schema: observation.server, desired, observed: observation.owned, foreign: observation.foreign });
  return { plan, mismatches: compareSchemas(request.schema, observation.server) };
}

/** Sends a plan as one transaction (nothing when it is empty). */
export async function transactPlan(db: OvsdbDatabase, database: string, plan: Plan): Promise<{ sent: boolean; created: Record<string, string> }> {
  if (plan.operations.length === 0) return { sent: false, created: {} };
  try {
    const results = await db.transact(database, plan.operations);
    return { sent: true, created: createdUuids(plan, results) };
  } catch (error) {
    if (error instanceof TimedOut && plan.operations[error.index]?.op === 'wait') throw new ConcurrentChangeError(plan.guards[error.index], error);
    throw error;
  }
}

function createdUuids(plan: Plan, results: { uuid?: string }[]): Record<string, string> {
  const byName = new Map<string, string>();
  plan.operations.forEach((op, i) => {
    const uuid = results[i]?.uuid;
    if (op.op === 'insert' && op['uuid-name'] !== undefined && uuid !== undefined) byName.set(op['uuid-name'], uuid);
  });
  const created: Record<string, string> = {};
  for (const change of plan.changes) {
    const uuid = change.namedUuid === undefined ? undefined : byName.get(change.namedUuid);
    if (uuid !== undefined) created[`${change.table}/${change.identity}`] = uuid;
  }
  return created;
}

/** observe -> adapt -> reconcile -> one transaction. */
export async function apply(db: OvsdbDatabase, request: ApplyRequest): Promise<ApplyResult> {
  const observation = await observe(db, request);
  const { plan, mismatches } = planApply(request, observation);
  const { sent, created } = await transactPlan(db, request.schema.name, plan);
  return { plan, mismatches, sent, created };
}
