/**
 * Two Northbounds under natural keys (natural.ts), compared table by table: rows only one side
 * has, and per row the columns whose values differ. Rows sharing a key within a table are paired
 * by equal columns first. Pure.
 */
import type { NaturalRow, NaturalTables } from './natural';

export interface RowDifference {
  table: string;
  key: string;
  /** missing: only `expected` has the row; extra: only `actual` has it; column: both, values differ. */
  kind: 'missing' | 'extra' | 'column';
  column?: string;
  expected?: unknown;
  actual?: unknown;
}

const json = (v: unknown) => JSON.stringify(v);

export function compareNaturalTables(expected: NaturalTables, actual: NaturalTables): RowDifference[] {
  const out: RowDifference[] = [];
  const tables = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  for (const table of tables) out.push(...compareTable(table, expected[table] ?? [], actual[table] ?? []));
  return out;
}

function groupByKey(rows: NaturalRow[]): Map<string, NaturalRow[]> {
  const map = new Map<string, NaturalRow[]>();
  for (const row of rows) map.set(row.key, [...(map.get(row.key) ?? []), row]);
  return map;
}

function compareTable(table: string, expected: NaturalRow[], actual: NaturalRow[]): RowDifference[] {
  const out: RowDifference[] = [];
  const want = groupByKey(expected);
  const have = groupByKey(actual);
  for (const key of [...new Set([...want.keys(), ...have.keys()])].sort()) {
    const left = [...(want.get(key) ?? [])];
    const right = [...(have.get(key) ?? [])];
    // equal rows first, then the rest in order
    for (const row of [...left]) {
      const twin = right.findIndex((r) => json(r.columns) === json(row.columns));
      if (twin < 0) continue;
      right.splice(twin, 1);
      left.splice(left.indexOf(row), 1);
    }
    while (left.length > 0 && right.length > 0)
      out.push(...columnDifferences(table, key, left.shift()!, right.shift()!));
    for (const row of left) out.push({ table, key: row.key, kind: 'missing' });
    for (const row of right) out.push({ table, key: row.key, kind: 'extra' });
  }
  return out;
}

function columnDifferences(table: string, key: string, e: NaturalRow, a: NaturalRow): RowDifference[] {
  const columns = [...new Set([...Object.keys(e.columns), ...Object.keys(a.columns)])].sort();
  return columns
    .filter((c) => json(e.columns[c]) !== json(a.columns[c]))
    .map((column) => ({
      table,
      key,
      kind: 'column' as const,
      column,
      expected: e.columns[column],
      actual: a.columns[column],
    }));
}

/** One line per difference, for test failures and the CLI. */
export function describeDifference(d: RowDifference, names = { expected: 'upstream', actual: 'ours' }): string {
  const row = `${d.table} ${d.key}`;
  if (d.kind !== 'column') return `${row}: only ${d.kind === 'missing' ? names.expected : names.actual} has it`;
  return `${row}: ${d.column} ${names.expected} ${json(d.expected)}, ${names.actual} ${json(d.actual)}`;
}
