/**
 * Parts of shared rows (shared.ts): a set column several owners each add their own values to
 * (Address_Set `addresses`: upstream's advertised-subnets set holds every advertised network's
 * subnets, and networks of different owners may share one Northbound). Each owner records the
 * values it adds in the row's `ovnk.io/part/<owner>` (a JSON list) beside its user key. Writing
 * the row keeps every other user's part and the values no part records (others wrote them), and
 * replaces our own part; releasing the row takes out the values only our part held. Both are
 * guarded like every shared-row write (the `wait` on external_ids). Reference sets need none of
 * this: they change by `mutate` of our own rows only. Pure.
 */
import { PART_PREFIX } from '../model/externalIds';

/** The column of each table whose shared rows hold parts. */
const PART_COLUMNS: Readonly<Record<string, string>> = { Address_Set: 'addresses' };

export const partKey = (owner: string): string => `${PART_PREFIX}${owner}`;

type Ids = Record<string, unknown> | undefined;

export const isPartKey = (key: string): boolean => key.startsWith(PART_PREFIX);

function parsePart(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Values of every part but `owner`'s. */
function otherParts(ids: Ids, owner: string): Set<string> {
  const values = new Set<string>();
  for (const key in ids ?? {})
    if (isPartKey(key) && key !== partKey(owner)) parsePart(ids![key]).forEach((v) => values.add(v));
  return values;
}

const asList = (value: unknown): string[] =>
  Array.isArray(value) ? (value as string[]) : value === undefined ? [] : [value as string];

/**
 * The column a shared row of `table` should hold when `owner` wants the values `desired` gives it,
 * and the part key to record; undefined for tables without parts.
 */
export function claimedPart(
  table: string,
  desired: Record<string, unknown>,
  observed: Record<string, unknown> | undefined,
  owner: string,
): { column: string; value: string[]; key: string; part: string } | undefined {
  const column = PART_COLUMNS[table];
  if (column === undefined) return undefined;
  const ours = [...new Set(asList(desired[column]))].sort();
  const ids = observed?.external_ids as Ids;
  const before = new Set(parsePart(ids?.[partKey(owner)]));
  const others = otherParts(ids, owner);
  const kept = asList(observed?.[column]).filter((v) => !before.has(v) || others.has(v));
  const value = [...new Set([...kept, ...others, ...ours])].sort();
  return { column, value, key: partKey(owner), part: JSON.stringify(ours) };
}

/**
 * What leaves a shared row's set column when `owner` releases the row while others still use it:
 * the values only its part holds (removed by `mutate`, which needs no read of the column).
 */
export function releasedPart(
  table: string,
  observedIds: Record<string, unknown> | undefined,
  owner: string,
): { column: string; values: string[] } | undefined {
  const column = PART_COLUMNS[table];
  if (column === undefined) return undefined;
  const others = otherParts(observedIds, owner);
  const values = parsePart(observedIds?.[partKey(owner)]).filter((v) => !others.has(v));
  return values.length === 0 ? undefined : { column, values };
}
