/**
 * A zone's rows as planTopology (plan.ts) renders them: each network's rows (sorted), then the
 * connects' rows and the shared Copp/meter rows the networks do not already hold. Or only their
 * count per table (zoneCounts): a per-node cluster's zones together hold N² rows, every zone every
 * other node's remote rows (issue 25.4); counted from the shared blocks (topology/remoteRows.ts)
 * without listing them, a zone costs what its own nodes cost.
 */
import { ConnectRenderError } from '../connect/links';
import { clearConnectMemo, connectMemoStats } from '../connect/renderCache';
import { renderZone, uniqueRows, type ZonePlan as ConnectZones } from '../connect/zones';
import type { DesiredRow } from '../nb/desired';
import { forNetwork } from '../topology/errors';
import type { ZoneRenderInputs } from '../topology/fromCluster';
import { mergeSharedParts } from '../topology/merge';
import { isShared } from '../topology/remoteRows';
import { countRows, findRow, type Keyed, renderNetworkParts } from '../topology/render';
import { clearNetworkMemo, networkMemoStats, renderNetworkCached } from '../topology/renderCache';
import type { MemoStats } from '../topology/renderMemo';
import { identityOf } from '../topology/rows';
import { renderSharedRows } from '../topology/shared';

export interface ZoneRows {
  rows: DesiredRow[];
  notes: string[];
}

/**
 * The zone's rows. Each network's and each connect's rows come from the render memos when they
 * rendered the same input before (topology/renderCache.ts, connect/renderCache.ts): after a
 * one-network change only that network and the connects that select it render again.
 */
export function zoneRows(z: ZoneRenderInputs, connectPlan: ConnectZones): ZoneRows {
  const perNetwork = z.inputs.map((input) => forNetwork(input.network.name, () => renderNetworkCached(input)));
  const rows = joined(perNetwork.map((keyed) => keyed.map((e) => e.row)));
  const connect = renderZone(connectPlan, z.zone);
  const index = (keys: ReadonlySet<string>) => finder(indexOf(perNetwork, keys), rows);
  for (const row of otherRows(connect.rows, rows.length > 0, index)) rows.push(row);
  return { rows, notes: connect.notes };
}

/**
 * The networks' rows of `keys` (the first network's row of a key, as a lookup per network gives):
 * one pass over the networks' rows, where looking each key up in every network's rows made a zone
 * of thousands of connect rows and hundreds of networks cost their product.
 */
function indexOf(perNetwork: readonly Keyed[][], keys: ReadonlySet<string>): (key: string) => DesiredRow | undefined {
  const found = new Map<string, DesiredRow>();
  for (const keyed of perNetwork)
    for (const e of keyed) if (keys.has(e.key) && !found.has(e.key)) found.set(e.key, e.row);
  return (key) => found.get(key);
}

/** What the render memos answered and rendered (benchmarks and tests). */
export function renderMemoStats(): { networks: MemoStats; connects: MemoStats } {
  return { networks: networkMemoStats(), connects: connectMemoStats() };
}

/** Empties the render memos: the next zone renders every network and connect. */
export function clearRenderMemos(): void {
  clearNetworkMemo();
  clearConnectMemo();
}

export interface ZoneCounts {
  /** The rows per NB table: what counting zoneRows' rows gives. */
  counts: Map<string, number>;
  notes: string[];
}

/** zoneRows' rows counted per table, the networks' and connects' remote rows never listed. */
export function zoneCounts(z: ZoneRenderInputs, connectPlan: ConnectZones): ZoneCounts {
  const counts = new Map<string, number>();
  const add = (row: DesiredRow, n: number) => counts.set(row.table, (counts.get(row.table) ?? 0) + n);
  const perNetwork = z.inputs.map((input) => forNetwork(input.network.name, () => renderNetworkParts(input)));
  const unjoined = perNetwork.map((parts) => parts.own.map((e) => e.row));
  const own = joined(unjoined);
  perNetwork.forEach((parts) => countRows(parts, counts));
  if (own.some((r) => r.shared)) {
    // shared rows several networks render are one row once joined: counted as joined
    unjoined.forEach((rows) => rows.forEach((r) => add(r, -1)));
    own.forEach((r) => add(r, 1));
  }
  const hasNetworkRows = [...counts.values()].some((n) => n > 0);
  const connect = renderZone(connectPlan, z.zone, counts);
  const find = finder((key) => firstOf(perNetwork, (parts) => findRow(parts, key)), own);
  for (const row of otherRows(connect.rows, hasNetworkRows, () => find)) add(row, 1);
  return { counts, notes: connect.notes };
}

function firstOf<T>(lists: readonly T[], lookup: (list: T) => DesiredRow | undefined): DesiredRow | undefined {
  for (const list of lists) {
    const found = lookup(list);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A lookup among the networks' rows; a shared row's parts were joined into another row (merge.ts): that one. */
function finder(lookup: (key: string) => DesiredRow | undefined, joinedRows: readonly DesiredRow[]) {
  return (key: string): DesiredRow | undefined => {
    const found = lookup(key);
    return found?.shared ? joinedRows.find((r) => `${r.table}\u0000${identityOf(r)}` === key) : found;
  };
}

/** The networks' rows in one list, shared rows joined (mergeSharedParts) when there are any. */
function joined(perNetwork: readonly DesiredRow[][]): DesiredRow[] {
  const rows: DesiredRow[] = [];
  let shared = false;
  for (const list of perNetwork)
    for (const row of list) {
      rows.push(row);
      shared ||= row.shared === true;
    }
  return shared ? mergeSharedParts(rows) : rows;
}

/**
 * The connects' rows and the shared Copp/meter rows (when the zone holds any row) without those
 * the networks hold already (exact repeats; a different row of the same identity throws, as
 * uniqueRows). Rows of different networks never share an identity (every name carries the network
 * prefix), so only these are checked; `lookup` gives a lookup of those keys among the networks'
 * rows. Shared remote rows of a connect are named by it: never repeats.
 */
function otherRows(
  connectRows: DesiredRow[],
  hasNetworkRows: boolean,
  lookup: (keys: ReadonlySet<string>) => (key: string) => DesiredRow | undefined,
): DesiredRow[] {
  const shared = hasNetworkRows || connectRows.length > 0 ? renderSharedRows() : [];
  const others = uniqueRows([...connectRows, ...shared]);
  if (connectRows.length === 0) return others;
  const keyOf = new Map<DesiredRow, string>();
  for (const row of others) if (!isShared(row)) keyOf.set(row, `${row.table}\u0000${identityOf(row)}`);
  const find = lookup(new Set(keyOf.values()));
  return others.filter((row) => {
    const key = keyOf.get(row);
    if (key === undefined) return true;
    const found = find(key);
    if (found === undefined) return true;
    if (JSON.stringify(found) !== JSON.stringify(row))
      throw new ConnectRenderError(`two different ${row.table} rows have the identity ${identityOf(row)}`);
    return false;
  });
}
