/**
 * The oracle's comparison: upstream's rows (a dump, or the harness's output) against our plan's
 * rows for the same zone, both under upstream's natural keys (provider/nb/naturalKeys.ts) and
 * compared on every column (provider/nb/rowComparison.ts `compareRows(..., { columns: 'all' })`,
 * the module `ovnk audit` uses), then flattened into one difference per row or column, the unit
 * test/oracle/accepted.yaml explains.
 */
import type { DesiredRow, ObservedRow } from '../provider/nb/desired';
import { nbSchema } from '../provider/nb/generated/nb';
import { naturalRows, plannedAsObserved, type NaturalRow } from '../provider/nb/naturalKeys';
import { compareRows, type Comparison } from '../provider/nb/rowComparison';

export interface OracleDifference {
  table: string;
  key: string;
  /** missing: only upstream has the row; extra: only ours has it; column: both, values differ. */
  kind: 'missing' | 'extra' | 'column';
  column?: string;
  upstream?: unknown;
  ours?: unknown;
}

/** Upstream's rows as a dump stores them (`Table:key` ids, references as `Table:key`) under natural keys. */
export function upstreamNatural(tables: Record<string, { key: string; columns: Record<string, unknown> }[]>) {
  const rows: ObservedRow[] = Object.entries(tables).flatMap(([table, list]) =>
    list.map((r) => ({ table, uuid: `${table}:${r.key}`, columns: r.columns })),
  );
  return naturalRows(rows, nbSchema);
}

/** Our planned rows under natural keys. */
export const plannedNatural = (rows: readonly DesiredRow[]): NaturalRow[] =>
  naturalRows(plannedAsObserved(rows, nbSchema), nbSchema);

/** Upstream's rows against ours, every column. */
export function compareWithUpstream(upstream: readonly NaturalRow[], ours: readonly NaturalRow[]): OracleDifference[] {
  return oracleDifferences(compareRows(upstream, ours, { columns: 'all' }), 'found');
}

/**
 * A comparison flattened into the oracle's terms. `ours` says which side of `c` is our plan: the
 * oracle expects upstream's rows and finds ours (`found`); `ovnk audit` expects our plan and
 * finds upstream's (`expected`).
 */
export function oracleDifferences(c: Comparison, ours: 'expected' | 'found'): OracleDifference[] {
  const onlyExpected = ours === 'found' ? 'missing' : 'extra';
  const onlyFound = ours === 'found' ? 'extra' : 'missing';
  const side = (expected: unknown, found: unknown) =>
    ours === 'found' ? { upstream: expected, ours: found } : { upstream: found, ours: expected };
  return [
    ...c.missing.map((r): OracleDifference => ({ table: r.table, key: r.key, kind: onlyExpected })),
    ...c.unexpected.map((r): OracleDifference => ({ table: r.table, key: r.key, kind: onlyFound })),
    ...c.differing.flatMap((d) =>
      d.columns.map((col): OracleDifference => ({
        table: d.table,
        key: d.key,
        kind: 'column',
        column: col.column,
        ...side(col.expected, col.found),
      })),
    ),
  ].sort((a, b) => (line(a) < line(b) ? -1 : line(a) > line(b) ? 1 : 0));
}

/** One line per difference, for test failures and the fuzz log. */
export function describeDifference(d: OracleDifference): string {
  const row = `${d.table} ${d.key}`;
  if (d.kind !== 'column') return `${row}: only ${d.kind === 'missing' ? 'upstream' : 'ours'} has it`;
  return `${row}: ${d.column} upstream ${JSON.stringify(d.upstream)}, ours ${JSON.stringify(d.ours)}`;
}

const line = (d: OracleDifference) => `${d.table}\0${d.key}\0${d.kind}\0${d.column ?? ''}`;
