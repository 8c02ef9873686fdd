/**
 * What reconcile (reconcile.ts) derives from a desired row alone, kept per row object. The zones
 * of a per-node plan share most of their rows as objects (every zone holds the other nodes'
 * remote ports and routes, topology/remoteRows.ts), so a run across many zones checks and
 * resolves each of those rows once, not once per zone. A result is kept only while it depends on
 * nothing but the row, the schema object (servers' schemas are interned: ovsdb/schema.ts) and the
 * owner; desired rows are never changed after rendering (topology/renderMemo.ts). Pure.
 */
import type { DatabaseSchema } from '../ovsdb/schema';
import type { DesiredRow } from './desired';

interface Checked {
  schema: DatabaseSchema;
  identity: string;
  key: string;
}

interface Resolved {
  schema: DatabaseSchema;
  owner: string;
  columns: Record<string, unknown>;
}

const checkedRows = new WeakMap<DesiredRow, Checked>();
const resolvedRows = new WeakMap<DesiredRow, Resolved>();

/** The identity and sort key of a row found without problems against `schema` before. */
export function checkedBefore(row: DesiredRow, schema: DatabaseSchema): Checked | undefined {
  const known = checkedRows.get(row);
  return known?.schema === schema ? known : undefined;
}

/** Keeps a row found without problems (a row with problems is checked again, for its messages). */
export function keepChecked(row: DesiredRow, schema: DatabaseSchema, identity: string, key: string): void {
  checkedRows.set(row, { schema, identity, key });
}

/** The columns of a row whose columns reference no row, as resolved for `owner` before. */
export function resolvedBefore(
  row: DesiredRow,
  schema: DatabaseSchema,
  owner: string,
): Record<string, unknown> | undefined {
  const known = resolvedRows.get(row);
  return known?.schema === schema && known.owner === owner ? known.columns : undefined;
}

/** Keeps the resolved columns of a row whose columns reference no row (the same in every zone). */
export function keepResolved(
  row: DesiredRow,
  schema: DatabaseSchema,
  owner: string,
  columns: Record<string, unknown>,
): void {
  resolvedRows.set(row, { schema, owner, columns });
}
