/**
 * Resolving the identity strings desired rows use for references (desired.ts) into `{ uuid }` (a
 * row that exists) or `{ namedUuid }` (a row inserted in the same transaction), and the reference
 * columns of a schema. Pure.
 */
import type { Outcome } from '../model/outcome';
import { type ColumnType, type DatabaseSchema, normalizeColumnType, tableOf, type TableSchema } from '../ovsdb/schema';
import { describeRow, type ObservedRow } from './desired';

/** The table a column references (its key, or its value for maps), if any. */
export function referencedTable(type: ColumnType): string | undefined {
  const t = normalizeColumnType(type);
  return t.key.refTable ?? t.value?.refTable;
}

/** A set of references (not a map, not a single optional reference). */
export function isReferenceSet(type: ColumnType): boolean {
  const t = normalizeColumnType(type);
  return t.value === undefined && t.key.refTable !== undefined && (t.max === 'unlimited' || t.max > 1);
}

const referenceSets = new WeakMap<TableSchema, string[]>();

/** The columns of a table that are sets of references (computed once per table schema). */
export function referenceSetColumns(table: TableSchema): string[] {
  let columns = referenceSets.get(table);
  if (columns === undefined) {
    columns = Object.keys(table.columns).filter((column) => isReferenceSet(table.columns[column]!.type));
    referenceSets.set(table, columns);
  }
  return columns;
}

/** Every (table, column) holding a strong reference set to `child`: the parents of a non-root row. */
export function parentColumns(schema: DatabaseSchema, child: string): { table: string; column: string }[] {
  const parents: { table: string; column: string }[] = [];
  for (const table of Object.keys(schema.tables).sort()) {
    for (const [column, spec] of Object.entries(tableOf(schema, table).columns)) {
      const key = normalizeColumnType(spec.type).key;
      if (isReferenceSet(spec.type) && key.refTable === child && key.refType !== 'weak')
        parents.push({ table, column });
    }
  }
  return parents;
}

/** Rows by table and identity. */
export class RowIndex<T> {
  private readonly rows = new Map<string, Map<string, T[]>>();

  add(table: string, identity: string, row: T): void {
    let byIdentity = this.rows.get(table);
    if (byIdentity === undefined) this.rows.set(table, (byIdentity = new Map()));
    const list = byIdentity.get(identity);
    if (list === undefined) byIdentity.set(identity, [row]);
    else list.push(row);
  }

  get(table: string, identity: string): T[] {
    return this.rows.get(table)?.get(identity) ?? [];
  }
}

/** Where a reference to (table, identity) points: a desired row's uuid or named uuid. */
export type DesiredTarget = { uuid: string } | { namedUuid: string };

export interface ReferenceScope {
  desired: RowIndex<DesiredTarget>;
  foreign: RowIndex<ObservedRow>;
}

/** A reference resolved, or why it cannot be. */
export type Resolved = Outcome<DesiredTarget>;

const found = (value: DesiredTarget): Resolved => ({ ok: true, value });
const notFound = (why: string): Resolved => ({ ok: false, why });

/** One reference: an identity string (or an already resolved `{ uuid }`) -> a plain uuid atom. */
export function resolveReference(scope: ReferenceScope, refTable: string, ref: unknown): Resolved {
  if (ref !== null && typeof ref === 'object' && typeof (ref as { uuid?: unknown }).uuid === 'string')
    return found(ref as DesiredTarget);
  if (typeof ref !== 'string') return notFound(`is not an identity string: ${JSON.stringify(ref)}`);
  const own = scope.desired.get(refTable, ref);
  const [first] = own;
  if (first) return found(first);
  const foreign = scope.foreign.get(refTable, ref);
  const [only] = foreign;
  if (only && foreign.length === 1) return found({ uuid: only.uuid });
  if (foreign.length > 1) {
    return notFound(
      `${describeRow(refTable, ref)} is ambiguous: ${foreign.length} observed rows have that identity (${foreign.map((r) => r.uuid).join(', ')})`,
    );
  }
  return notFound(`${describeRow(refTable, ref)} is neither in the desired rows nor among the observed rows`);
}

/**
 * A desired column value with its references resolved. Problems are reported through `problem`
 * (one call per unresolved reference) and the bad reference is dropped from the result.
 */
export function resolveColumn(
  scope: ReferenceScope,
  type: ColumnType,
  value: unknown,
  problem: (message: string) => void,
): unknown {
  const refTable = referencedTable(type);
  if (refTable === undefined || value === undefined) return value;
  const resolveOne = (ref: unknown): unknown => {
    const resolved = resolveReference(scope, refTable, ref);
    if (resolved.ok) return resolved.value;
    problem(`reference ${JSON.stringify(ref)}: ${resolved.why}`);
    return undefined;
  };
  if (Array.isArray(value)) return value.map(resolveOne).filter((v) => v !== undefined);
  if (normalizeColumnType(type).value !== undefined && value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveOne(v)]));
  }
  return resolveOne(value);
}
