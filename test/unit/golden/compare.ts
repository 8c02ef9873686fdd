/**
 * The golden conformance harness: upstream's expected Northbound state of one test (a data file
 * under data/) against our whole render of the same zone, table by table. Values are compared as
 * OVSDB holds them (a column at its default, "" 0 false [] {}, is the same as absent); our own
 * ownership keys (`ovnk.io/...`) are ignored, nothing else. Rows are matched by name (the index
 * of Static_MAC_Binding; `k8s.ovn.org/id` for nameless ones), else by their non-reference
 * columns; references are then compared through that matching. Upstream's raw network names are
 * renamed to ours (their scoped prefix and their raw form), and port-group names, HashForOVN of
 * their id, are recomputed after the rename.
 */
import { hashForOvn } from '../../../provider/model/hash';
import type { DesiredRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import { referencedTable } from '../../../provider/nb/references';
import { networkPrefix } from '../../../provider/topology/names';

export type Columns = Record<string, unknown>;

/** A row of a data file: columns by OVSDB name, plus `_id` where it has no name (for references). */
export interface ExpectedRow extends Columns {
  _id?: string;
}

export interface Outcome {
  /** Expected rows found with every column equal. */
  matched: string[];
  /** Expected rows missing or different, with what differs. */
  mismatched: { row: string; why: string }[];
  /** Our rows no expected row matched. */
  extra: string[];
}

const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === 0 ||
  v === false ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/** Columns as OVSDB holds them: defaults dropped, sets sorted, our ownership keys left out. */
export function normalize(columns: Columns): Columns {
  const out: Columns = {};
  for (const key of Object.keys(columns).sort()) {
    const raw = columns[key];
    if (key === '_id') continue;
    let value: unknown = raw;
    if (key === 'external_ids' && raw && typeof raw === 'object')
      value = Object.fromEntries(Object.entries(raw as Columns).filter(([k]) => !k.startsWith('ovnk.io/')));
    if (Array.isArray(value)) value = [...value].map(String).sort();
    else if (value && typeof value === 'object') value = sortedMap(value as Columns);
    if (!isEmpty(value)) out[key] = value;
  }
  return out;
}

function sortedMap(map: Columns): Columns {
  return Object.fromEntries(
    Object.keys(map)
      .sort()
      .map((k) => [k, String(map[k])]),
  );
}

/** What a data file renames: upstream's network names (scoped prefix and raw form) and other names. */
export interface Renames {
  networks: Record<string, string>;
  /** Plain replacements, e.g. a test's pod name Kubernetes would refuse. */
  names?: Record<string, string>;
}

/** Upstream's names in every string of the expected rows, renamed to ours. */
export function rename(value: unknown, renames: Renames): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (const [from, to] of Object.entries(renames.networks)) {
      text = text.split(networkPrefix(from)).join(networkPrefix(to));
      text = text.replace(new RegExp(`(?<![A-Za-z0-9_.])${escape(from)}(?![A-Za-z0-9_])`, 'g'), to);
    }
    for (const [from, to] of Object.entries(renames.names ?? {})) text = text.split(from).join(to);
    return text;
  }
  if (Array.isArray(value)) return value.map((v) => rename(v, renames));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Columns).map(([k, v]) => [k, rename(v, renames)]));
  return value;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A Port_Group's name is HashForOVN of its id: checked on upstream's row, recomputed after the rename. */
export function rehashPortGroup(original: ExpectedRow, renamed: ExpectedRow): ExpectedRow {
  const before = (original.external_ids as Columns | undefined)?.['k8s.ovn.org/id'];
  const after = (renamed.external_ids as Columns | undefined)?.['k8s.ovn.org/id'];
  if (typeof before !== 'string' || typeof after !== 'string') return renamed;
  if (original.name !== hashForOvn(before))
    throw new Error(`data: Port_Group ${String(original.name)} is not HashForOVN(${before})`);
  return { ...renamed, name: hashForOvn(after) };
}

const refColumns = (table: string): Set<string> =>
  new Set(
    Object.entries(nbSchema.tables[table]?.columns ?? {})
      .filter(([, spec]) => referencedTable(spec.type) !== undefined)
      .map(([column]) => column),
  );

/** The key a row is matched by, when it has one. */
function keyOf(table: string, row: Columns): string | undefined {
  if (typeof row.name === 'string' && row.name !== '') return row.name;
  if (table === 'Static_MAC_Binding') return `${String(row.logical_port)}/${String(row.ip)}`;
  const id = (row.external_ids as Columns | undefined)?.['k8s.ovn.org/id'];
  return typeof id === 'string' ? id : undefined;
}

function withoutRefs(table: string, row: Columns): Columns {
  const refs = refColumns(table);
  return Object.fromEntries(Object.entries(row).filter(([c]) => !refs.has(c)));
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

interface Side {
  table: string;
  label: string;
  raw: Columns;
  columns: Columns;
}

/** Compare upstream's rows with ours (all tables of `expected`; our rows of every table). */
export function compareRows(expected: Record<string, ExpectedRow[]>, ours: DesiredRow[]): Outcome {
  const exp: Side[] = Object.entries(expected).flatMap(([table, rows]) =>
    rows.map((raw) => ({ table, raw, columns: normalize(raw), label: `${table} ${keyOf(table, raw) ?? raw._id}` })),
  );
  const our: Side[] = ours.map((r) => ({
    table: r.table,
    raw: r.columns,
    columns: normalize(r.columns),
    label: `${r.table} ${keyOf(r.table, r.columns) ?? JSON.stringify(normalize(r.columns))}`,
  }));
  const pairs = match(exp, our);
  // what an expected reference (a name or an `_id`) stands for in our rows
  const ourIdentity = new Map<string, string>();
  for (const [e, o] of pairs) {
    const ref = keyOf(e.table, e.raw) ?? e.raw._id;
    if (ref !== undefined) ourIdentity.set(`${e.table}\u0000${ref}`, identity(o));
  }
  const outcome: Outcome = { matched: [], mismatched: [], extra: [] };
  for (const e of exp) {
    const o = pairs.get(e);
    if (!o) {
      outcome.mismatched.push({ row: e.label, why: 'missing' });
      continue;
    }
    const why = differences(e, o, ourIdentity);
    if (why.length === 0) outcome.matched.push(e.label);
    else outcome.mismatched.push({ row: e.label, why: why.join('; ') });
  }
  const used = new Set(pairs.values());
  outcome.extra = our.filter((o) => !used.has(o)).map((o) => o.label);
  return outcome;
}

function identity(o: Side): string {
  return keyOf(o.table, o.raw) ?? String((o.raw.external_ids as Columns | undefined)?.['ovnk.io/key'] ?? '');
}

function match(exp: Side[], our: Side[]): Map<Side, Side> {
  const pairs = new Map<Side, Side>();
  const free = new Set(our);
  for (const e of exp) {
    const key = keyOf(e.table, e.raw);
    const found =
      key !== undefined
        ? [...free].find((o) => o.table === e.table && keyOf(o.table, o.raw) === key)
        : [...free].find(
            (o) => o.table === e.table && same(withoutRefs(e.table, e.columns), withoutRefs(o.table, o.columns)),
          );
    if (found) {
      pairs.set(e, found);
      free.delete(found);
    }
  }
  return pairs;
}

function differences(e: Side, o: Side, ourIdentity: Map<string, string>): string[] {
  const refs = refColumns(e.table);
  const columns = new Set([...Object.keys(e.columns), ...Object.keys(o.columns)]);
  const out: string[] = [];
  for (const column of [...columns].sort()) {
    let want = e.columns[column];
    if (refs.has(column)) {
      const target = referencedTable(nbSchema.tables[e.table]!.columns[column]!.type)!;
      const list = want === undefined ? [] : Array.isArray(want) ? want : [want];
      want = list.map((r) => ourIdentity.get(`${target}\u0000${String(r)}`) ?? `<unmatched ${String(r)}>`).sort();
      if ((want as unknown[]).length === 0) want = undefined;
      else if (!Array.isArray(e.raw[column])) want = (want as unknown[])[0];
    }
    const got = o.columns[column];
    if (!same(want, got)) out.push(`${column}: upstream ${JSON.stringify(want)}, ours ${JSON.stringify(got)}`);
  }
  return out;
}

/** Does `ours` hold every column of `want`, maps key by key (what a test asserts, not whole rows)? */
function holds(want: Columns, ours: Columns): boolean {
  return Object.entries(want).every(([column, value]) => {
    const got = ours[column];
    if (value && typeof value === 'object' && !Array.isArray(value))
      return Object.entries(value as Columns).every(([k, v]) => same(String(v), (got as Columns | undefined)?.[k]));
    return same(value, got);
  });
}

/** A test's count: how many rows of `table` hold the columns of `where` (e.g. assert.Len of a lookup). */
export interface ExpectedCount {
  table: string;
  where: ExpectedRow;
  count: number;
}

/**
 * For tests that assert some columns of some rows (and that others do not exist, or how many
 * there are): each expected row must be held by one of our rows of its table (listed columns
 * only, map columns key by key), no row of ours may hold an `absent` one, and each count must be
 * the number of our rows holding its `where`. References are compared as our identities.
 */
export function compareSubset(
  expected: Record<string, ExpectedRow[]>,
  absent: Record<string, ExpectedRow[]>,
  ours: DesiredRow[],
  counts: ExpectedCount[] = [],
): Outcome {
  const outcome: Outcome = { matched: [], mismatched: [], extra: [] };
  const rows = ours.map((r) => ({ table: r.table, columns: normalize(r.columns) }));
  const holding = (table: string, want: Columns) => rows.filter((o) => o.table === table && holds(want, o.columns));
  const labelOf = (table: string, row: ExpectedRow, want: Columns) =>
    `${table} ${keyOf(table, row) ?? row._id ?? JSON.stringify(want)}`;
  const check = (table: string, row: ExpectedRow, wantFound: boolean) => {
    const want = normalize(row);
    const label = labelOf(table, row, want);
    const found = holding(table, want).length > 0;
    if (found === wantFound) outcome.matched.push(wantFound ? label : `${label} (absent)`);
    else outcome.mismatched.push({ row: label, why: wantFound ? 'no row of ours holds it' : 'present' });
  };
  for (const [table, list] of Object.entries(expected)) for (const row of list) check(table, row, true);
  for (const [table, list] of Object.entries(absent)) for (const row of list) check(table, row, false);
  for (const { table, where, count } of counts) {
    const want = normalize(where);
    const label = `${labelOf(table, where, want)} (count ${count})`;
    const got = holding(table, want).length;
    if (got === count) outcome.matched.push(label);
    else outcome.mismatched.push({ row: label, why: `upstream ${count} rows, ours ${got}` });
  }
  return outcome;
}
