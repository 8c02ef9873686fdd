/**
 * Two sets of natural rows (naturalKeys.ts) compared table by table: the rows one expects that
 * the other lacks, the rows both hold whose columns differ (which columns, expected and found),
 * and the rows found that nobody expected. Each difference is reported once: a missing or
 * unexpected row is not also reported as a change of the reference set that lists it (a deleted
 * port is one missing Logical_Switch_Port, not also a switch whose `ports` changed), and a missing
 * and an unexpected row with the same loose identity (a NAT whose external_ip was changed by hand)
 * are one row that differs. Pure.
 */
import { canonicalText, type NaturalRow } from './naturalKeys';

export interface ColumnDifference {
  column: string;
  /** Absent: the column holds the OVSDB default. */
  expected?: unknown;
  found?: unknown;
}

export interface RowDifference {
  table: string;
  key: string;
  /** The found row's key, when a loose identity paired it (its key differs from the expected one). */
  foundKey?: string;
  columns: ColumnDifference[];
}

export interface RowOutline {
  table: string;
  key: string;
  columns: Record<string, unknown>;
}

export interface Comparison {
  missing: RowOutline[];
  differing: RowDifference[];
  unexpected: RowOutline[];
}

export interface CompareOptions {
  /**
   * `expected`: only the columns each expected row names (a plan manages those); `all`: every
   * column either side holds.
   */
  columns: 'expected' | 'all';
}

const keyOf = (table: string, key: string) => `${table}\u0000${key}`;
const outline = (row: NaturalRow): RowOutline => ({ table: row.table, key: row.key, columns: row.columns });

/** Compare `found` with `expected` (see the header). */
export function compareRows(
  expected: readonly NaturalRow[],
  found: readonly NaturalRow[],
  options: CompareOptions = { columns: 'expected' },
): Comparison {
  const { pairs, missing, unexpected } = matchRows(expected, found);
  // rows whose presence is already reported: left out of the reference sets that list them
  const reported = new Set<string>();
  for (const row of [...missing, ...unexpected]) reported.add(keyOf(row.table, row.key));
  for (const [e, f] of pairs) {
    if (e.key !== f.key) reported.add(keyOf(e.table, e.key)).add(keyOf(f.table, f.key));
  }
  const differing: RowDifference[] = [];
  for (const [e, f] of pairs) {
    const columns = differentColumns(e, f, options, reported);
    if (columns.length > 0 || e.key !== f.key) {
      differing.push({ table: e.table, key: e.key, ...(e.key !== f.key ? { foundKey: f.key } : {}), columns });
    }
  }
  return { missing: missing.map(outline), differing, unexpected: unexpected.map(outline) };
}

/**
 * Pairs by natural key (several found with one key: an equal one pairs, else the first; the others
 * are unexpected), then by loose key where exactly one of each is left.
 */
function matchRows(expected: readonly NaturalRow[], found: readonly NaturalRow[]) {
  const byKey = new Map<string, NaturalRow[]>();
  for (const row of found) {
    const k = keyOf(row.table, row.key);
    byKey.set(k, [...(byKey.get(k) ?? []), row]);
  }
  const pairs: [NaturalRow, NaturalRow][] = [];
  const missing: NaturalRow[] = [];
  for (const row of expected) {
    const candidates = byKey.get(keyOf(row.table, row.key)) ?? [];
    // rows sharing a key (a NAT per allowed_ext_ips set): an equal one pairs first
    const equal = candidates.findIndex((c) => canonicalText(c.columns) === canonicalText(row.columns));
    const match = candidates.splice(Math.max(equal, 0), 1)[0];
    if (match) pairs.push([row, match]);
    else missing.push(row);
  }
  const unexpected = [...byKey.values()].flat();
  return pairLoosely(pairs, missing, unexpected);
}

function pairLoosely(pairs: [NaturalRow, NaturalRow][], missing: NaturalRow[], unexpected: NaturalRow[]) {
  const looseOf = (row: NaturalRow) => (row.loose === undefined ? undefined : keyOf(row.table, row.loose));
  const count = (rows: NaturalRow[]) => {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const loose = looseOf(row);
      if (loose !== undefined) counts.set(loose, (counts.get(loose) ?? 0) + 1);
    }
    return counts;
  };
  const missingCounts = count(missing);
  const unexpectedCounts = count(unexpected);
  const single = (loose: string | undefined) =>
    loose !== undefined && missingCounts.get(loose) === 1 && unexpectedCounts.get(loose) === 1;
  const paired = new Set<NaturalRow>();
  for (const row of missing) {
    if (!single(looseOf(row))) continue;
    const partner = unexpected.find((u) => looseOf(u) === looseOf(row))!;
    pairs.push([row, partner]);
    paired.add(row).add(partner);
  }
  return {
    pairs,
    missing: missing.filter((r) => !paired.has(r)),
    unexpected: unexpected.filter((r) => !paired.has(r)),
  };
}

function differentColumns(
  e: NaturalRow,
  f: NaturalRow,
  options: CompareOptions,
  reported: Set<string>,
): ColumnDifference[] {
  const names = options.columns === 'all' ? [...new Set([...e.named, ...f.named])].sort() : e.named;
  const differences: ColumnDifference[] = [];
  for (const column of names) {
    const refTable = e.references[column] ?? f.references[column];
    const keep = (value: unknown) => (refTable === undefined ? value : withoutReported(value, refTable, reported));
    const expected = keep(e.columns[column]);
    const seen = keep(f.columns[column]);
    if (canonicalText(expected) === canonicalText(seen)) continue;
    differences.push({
      column,
      ...(expected !== undefined ? { expected } : {}),
      ...(seen !== undefined ? { found: seen } : {}),
    });
  }
  return differences;
}

/** A reference set without the rows whose presence is reported on their own. */
function withoutReported(value: unknown, refTable: string, reported: Set<string>): unknown {
  if (!Array.isArray(value)) return value;
  const kept = value.filter((key) => !reported.has(keyOf(refTable, String(key))));
  return kept.length === 0 ? undefined : kept;
}

/** Whether nothing differs. */
export const agrees = (c: Comparison): boolean =>
  c.missing.length === 0 && c.differing.length === 0 && c.unexpected.length === 0;
