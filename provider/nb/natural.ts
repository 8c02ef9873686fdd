/**
 * Northbound rows under upstream's identities: every row gets a natural key that does not depend on
 * UUIDs or on our ownership keys, and every reference is replaced by the natural key of the row it
 * points to, so two Northbounds (upstream's controllers' and our plan's, or a live one and a plan)
 * compare table by table. Keys: the `name` column where the table has one; `k8s.ovn.org/id` for
 * ACLs; the index of Static_MAC_Binding; and for nameless rows of a router the router's key with
 * the columns that tell them apart (NAT: type, external_ip, logical_ip, match; static routes:
 * policy, ip_prefix, nexthop, output_port; policies: priority, match); meter bands by action, rate
 * and burst. Values are canonical (sets sorted, maps by key); columns at their OVSDB default and
 * our `ovnk.io/` external_ids are dropped. Pure.
 */
import { nbSchema } from './generated/nb';
import { referencedTable } from './references';
import { canonical, defaultValue, isDefault } from './values';
import type { ColumnType } from '../ovsdb/schema';
import { rowIdentity, type DesiredRow } from './desired';

/** A row of one table: `id` is what references to it hold (a UUID, or a desired row's identity). */
export interface IdRow {
  id: string;
  columns: Record<string, unknown>;
}

/** A row under its natural key; reference columns hold `Table:key` strings. */
export interface NaturalRow {
  table: string;
  key: string;
  columns: Record<string, unknown>;
}

export type NaturalTables = Record<string, NaturalRow[]>;

const OWN_PREFIX = 'ovnk.io/';
const UPSTREAM_ID = 'k8s.ovn.org/id';

/** Columns (beside the parent router) that tell apart the nameless rows of one table. */
const PARENT_KEYED: Readonly<Record<string, readonly string[]>> = {
  NAT: ['type', 'external_ip', 'logical_ip', 'match'],
  Logical_Router_Static_Route: ['policy', 'ip_prefix', 'nexthop', 'output_port'],
  Logical_Router_Policy: ['priority', 'match'],
};

const COLUMN_KEYED: Readonly<Record<string, readonly string[]>> = {
  Static_MAC_Binding: ['logical_port', 'ip'],
  Meter_Band: ['action', 'rate', 'burst_size'],
  BFD: ['logical_port', 'dst_ip'],
  DHCP_Options: ['cidr'],
};

function columnType(table: string, column: string): ColumnType | undefined {
  return nbSchema.tables[table]?.columns[column]?.type;
}

function defaultOf(table: string, column: string): unknown {
  const type = columnType(table, column);
  return type === undefined ? undefined : defaultValue(type);
}

const text = (value: unknown): string =>
  value === undefined ? '' : Array.isArray(value) ? value.map(text).join(',') : String(value);

const extIds = (columns: Record<string, unknown>): Record<string, unknown> =>
  (columns.external_ids as Record<string, unknown> | undefined) ?? {};

interface Entry {
  table: string;
  row: IdRow;
}

/**
 * Natural keys and reference-free rows of a whole Northbound (or of one owner's rows); `keep`
 * chooses the rows to return (keys and references are computed over all of them).
 */
export function naturalTables(
  tables: Record<string, IdRow[]>,
  keep: (table: string, row: IdRow) => boolean = () => true,
): NaturalTables {
  const byId = new Map<string, Entry>();
  for (const [table, rows] of Object.entries(tables))
    for (const row of rows) byId.set(`${table}\0${row.id}`, { table, row });
  const parents = parentIndex(tables);
  const keys = new Map<string, string>();
  const keyOf = (table: string, id: string, seen: Set<string> = new Set()): string => {
    const at = `${table}\0${id}`;
    const known = keys.get(at);
    if (known !== undefined) return known;
    const entry = byId.get(at);
    if (!entry || seen.has(at)) return `?${id}`;
    seen.add(at);
    const parent = parents.get(at);
    const key = naturalKey(table, entry.row.columns, parent ? keyOf(parent.table, parent.id, seen) : undefined);
    keys.set(at, key);
    return key;
  };
  const out: NaturalTables = {};
  for (const [table, rows] of Object.entries(tables)) {
    const natural = rows
      .filter((row) => keep(table, row))
      .map((row) => ({
        table,
        key: keyOf(table, row.id),
        columns: plainColumns(table, row.columns, (target, ref) => `${target}:${keyOf(target, ref)}`),
      }));
    if (natural.length > 0) out[table] = natural.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  return out;
}

/** The natural key of a row (its parent router's key given for the tables keyed under one). */
export function naturalKey(table: string, columns: Record<string, unknown>, parentKey?: string): string {
  if (table === 'NB_Global') return 'NB_Global';
  const byColumns = COLUMN_KEYED[table];
  if (byColumns) return byColumns.map((c) => text(columns[c] ?? defaultOf(table, c))).join('/');
  const underParent = PARENT_KEYED[table];
  if (underParent) return [parentKey ?? '', ...underParent.map((c) => text(columns[c]))].join('/');
  const id = extIds(columns)[UPSTREAM_ID];
  if (table === 'ACL' && typeof id === 'string') return id;
  if (typeof columns.name === 'string' && columns.name !== '') return columns.name;
  if (typeof id === 'string') return id;
  return JSON.stringify(plainColumns(table, columns, (t) => t));
}

/** Row -> the (first) row whose reference column holds it: the router of a NAT, route or policy. */
function parentIndex(tables: Record<string, IdRow[]>): Map<string, { table: string; id: string }> {
  const parents = new Map<string, { table: string; id: string }>();
  for (const [table, rows] of Object.entries(tables)) {
    for (const [column, spec] of Object.entries(nbSchema.tables[table]?.columns ?? {})) {
      const target = referencedTable(spec.type);
      if (!target || PARENT_KEYED[target] === undefined) continue;
      for (const row of rows)
        for (const ref of asList(row.columns[column])) {
          const at = `${target}\0${String(ref)}`;
          if (!parents.has(at)) parents.set(at, { table, id: row.id });
        }
    }
  }
  return parents;
}

function asList(value: unknown): unknown[] {
  return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
}

/** Columns without defaults and our keys, canonical, references through `ref`. */
function plainColumns(
  table: string,
  columns: Record<string, unknown>,
  ref: (target: string, id: string) => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of Object.keys(columns).sort()) {
    const type = columnType(table, column);
    if (!type || column === '_uuid') continue;
    let value: unknown = columns[column] ?? undefined; // null (a Go nil set or map) is absent
    if (column === 'external_ids' || column === 'options' || column === 'other_config')
      value = Object.fromEntries(
        Object.entries((value ?? {}) as Record<string, unknown>).filter(([k]) => !k.startsWith(OWN_PREFIX)),
      );
    const target = referencedTable(type);
    if (target)
      value = Array.isArray(value)
        ? value.map((v) => ref(target, String(v)))
        : value === undefined
          ? value
          : ref(target, String(value));
    value = canonical(value, type);
    if (value === undefined || isDefault(value, type)) continue;
    out[column] = value;
  }
  return out;
}

/** A plan's desired rows as IdRows (ids are identities), each child also listed in its parents' columns. */
export function desiredIdRows(rows: readonly DesiredRow[]): Record<string, IdRow[]> {
  const tables: Record<string, IdRow[]> = {};
  const byIdentity = new Map<string, IdRow>();
  for (const row of rows) {
    const id = rowIdentity(row.table, row.columns) ?? JSON.stringify(row.columns);
    const copy = { id, columns: { ...row.columns } };
    (tables[row.table] ??= []).push(copy);
    byIdentity.set(`${row.table}\0${id}`, copy);
  }
  for (const row of rows)
    for (const parent of row.parents ?? []) {
      const holder = byIdentity.get(`${parent.table}\0${parent.identity}`);
      if (!holder) continue;
      const id = rowIdentity(row.table, row.columns)!;
      const held = asList(holder.columns[parent.column]).map(String);
      if (!held.includes(id)) holder.columns[parent.column] = [...held, id];
    }
  return tables;
}
