/**
 * Parents of desired rows (desired.ts `parents`): checking that each named column can hold the
 * child, and writing children into the columns of parents that are in the same desired set, so
 * only parents of other owners are left for the engine to attach with a `mutate`. Pure; also
 * used by `ovnk plan` to show a zone's rows as they will be written. And the rows of others that
 * hold one of our rows in a declared parent column without being its parent any more.
 */
import type { DatabaseSchema } from '../ovsdb/schema';
import { describeRow, desiredIdentity, type DesiredRow, type ObservedRow, type ParentRef } from './desired';
import type { Entry, Holder } from './reconcileTypes';
import { isReferenceSet, referencedTable } from './references';

const keyOf = (table: string, identity: string | undefined) => `${table}\u0000${identity ?? ''}`;

/** Problems of `parents` columns that are not sets of references to the child's table. */
export function checkParentColumns(schema: DatabaseSchema, row: DesiredRow, identity: string): string[] {
  return (row.parents ?? []).flatMap((parent) => {
    const type = schema.tables[parent.table]?.columns[parent.column]?.type;
    if (type !== undefined && isReferenceSet(type) && referencedTable(type) === row.table) return [];
    return [
      `${describeRow(row.table, identity)}: parent column ${parent.table}.${parent.column} is not a set of references to ${row.table}`,
    ];
  });
}

/**
 * The rows with every child written into the column of each parent found among them (the inputs
 * are untouched: a row that changes is a copy, the others are the rows themselves, so what is
 * kept per row object (rowMemo.ts) still serves them). A child keeps in `parents` only the
 * parents not in the set: an empty list still says it has declared parents, so rows of others
 * that held it can be detached.
 */
export function inlineParents(rows: DesiredRow[]): DesiredRow[] {
  if (!rows.some((row) => row.parents !== undefined)) return rows;
  const index = new Map(rows.map((row, i) => [keyOf(row.table, desiredIdentity(row)), i]));
  const out = [...rows];
  rows.forEach((child, i) => {
    if (child.parents === undefined) return;
    const identity = desiredIdentity(child);
    const foreign: ParentRef[] = [];
    for (const ref of child.parents) {
      const at = index.get(keyOf(ref.table, ref.identity));
      if (at === undefined || identity === undefined) foreign.push(ref);
      else out[at] = withChild(out[at]!, ref.column, identity);
    }
    if (foreign.length < child.parents.length) out[i] = { ...out[i]!, parents: foreign };
  });
  return out;
}

function withChild(parent: DesiredRow, column: string, child: string): DesiredRow {
  const value = parent.columns[column];
  const current: unknown[] = value === undefined ? [] : Array.isArray(value) ? value : [value];
  if (current.includes(child)) return parent;
  return { ...parent, columns: { ...parent.columns, [column]: [...current, child] } };
}

/** Rows of others holding our row in a column its `parents` name, that are no longer among them. */
export function formerParents(entry: Entry, others: ObservedRow[]): Holder[] {
  const uuid = entry.observed?.uuid;
  if (uuid === undefined || entry.row.parents === undefined) return [];
  const declared = new Set((entry.row.parents ?? []).map((p) => `${p.table}\u0000${p.column}`));
  const current = new Set(entry.parentRows.map((p) => `${p.row.uuid}\u0000${p.column}`));
  const holders: Holder[] = [];
  for (const row of others) {
    for (const column of Object.keys(row.columns)) {
      if (!declared.has(`${row.table}\u0000${column}`) || current.has(`${row.uuid}\u0000${column}`)) continue;
      if (refsAsList(row.columns[column]).some((ref) => (ref as { uuid?: string })?.uuid === uuid))
        holders.push({ row, column });
    }
  }
  return holders;
}

function refsAsList(value: unknown): unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
