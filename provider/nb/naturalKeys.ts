/**
 * Upstream's identities of Northbound rows, so two sets of rows that share no UUIDs can be compared
 * (a plan and a Northbound that ovn-kubernetes wrote; ../shared/reference/upstream-oracle.md
 * "Comparing"). A row's natural key is its name; where a table has none: NAT (router, type,
 * external_ip, logical_ip, match), static routes (router, policy, prefix, nexthop, output_port),
 * policies (router, priority, match), ACLs (`k8s.ovn.org/id`), meter bands (action, rate),
 * Static_MAC_Binding (logical_port, ip); else `k8s.ovn.org/id`; else the row's own columns.
 * References become the natural keys of the rows they point to; columns holding the OVSDB default
 * are dropped; our `ovnk.io/` keys are removed from external_ids. Pure: rows and a schema in.
 */
import type { DatabaseSchema } from '../ovsdb/schema';
import { type DesiredRow, type ObservedRow, rowIdentity } from './desired';
import { UPSTREAM_ID_KEY } from './ownership';
import { referencedTable } from './references';
import { canonical, isDefault } from './values';

export interface NaturalRow {
  table: string;
  /** Upstream's identity of the row (see the header). */
  key: string;
  /**
   * A looser identity (NAT, route, policy: without the part a hand edit most often changes), to
   * pair a missing row with its changed self.
   */
  loose?: string;
  /** Columns by name, references replaced by natural keys (sets sorted), defaults dropped, `ovnk.io/` keys removed. */
  columns: Record<string, unknown>;
  /** Every column the row names, including those dropped for holding the default (a plan manages those too). */
  named: string[];
  /** The reference columns of the row and the table each points to. */
  references: Record<string, string>;
  /** Where the row came from: its uuid, or `<table>/<identity>` for a planned row. */
  source: string;
}

/** The router column that holds each row of these tables: part of their natural key. */
const ROUTER_COLUMNS: Readonly<Record<string, string>> = {
  NAT: 'nat',
  Logical_Router_Static_Route: 'static_routes',
  Logical_Router_Policy: 'policies',
};

const OUR_PREFIX = 'ovnk.io/';
const PLANNED = '\u0000';

/**
 * Planned rows in the observed form: each gets the uuid `<table>\0<identity>` and its references
 * (identity strings) point to those uuids; a row's `parents` put it into their reference columns.
 */
export function plannedAsObserved(rows: readonly DesiredRow[], schema: DatabaseSchema): ObservedRow[] {
  const uuidOf = (table: string, identity: string) => `${table}${PLANNED}${identity}`;
  const observed = rows.map((row) => {
    const table = schema.tables[row.table];
    const columns: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(row.columns)) {
      const refTable = table?.columns[name] ? referencedTable(table.columns[name]!.type) : undefined;
      columns[name] =
        refTable === undefined
          ? value
          : mapAtoms(value, (ref) => (typeof ref === 'string' ? { uuid: uuidOf(refTable, ref) } : ref));
    }
    return { table: row.table, uuid: uuidOf(row.table, rowIdentity(row.table, row.columns) ?? ''), columns };
  });
  const byUuid = new Map(observed.map((row) => [row.uuid, row]));
  rows.forEach((row, i) => {
    for (const parent of row.parents ?? []) {
      const holder = byUuid.get(uuidOf(parent.table, parent.identity));
      if (holder === undefined) continue;
      const held = holder.columns[parent.column];
      const list = Array.isArray(held) ? held : held === undefined ? [] : [held];
      holder.columns[parent.column] = [...list, { uuid: observed[i]!.uuid }];
    }
  });
  return observed;
}

/** Every row with its natural key and its columns in comparable form. */
export function naturalRows(rows: readonly ObservedRow[], schema: DatabaseSchema): NaturalRow[] {
  const routers = routerOf(rows);
  const keys = new Map<string, string>();
  const loose = new Map<string, string | undefined>();
  for (const row of rows) {
    const router = routers.get(row.uuid) ?? '?';
    keys.set(row.uuid, naturalKey(row.table, row.columns, router));
    loose.set(row.uuid, looseKey(row.table, row.columns, router));
  }
  const keyOf = (uuid: string) => keys.get(uuid) ?? unresolvedKey(uuid);
  return rows.map((row) => {
    const { columns, references, named } = comparable(row, schema, keyOf);
    const looseText = loose.get(row.uuid);
    return {
      table: row.table,
      key: keys.get(row.uuid)!,
      ...(looseText !== undefined ? { loose: looseText } : {}),
      columns,
      named,
      references,
      source: row.uuid.includes(PLANNED) ? row.uuid.replace(PLANNED, '/') : row.uuid,
    };
  });
}

/** What a reference atom holds: `{ uuid }` as decoded from the server, or the id as a bare string (a dump's rows). */
const referenceId = (atom: unknown): string | undefined =>
  typeof atom === 'string'
    ? atom
    : typeof (atom as { uuid?: unknown })?.uuid === 'string'
      ? (atom as { uuid: string }).uuid
      : undefined;

/** A reference to a row not among the rows: a planned row's identity, or the uuid itself. */
const unresolvedKey = (uuid: string): string =>
  uuid.includes(PLANNED) ? uuid.slice(uuid.indexOf(PLANNED) + 1) : `uuid ${uuid}`;

/** The name of the router holding each NAT, route and policy. */
function routerOf(rows: readonly ObservedRow[]): Map<string, string> {
  const routers = new Map<string, string>();
  for (const row of rows) {
    if (row.table !== 'Logical_Router') continue;
    for (const column of Object.values(ROUTER_COLUMNS)) {
      for (const child of asList(row.columns[column])) {
        const uuid = referenceId(child);
        if (uuid !== undefined) routers.set(uuid, String(row.columns.name ?? ''));
      }
    }
  }
  return routers;
}

const text = (value: unknown): string => (value === undefined ? '' : String(value));
const parts = (...values: unknown[]): string =>
  values
    .map(text)
    .filter((v) => v !== '')
    .join(' ');

/** Upstream's identity of a row of `table` (see the header). */
export function naturalKey(table: string, c: Record<string, unknown>, router = '?'): string {
  switch (table) {
    case 'NAT':
      return parts(router, c.type, c.external_ip, c.logical_ip, c.match);
    case 'Logical_Router_Static_Route':
      return parts(router, c.policy ?? 'dst-ip', c.ip_prefix, c.nexthop, c.output_port);
    case 'Logical_Router_Policy':
      return parts(router, c.priority, c.match);
    case 'Meter_Band':
      return parts(c.action, c.rate, c.burst_size ? `burst ${c.burst_size}` : '');
    case 'Static_MAC_Binding':
      return parts(c.logical_port, c.ip);
  }
  if (typeof c.name === 'string' && c.name !== '') return c.name;
  const id = (c.external_ids as Record<string, unknown> | undefined)?.[UPSTREAM_ID_KEY];
  if (typeof id === 'string' && id !== '') return id;
  if (table === 'ACL') return parts(c.direction, c.priority, c.match, c.action);
  return canonicalText(withoutOurKeys(c));
}

/** The identity without the part a hand edit changes (a NAT's external side, a route's next hop, a policy's match). */
function looseKey(table: string, c: Record<string, unknown>, router: string): string | undefined {
  if (table === 'NAT') return parts(router, c.type, c.logical_ip);
  if (table === 'Logical_Router_Static_Route') return parts(router, c.policy ?? 'dst-ip', c.ip_prefix);
  if (table === 'Logical_Router_Policy') return parts(router, c.priority);
  return undefined;
}

function comparable(
  row: ObservedRow,
  schema: DatabaseSchema,
  keyOf: (uuid: string) => string,
): Pick<NaturalRow, 'columns' | 'references' | 'named'> {
  const table = schema.tables[row.table];
  const columns: Record<string, unknown> = {};
  const references: Record<string, string> = {};
  const named: string[] = [];
  for (const [name, raw] of Object.entries(withoutOurKeys(row.columns))) {
    if (name === '_uuid' || name === '_version') continue;
    named.push(name);
    const type = table?.columns[name]?.type;
    const refTable = type ? referencedTable(type) : undefined;
    const value = refTable === undefined ? raw : mapAtoms(raw, (ref) => keyOf(referenceId(ref) ?? String(ref)));
    if (refTable !== undefined) references[name] = refTable;
    if (type === undefined) columns[name] = value;
    else if (!isDefault(value, type)) columns[name] = canonical(value, type);
  }
  return { columns, references, named };
}

/** The columns with every `ovnk.io/` key taken out of external_ids. */
function withoutOurKeys(columns: Record<string, unknown>): Record<string, unknown> {
  const ids = columns.external_ids;
  if (ids === null || typeof ids !== 'object' || Array.isArray(ids)) return columns;
  const kept = Object.fromEntries(Object.entries(ids).filter(([k]) => !k.startsWith(OUR_PREFIX)));
  return { ...columns, external_ids: kept };
}

/** Applies `f` to each atom of a column value (an atom, a set or a map's values). */
function mapAtoms(value: unknown, f: (atom: unknown) => unknown): unknown {
  if (value === undefined || value === null) return value;
  if (Array.isArray(value)) return value.map(f);
  if (typeof value === 'object' && !('uuid' in value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, f(v)]));
  }
  return f(value);
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** Plain data as text with object keys sorted: equal values give equal text. */
export function canonicalText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v === null || typeof v !== 'object' || Array.isArray(v)
      ? v
      : Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))),
  );
}
