/**
 * The selects observe (observe.ts) sends, built from the desired rows and the server's schema
 * (pure). ovsdb-server answers a select by scanning the table unless its first condition is
 * `_uuid ==` (ovsdb/query.c `ovsdb_query`), so a select costs the size of the table it scans,
 * whatever it returns: a big Northbound's ACLs (one per network policy rule) cost tens of
 * milliseconds per select. Our rows are found by condition in every table but the crowded ones
 * (CROWDED_TABLES), which a scan there is only when rows of ours there are found no other way:
 * - a non-root row of ours is a child of a row of ours (the server deletes a non-root row nothing
 *   references), read by uuid following our rows' references (observe.ts), unless some desired
 *   row there hangs from a row of someone else;
 * - a root row of ours there is found by a scan while desired rows are in that table;
 * - once the last of them is dropped, the owner's record (hung.ts), written with the rows, lists
 *   the table, so the rows left are found and deleted;
 * and when nothing is desired (a destroy) every table is scanned.
 */
import type { Condition, Operation } from '../ovsdb/notation';
import type { DatabaseSchema } from '../ovsdb/schema';
import { desiredIdentity, INDEX_IDENTITY, type DesiredRow } from './desired';
import type { ApplyRequest } from './observation';
import { KEY_KEY, OWNER_KEY, UPSTREAM_ID_KEY } from './ownership';
import { referencedTable } from './references';

const mapIncludes = (key: string, value: string): Condition => ['external_ids', 'includes', ['map', [[key, value]]]];

/** The rows of one table carrying `owner`'s marker, with `columns`. */
export function ownedSelect(table: string, owner: string, columns: string[]): Operation {
  return { op: 'select', table, where: [mapIncludes(OWNER_KEY, owner)], columns };
}

/** One row by its uuid (the server's own index), with `columns` (every column when absent). */
export function uuidSelect(table: string, uuid: string, columns?: string[]): Operation {
  return { op: 'select', table, where: [['_uuid', '==', ['uuid', uuid]]], ...(columns ? { columns } : {}) };
}

/** A table's columns that reference rows of `unscanned` tables: the way to our rows there. */
export function childColumns(server: DatabaseSchema, table: string, unscanned: (table: string) => boolean): string[] {
  const columns = server.tables[table]?.columns ?? {};
  return Object.keys(columns)
    .filter((column) => {
      const target = referencedTable(columns[column]!.type);
      return target !== undefined && unscanned(target);
    })
    .sort();
}

/**
 * Per table, the columns observe asks for: those the desired rows of that table manage (parents'
 * columns included), what identifies and guards a row, and the references to our rows in the
 * unscanned tables. Northd's
 * columns and others' we never compare are not sent (they are most of a big Northbound).
 */
export function observedColumns(
  request: ApplyRequest,
  server: DatabaseSchema,
  unscanned: (table: string) => boolean,
): (table: string) => string[] {
  const managed = new Map<string, Set<string>>();
  const base = (table: string) => {
    const spec = server.tables[table]!;
    return new Set([
      '_uuid',
      'external_ids',
      ...(spec.columns.name ? ['name'] : []),
      ...childColumns(server, table, unscanned),
    ]);
  };
  const add = (table: string, column: string) => {
    const spec = server.tables[table];
    if (spec === undefined || spec.columns[column] === undefined) return;
    let set = managed.get(table);
    if (set === undefined) managed.set(table, (set = base(table)));
    set.add(column);
  };
  for (const row of request.desired) {
    for (const column in row.columns) add(row.table, column);
    for (const parent of row.parents ?? []) add(parent.table, parent.column);
  }
  return (table) => [...(managed.get(table) ?? base(table))].sort();
}

const keyOf = (table: string, identity: string) => `${table}/${identity}`;

const keySets = new WeakMap<DesiredRow[], ReadonlySet<string>>();

/**
 * The desired rows' identities, by `table/identity`: once per desired list (observe, the upstream
 * search and the hung record all ask; the list is never changed once requested).
 */
export function desiredKeys(request: ApplyRequest): ReadonlySet<string> {
  let keys = keySets.get(request.desired);
  if (keys === undefined) {
    const set = new Set<string>();
    for (const row of request.desired) {
      const identity = desiredIdentity(row);
      if (identity !== undefined) set.add(keyOf(row.table, identity));
    }
    keySets.set(request.desired, (keys = set));
  }
  return keys;
}

/** The (table, identity) pairs desired rows reference or name as parents outside their own set. */
export function foreignWanted(request: ApplyRequest): Map<string, Set<string>> {
  const own = desiredKeys(request);
  const wanted = new Map<string, Set<string>>();
  const want = (table: string, identity: unknown) => {
    if (typeof identity !== 'string' || own.has(keyOf(table, identity))) return;
    if (!wanted.has(table)) wanted.set(table, new Set());
    wanted.get(table)!.add(identity);
  };
  for (const row of request.desired) {
    if (row.parents !== undefined) for (const parent of row.parents) want(parent.table, parent.identity);
    const columns = request.schema.tables[row.table]?.columns;
    for (const column in row.columns) {
      const spec = columns?.[column];
      const refTable = spec && referencedTable(spec.type);
      if (refTable === undefined) continue;
      const value = row.columns[column];
      if (!Array.isArray(value)) want(refTable, value);
      else for (const ref of value) want(refTable, ref);
    }
  }
  return wanted;
}

/** The tables of desired rows that hang from a row outside the desired set. */
export function foreignParentedTables(request: ApplyRequest): Set<string> {
  const own = desiredKeys(request);
  const tables = new Set<string>();
  for (const row of request.desired)
    if (row.parents?.some((p) => !own.has(keyOf(p.table, p.identity)))) tables.add(row.table);
  return tables;
}

/**
 * Tables an upstream cluster fills by the thousand (go-controller/pkg/ovn: an ACL per network
 * policy rule, a port per pod, a port group per policy, an address set per namespace and policy
 * peer, a load balancer per service and protocol): a scan there costs more than reading our
 * rows one by one, or than a record of where they are.
 */
const CROWDED_TABLES: Readonly<Record<string, readonly string[]>> = {
  OVN_Northbound: ['ACL', 'Address_Set', 'Load_Balancer', 'Logical_Switch_Port', 'Port_Group'],
};

/** The crowded tables of a database (none for a database upstream does not crowd). */
export function crowdedTables(database: string): string[] {
  return [...(CROWDED_TABLES[database] ?? [])];
}

/**
 * The crowded tables where desired rows are found by no reference of ours: root rows, and rows
 * hanging from a row outside the desired set (what the owner's record lists, hung.ts).
 */
export function unreachedTables(request: ApplyRequest, server: DatabaseSchema): string[] {
  const parented = foreignParentedTables(request);
  const desired = new Set(request.desired.map((row) => row.table));
  return crowdedTables(server.name)
    .filter((t) => server.tables[t] !== undefined)
    .filter((t) => parented.has(t) || (server.tables[t]!.isRoot === true && desired.has(t)));
}

/** The tables whose rows of ours are found by condition in observe's first round (see the header). */
export function scannedTables(request: ApplyRequest, server: DatabaseSchema, marked: string[]): string[] {
  if (request.desired.length === 0) return marked;
  const crowded = CROWDED_TABLES[server.name] ?? [];
  const unreached = unreachedTables(request, server);
  return marked.filter((table) => !crowded.includes(table) || unreached.includes(table));
}

/**
 * Selects that find a row by any of the identity rules (desired.ts), among those the table can
 * hold: its unique index's columns (INDEX_IDENTITY), its name, its upstream id or its row key.
 */
export function identitySelects(server: DatabaseSchema, table: string, identity: string): Operation[] {
  const columns = server.tables[table]?.columns;
  if (columns === undefined) return [];
  const index = INDEX_IDENTITY[table];
  if (index !== undefined) {
    const parts = splitIndexIdentity(identity, index.length);
    return parts === undefined
      ? []
      : [{ op: 'select', table, where: index.map((column, i): Condition => [column, '==', parts[i]!]) }];
  }
  const where: Condition[][] = [];
  if (columns.name !== undefined) where.push([['name', '==', identity]]);
  if (columns.external_ids !== undefined)
    for (const key of [UPSTREAM_ID_KEY, KEY_KEY]) where.push([mapIncludes(key, identity)]);
  return where.map((w) => ({ op: 'select', table, where: w }));
}

/** An index identity (`<logical_port>/<ip>`) back into its parts; the last parts hold no `/`. */
function splitIndexIdentity(identity: string, parts: number): string[] | undefined {
  const split = identity.split('/');
  if (split.length < parts) return undefined;
  return [split.slice(0, split.length - parts + 1).join('/'), ...split.slice(split.length - parts + 1)];
}

/** The identities of the desired rows of `table`. */
export function desiredIdentities(rows: DesiredRow[], table: string): string[] {
  return rows.flatMap((row) => {
    const identity = row.table === table ? desiredIdentity(row) : undefined;
    return identity === undefined ? [] : [identity];
  });
}
