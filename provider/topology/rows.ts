/**
 * The desired-row format the renderer produces and the reconcile engine consumes, plus the
 * small builders every renderer file uses. A row's identity (unique per table within one
 * rendered set) is its `name`, else `external_ids["k8s.ovn.org/id"]`, else
 * `external_ids["ovnk.io/key"]`. Static_MAC_Binding has neither a name nor external_ids in the
 * NB schema: its identity is its index (logical_port, ip), see identityOf.
 */
/**
 * Identical to the interface of provider/nb/desired.ts (written in parallel; switch to an
 * import from there once it lands).
 */
export interface DesiredRow {
  /** NB table name, e.g. 'Logical_Router_Port'. */
  table: string;
  /** NB columns: sets as arrays, maps as plain objects; a reference is the target's identity. */
  columns: Record<string, unknown>;
  /** Only for a non-root row whose parent is NOT rendered in the same set. */
  parent?: { table: string; identity: string; column: string };
}

export const UPSTREAM_ID = 'k8s.ovn.org/id';
export const OVNK_KEY = 'ovnk.io/key';

export type Columns = Record<string, unknown>;
export type StringMap = Record<string, string>;

export function row(table: string, columns: Columns): DesiredRow {
  return { table, columns };
}

/** A row upstream gives no id: `ovnk.io/key` joins upstream's external_ids. */
export function keyedRow(table: string, key: string, externalIds: StringMap, columns: Columns): DesiredRow {
  return { table, columns: { ...columns, external_ids: { ...externalIds, [OVNK_KEY]: key } } };
}

/** The identity of a row within its table. */
export function identityOf(desired: DesiredRow): string {
  const columns = desired.columns;
  if (desired.table === 'Static_MAC_Binding') return `${String(columns.logical_port)}/${String(columns.ip)}`;
  if (typeof columns.name === 'string' && columns.name !== '') return columns.name;
  const ids = (columns.external_ids ?? {}) as StringMap;
  const id = ids[UPSTREAM_ID] ?? ids[OVNK_KEY];
  if (id === undefined) throw new Error(`internal: a ${desired.table} row has no identity`);
  return id;
}

/** Identities of rows, for a parent's reference column (`ports`, `static_routes`, ...). */
export function refs(rows: readonly DesiredRow[]): string[] {
  return rows.map(identityOf);
}

/** Rows sorted by table then identity: the renderer's output order, independent of input order. */
export function sortRows(rows: DesiredRow[]): DesiredRow[] {
  const keyed = rows.map((r) => ({ r, k: `${r.table}\u0000${identityOf(r)}` }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.r);
}
