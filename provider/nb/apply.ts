/**
 * Applying one owner's desired rows to a live database: observe (one transact of selects: our
 * rows in every table, every row of the ledger tables and the owner's ledger (ledger.ts), the
 * foreign rows references and parents name; then, only when some of our rows have parents, the
 * rows that hold them) -> adapt to the server's schema -> reconcile -> one transaction, sent
 * only when there is something to do.
 * provider/nb/'s I/O is here and in transact.ts and clash.ts, through an OvsdbDatabase (nb ->
 * ovsdb is an allowed arrow).
 */
import type { OvsdbDatabase } from '../ovsdb/client';
import { isUuid } from '../ovsdb/codec';
import type { Condition, Operation } from '../ovsdb/notation';
import type { DatabaseSchema } from '../ovsdb/schema';
import { adaptRows, compareSchemas, type SchemaMismatch } from './adapt';
import { rowIdentity, type DesiredRow, type ObservedRow } from './desired';
import { isLedgerTable, ledgerHome, ledgerKey, ledgerSelect, type LedgerState } from './ledger';
import { KEY_KEY, OWNER_KEY, SHARED_OWNER, UPSTREAM_ID_KEY } from './ownership';
import { reconcile, type Plan } from './reconcile';
import { referencedTable } from './references';
import { sharedTables } from './shared';
import { transactPlan } from './transact';

export { ConcurrentChangeError, transactPlan } from './transact';

export interface Observation {
  /** The server's schema (row types and constraints as it enforces them). */
  server: DatabaseSchema;
  /** Rows carrying our marker, and the shared rows (shared.ts) of the tables that may hold them. */
  owned: ObservedRow[];
  /** Rows of others named by references or parents, holders of our rows, and ledger-table rows. */
  foreign: ObservedRow[];
  /** The owner's ledger (absent for databases without a ledger home). */
  ledger?: LedgerState;
  /** The home row's map (every owner's bookkeeping keys), when the database has a home. */
  home?: { exists: boolean; map: Record<string, string> };
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

/**
 * Our rows of one table, with only the columns reconcile reads: those the desired rows of that
 * table manage (parents' columns included), plus what identifies and guards a row. Northd's
 * columns and others' we never compare are not sent (they are most of a big Northbound).
 */
function ownedSelect(table: string, owner: string, columns: string[]): Operation {
  return { op: 'select', table, where: [['external_ids', 'includes', ['map', [[OWNER_KEY, owner]]]]], columns };
}

/** Per table, the columns `ownedSelect` asks for (only those the server has). */
function managedColumns(request: ApplyRequest, server: DatabaseSchema): Map<string, Set<string>> {
  const columns = new Map<string, Set<string>>();
  const add = (table: string, column: string) => {
    const spec = server.tables[table];
    if (spec === undefined || (spec.columns[column] === undefined && column !== '_uuid')) return;
    let set = columns.get(table);
    if (set === undefined)
      columns.set(table, (set = new Set(['_uuid', 'external_ids', ...(spec.columns.name ? ['name'] : [])])));
    set.add(column);
  };
  for (const row of request.desired) {
    for (const column in row.columns) add(row.table, column);
    for (const parent of row.parents ?? []) add(parent.table, parent.column);
  }
  return columns;
}

function selectedColumns(managed: Map<string, Set<string>>, server: DatabaseSchema, table: string): string[] {
  const columns =
    managed.get(table) ?? new Set(['_uuid', 'external_ids', ...(server.tables[table]!.columns.name ? ['name'] : [])]);
  return [...columns].sort();
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
    for (const parent of row.parents ?? []) want(parent.table, parent.identity);
    const columns = request.schema.tables[row.table]?.columns;
    for (const column in row.columns) {
      const spec = columns?.[column];
      const refTable = spec && referencedTable(spec.type);
      const value = row.columns[column];
      if (refTable) for (const ref of Array.isArray(value) ? value : [value]) want(refTable, ref);
    }
  }
  return wanted;
}

/** Selects that find a row by any of the three identity rules (desired.ts). */
function identitySelects(server: DatabaseSchema, table: string, identity: string): Operation[] {
  const columns = server.tables[table]?.columns;
  if (columns === undefined) return [];
  const where: Condition[][] = [UPSTREAM_ID_KEY, KEY_KEY].map((key) => [
    ['external_ids', 'includes', ['map', [[key, identity]]]],
  ]);
  if (columns.name !== undefined) where.unshift([['name', '==', identity]]);
  return where.map((w) => ({ op: 'select', table, where: w }));
}

type Row = Record<string, unknown>;
const toRow =
  (table: string) =>
  (row: Row): ObservedRow => ({ table, uuid: (row._uuid as { uuid: string }).uuid, columns: row });

/** A select of observe's transaction and the function that reads its reply into the observation. */
interface Read {
  op: Operation;
  read: (rows: Row[]) => void;
}

/** Sends the reads' selects in one transaction, then gives each read its own reply, in their order. */
async function runReads(db: OvsdbDatabase, database: string, reads: Read[]): Promise<void> {
  const results = await db.transact(
    database,
    reads.map((r) => r.op),
  );
  reads.forEach((r, i) => r.read(results[i]?.rows ?? []));
}

/** One round trip (two when our rows have parents): see the header. */
export async function observe(db: OvsdbDatabase, request: ApplyRequest): Promise<Observation> {
  const server = await db.getSchema(request.schema.name);
  const known = Object.keys(request.schema.tables)
    .filter((t) => server.tables[t] !== undefined)
    .sort();
  const tables = known.filter((t) => server.tables[t]!.columns.external_ids !== undefined);
  const managed = managedColumns(request, server);
  const owned: ObservedRow[] = [];
  const ownedUuids = new Set<string>();
  const foreign = new Map<string, ObservedRow>();
  const ownedRead = (table: string, owner: string): Read => ({
    op: ownedSelect(table, owner, selectedColumns(managed, server, table)),
    read: (rows) => {
      for (const row of rows.map(toRow(table))) {
        owned.push(row);
        ownedUuids.add(row.uuid);
      }
    },
  });
  const ledgerRead = (table: string): Read => ({
    op: { op: 'select', table, where: [] },
    read: (rows) => rows.map(toRow(table)).forEach((row) => foreign.set(row.uuid, row)),
  });
  // a foreign row found by one of the identity rules, unless it is ours (our rows are read first)
  const lookupRead = (table: string, identity: string, op: Operation): Read => ({
    op,
    read: (rows) =>
      rows
        .map(toRow(table))
        .filter((row) => !ownedUuids.has(row.uuid) && rowIdentity(row.table, row.columns) === identity)
        .forEach((row) => foreign.set(row.uuid, row)),
  });
  const lookups = [...foreignWanted(request)].flatMap(([table, identities]) =>
    [...identities].flatMap((identity) =>
      identitySelects(server, table, identity).map((op) => lookupRead(table, identity, op)),
    ),
  );
  const home = ledgerHome(server.name);
  let homeRows: Row[] = [];
  const homeReads: Read[] =
    home && server.tables[home.table] ? [{ op: ledgerSelect(home), read: (rows) => (homeRows = rows) }] : [];
  await runReads(db, request.schema.name, [
    ...tables.map((t) => ownedRead(t, request.owner)),
    // the shared rows (shared.ts), which any owner may use
    ...sharedTables(server.name)
      .filter((t) => tables.includes(t))
      .map((t) => ownedRead(t, SHARED_OWNER)),
    ...known.filter((t) => isLedgerTable(server, t)).map(ledgerRead),
    ...lookups,
    ...homeReads,
  ]);
  for (const row of await holders(db, request, server, [...owned, ...foreign.values()]))
    if (!ownedUuids.has(row.uuid)) foreign.set(row.uuid, row);
  return {
    server,
    owned,
    foreign: [...foreign.values()],
    ...(home && homeOf(homeRows[0], home, request.owner)),
  };
}

function homeOf(row: Row | undefined, home: { column: string }, owner: string): Pick<Observation, 'ledger' | 'home'> {
  const map = (row?.[home.column] ?? {}) as Record<string, string>;
  return {
    ledger: { homeExists: row !== undefined, text: map[ledgerKey(owner)] },
    home: { exists: row !== undefined, map },
  };
}

/**
 * The rows whose declared parent columns hold one of the observed rows that desired rows with
 * `parents` match (by identity): the engine detaches ours from those no longer parents. One
 * select per parent table, filtered here: a select per child returned the parent row once per
 * child (a connect router with 600 ports and routes, 600 times), quadratic in the rows.
 */
async function holders(
  db: OvsdbDatabase,
  request: ApplyRequest,
  server: DatabaseSchema,
  observed: ObservedRow[],
): Promise<ObservedRow[]> {
  const children = heldChildren(request, server, observed);
  if (children.size === 0) return [];
  const tables = [...new Set([...children.keys()].map((key) => key.split('\u0000')[0]!))].sort();
  const holding: ObservedRow[] = [];
  await runReads(
    db,
    request.schema.name,
    tables.map((table) => ({
      op: { op: 'select', table, where: [] },
      read: (rows) =>
        rows.filter((row) => holdsAny(table, row, children)).forEach((row) => holding.push(toRow(table)(row))),
    })),
  );
  return holding;
}

/** `table\0column` of each declared parent column -> the uuids of our observed rows it should be searched for. */
function heldChildren(
  request: ApplyRequest,
  server: DatabaseSchema,
  observed: ObservedRow[],
): Map<string, Set<string>> {
  const children = new Map<string, Set<string>>();
  const withParents = request.desired.filter((r) => (r.parents ?? []).length > 0);
  if (withParents.length === 0) return children;
  const byKey = new Map(observed.map((row) => [`${row.table}/${rowIdentity(row.table, row.columns)}`, row]));
  for (const row of withParents) {
    const match = byKey.get(`${row.table}/${rowIdentity(row.table, row.columns)}`);
    if (match === undefined) continue;
    for (const p of row.parents!.filter((p) => server.tables[p.table]?.columns[p.column] !== undefined)) {
      const key = `${p.table}\u0000${p.column}`;
      if (!children.has(key)) children.set(key, new Set());
      children.get(key)!.add(match.uuid);
    }
  }
  return children;
}

/** Whether a selected row holds one of `children` in a column searched for. */
function holdsAny(table: string, row: Row, children: Map<string, Set<string>>): boolean {
  for (const [key, uuids] of children) {
    const [of, column] = key.split('\u0000') as [string, string];
    if (of === table && uuidsOf(row[column]).some((u) => uuids.has(u))) return true;
  }
  return false;
}

/** The uuids of a decoded reference column: one `{uuid}` or an array of them. */
function uuidsOf(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).flatMap((v) => (isUuid(v) ? [v.uuid] : []));
}

/** The plan for an observation (pure): desired rows adapted to the server's schema, then reconciled. */
export function planApply(
  request: ApplyRequest,
  observation: Observation,
): { plan: Plan; mismatches: SchemaMismatch[] } {
  const desired = adaptRows(request.desired, request.schema, observation.server);
  const plan = reconcile({
    owner: request.owner,
    schema: observation.server,
    desired,
    observed: observation.owned,
    foreign: observation.foreign,
    ledger: observation.ledger,
  });
  return { plan, mismatches: compareSchemas(request.schema, observation.server) };
}

/** observe -> adapt -> reconcile -> one transaction. */
export async function apply(db: OvsdbDatabase, request: ApplyRequest): Promise<ApplyResult> {
  const observation = await observe(db, request);
  const { plan, mismatches } = planApply(request, observation);
  const { sent, created } = await transactPlan(db, request.schema.name, plan);
  return { plan, mismatches, sent, created };
}
