/**
 * Observing one owner's rows in a live database (apply.ts's first step) without reading the
 * database: a few rounds of selects (observeSelects.ts says which tables are scanned and why),
 * each round its selects sent together (readRound.ts):
 * 1. our rows and the shared rows by condition in the scanned tables, the desired rows of ledger
 *    tables (ledger.ts) by identity, the rows of others that references and parents name, and
 *    the ledger's home row;
 * 2. until none is left: the children of our rows found so far, by uuid, the rows our ledger
 *    lists that were not found yet, and (once) our rows in the crowded tables where our record
 *    says rows of ours are found by no reference of ours (hung.ts);
 * 3. the rows of others that hold a row of ours in a declared parent column (holders.ts).
 * When asked (`upstream`), rows another writer made for what we plan are looked for in the same
 * rounds (upstreamRows.ts).
 * The server sends back our rows, the rows they name and their parents; the work it does is a
 * scan of the tables where rows of ours are found by no reference of ours: the root tables but
 * the crowded ones we hold no rows in, and the tables where our rows hang from others' (plus one
 * per lookup).
 */
import type { OvsdbDatabase } from '../ovsdb/client';
import { isUuid } from '../ovsdb/codec';
import type { Operation } from '../ovsdb/notation';
import type { DatabaseSchema } from '../ovsdb/schema';
import { rowIdentity, type ObservedRow } from './desired';
import { holders } from './holders';
import { hungTables } from './hung';
import { isLedgerTable, ledgerHome, ledgerKey, ledgerSelect, parseLedger, type Ledger } from './ledger';
import type { ApplyRequest, Observation } from './observation';
import {
  childColumns,
  desiredIdentities,
  foreignWanted,
  identitySelects,
  observedColumns,
  ownedSelect,
  scannedTables,
  uuidSelect,
} from './observeSelects';
import { OWNER_KEY, SHARED_OWNER } from './ownership';
import { runReads, toRow, type Read, type Row } from './readRound';
import { referencedTable } from './references';
import { sharedTables } from './shared';
import { UpstreamSearch } from './upstreamRows';

/** What observe has found so far. */
class Found {
  readonly owned: ObservedRow[] = [];
  readonly ownedUuids = new Set<string>();
  readonly foreign = new Map<string, ObservedRow>();
  /** Uuids already asked for by reference, each asked once. */
  readonly asked = new Set<string>();
  /** How many owned rows had their children asked for. */
  followed = 0;

  constructor(
    private readonly owner: string,
    private readonly shared: ReadonlySet<string>,
  ) {}

  /** Ours as an owned select would say: our marker, or the shared marker in a shared table. */
  isMarked(row: ObservedRow): boolean {
    const marker = (row.columns.external_ids as Record<string, unknown> | undefined)?.[OWNER_KEY];
    return marker === this.owner || (marker === SHARED_OWNER && this.shared.has(row.table));
  }

  addOwned(row: ObservedRow): void {
    if (this.ownedUuids.has(row.uuid)) return;
    this.owned.push(row);
    this.ownedUuids.add(row.uuid);
  }

  /** A row found by identity or as a holder: ours when marked, else someone else's. */
  add(row: ObservedRow): void {
    if (this.isMarked(row)) this.addOwned(row);
    else if (!this.ownedUuids.has(row.uuid)) this.foreign.set(row.uuid, row);
  }

  foreignRows(): ObservedRow[] {
    return [...this.foreign.values()].filter((row) => !this.ownedUuids.has(row.uuid));
  }
}

/** The uuids a decoded reference column holds: one `{uuid}`, a set of them, or a map's values. */
function uuidsIn(value: unknown): string[] {
  if (isUuid(value)) return [value.uuid];
  if (Array.isArray(value)) return value.flatMap(uuidsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(uuidsIn);
  return [];
}

/** Rows found by an identity rule: only those whose identity it is (a name may be an id elsewhere). */
const identityRead = (found: Found, table: string, identity: string, op: Operation): Read => ({
  op,
  read: (rows) =>
    rows
      .map(toRow(table))
      .filter((row) => rowIdentity(row.table, row.columns) === identity)
      .forEach((row) => found.add(row)),
});

const identityReads = (found: Found, server: DatabaseSchema, table: string, identities: Iterable<string>): Read[] =>
  [...identities].flatMap((identity) =>
    identitySelects(server, table, identity).map((op) => identityRead(found, table, identity, op)),
  );

/** The children in unscanned tables of the owned rows not followed yet, by uuid; ours are kept. */
function childReads(
  found: Found,
  server: DatabaseSchema,
  childColumnsOf: (table: string) => string[],
  columnsOf: (table: string) => string[],
): Read[] {
  const reads: Read[] = [];
  for (; found.followed < found.owned.length; found.followed++) {
    const row = found.owned[found.followed]!;
    for (const column of childColumnsOf(row.table)) {
      const target = referencedTable(server.tables[row.table]!.columns[column]!.type)!;
      for (const uuid of uuidsIn(row.columns[column])) {
        if (found.asked.has(uuid) || found.ownedUuids.has(uuid)) continue;
        found.asked.add(uuid);
        reads.push({
          op: uuidSelect(target, uuid, columnsOf(target)),
          read: (rows) => rows.map(toRow(target)).forEach((child) => found.isMarked(child) && found.addOwned(child)),
        });
      }
    }
  }
  return reads;
}

/** The rows of ledger tables that `ledger` lists and observe has not found. */
export function ledgerReads(
  found: { foreign: Iterable<ObservedRow> },
  server: DatabaseSchema,
  ledger: Ledger,
  into: (row: ObservedRow) => void,
): Read[] {
  const have = new Set([...found.foreign].map((row) => `${row.table}/${rowIdentity(row.table, row.columns)}`));
  return Object.entries(ledger).flatMap(([table, identities]) =>
    !isLedgerTable(server, table)
      ? []
      : identities
          .filter((identity) => !have.has(`${table}/${identity}`))
          .flatMap((identity) =>
            identitySelects(server, table, identity).map((op) => ({
              op,
              read: (rows: Row[]) =>
                rows
                  .map(toRow(table))
                  .filter((row) => rowIdentity(table, row.columns) === identity)
                  .forEach(into),
            })),
          ),
  );
}

/**
 * Adds to an observation the rows of a ledger rebuilt after it (ledgerRecovery.ts), which
 * observe did not look for: one more round, only for rows it has not found.
 */
export async function observeLedgerRows(
  db: OvsdbDatabase,
  database: string,
  observation: Observation,
  ledger: Ledger,
): Promise<void> {
  const rows: ObservedRow[] = [];
  await runReads(
    db,
    database,
    ledgerReads(observation, observation.server, ledger, (row) => rows.push(row)),
  );
  const known = new Set(observation.foreign.map((row) => row.uuid));
  observation.foreign.push(...rows.filter((row) => !known.has(row.uuid)));
}

function readableLedger(text: string | undefined): Ledger {
  try {
    return parseLedger(text, 'ledger');
  } catch {
    // reconcile refuses an unreadable ledger, naming it; a repair rebuilds it (ledgerRecovery.ts)
    return {};
  }
}

/** Our rows, their children, the rows they name and their parents: see the header. */
export async function observe(db: OvsdbDatabase, request: ApplyRequest): Promise<Observation> {
  const database = request.schema.name;
  const server = await db.getSchema(database);
  const known = Object.keys(request.schema.tables)
    .filter((t) => server.tables[t] !== undefined)
    .sort();
  const marked = known.filter((t) => server.tables[t]!.columns.external_ids !== undefined);
  const shared = new Set(sharedTables(server.name).filter((t) => marked.includes(t)));
  const scanned = new Set(scannedTables(request, server, marked));
  // a root row is no child of ours: found by a scan or not at all (observeSelects.ts)
  const unscanned = (table: string) =>
    marked.includes(table) && !scanned.has(table) && server.tables[table]!.isRoot !== true;
  const columnsOf = observedColumns(request, server, unscanned);
  const found = new Found(request.owner, shared);
  const ownedRead = (table: string, owner: string): Read => ({
    op: ownedSelect(table, owner, columnsOf(table)),
    read: (rows) => rows.map(toRow(table)).forEach((row) => found.addOwned(row)),
  });
  const home = ledgerHome(server.name);
  let homeRows: Row[] = [];
  const homeReads: Read[] =
    home && server.tables[home.table] ? [{ op: ledgerSelect(home), read: (rows) => (homeRows = rows) }] : [];
  const upstream =
    request.upstream && new UpstreamSearch({ ...request, upstream: request.upstream }, server, columnsOf);
  await runReads(db, database, [
    ...(upstream?.reads(found) ?? []),
    ...[...scanned].map((t) => ownedRead(t, request.owner)),
    ...[...scanned].filter((t) => shared.has(t)).map((t) => ownedRead(t, SHARED_OWNER)),
    ...known
      .filter((t) => isLedgerTable(server, t))
      .flatMap((t) => identityReads(found, server, t, desiredIdentities(request.desired, t))),
    ...[...foreignWanted(request)].flatMap(([table, identities]) => identityReads(found, server, table, identities)),
    ...homeReads,
  ]);
  const { ledger, home: homeState } = home ? homeOf(homeRows[0], home, request.owner) : {};
  // crowded tables where rows of ours were found by no reference of ours when last written (hung.ts)
  const listed = hungTables(homeState, request.owner, server).filter((t) => marked.includes(t) && !scanned.has(t));
  for (const table of listed) scanned.add(table);
  // the scanned tables are settled from here on: each table's child columns are found once
  const children = new Map<string, string[]>();
  const childColumnsOf = (table: string) => {
    let columns = children.get(table);
    if (columns === undefined) children.set(table, (columns = childColumns(server, table, unscanned)));
    return columns;
  };
  let reads = [
    ...listed.map((t) => ownedRead(t, request.owner)),
    ...listed.filter((t) => shared.has(t)).map((t) => ownedRead(t, SHARED_OWNER)),
    ...childReads(found, server, childColumnsOf, columnsOf),
    ...ledgerReads({ foreign: found.foreign.values() }, server, readableLedger(ledger?.text), (row) => found.add(row)),
    ...(upstream?.reads(found) ?? []),
  ];
  while (reads.length > 0) {
    await runReads(db, database, reads);
    reads = [...childReads(found, server, childColumnsOf, columnsOf), ...(upstream?.reads(found) ?? [])];
  }
  for (const row of await holders(db, request, server, [...found.owned, ...found.foreign.values()])) found.add(row);
  const twins = upstream?.found(found, ledger) ?? [];
  return {
    server,
    owned: found.owned,
    foreign: found.foreignRows(),
    ...(ledger && { ledger }),
    ...(homeState && { home: homeState }),
    ...(twins.length > 0 && { upstream: twins }),
  };
}

function homeOf(row: Row | undefined, home: { column: string }, owner: string): Pick<Observation, 'ledger' | 'home'> {
  const map = (row?.[home.column] ?? {}) as Record<string, string>;
  return {
    ledger: { homeExists: row !== undefined, text: map[ledgerKey(owner)] },
    home: { exists: row !== undefined, map },
  };
}
