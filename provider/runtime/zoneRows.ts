/**
 * A zone's rows as planTopology (plan.ts) renders them: each network's rows (sorted), then the
 * connects' rows and the shared Copp/meter rows the networks do not already hold. Or only their
 * count per table (zoneCounts): a per-node cluster's zones together hold N² rows, every zone every
 * other node's remote rows (issue 25.4); counted from the shared blocks (topology/remoteRows.ts)
 * without listing them, a zone costs what its own nodes cost.
 */
import { ConnectRenderError } from '../connect/links';
import { renderZone, uniqueRows, type ZonePlan as ConnectZones } from '../connect/zones';
import type { DesiredRow } from '../nb/desired';
import { forNetwork } from '../topology/errors';
import type { ZoneRenderInputs } from '../topology/fromCluster';
import { mergeSharedParts } from '../topology/merge';
import { isShared } from '../topology/remoteRows';
import { countRows, findKeyed, findRow, renderNetworkKeyed, renderNetworkParts } from '../topology/render';
import { identityOf } from '../topology/rows';
import { renderSharedRows } from '../topology/shared';

export interface ZoneRows {
  rows: DesiredRow[];
  notes: string[];
}

export function zoneRows(z: ZoneRenderInputs, connectPlan: ConnectZones): ZoneRows {
  const perNetwork = z.inputs.map((input) => forNetwork(input.network.name, () => renderNetworkKeyed(input)));
  const rows = joined(perNetwork.map((keyed) => keyed.map((e) => e.row)));
  const connect = renderZone(connectPlan, z.zone);
  const find = finder((key) => firstOf(perNetwork, (keyed) => findKeyed(keyed, key)), rows);
  for (const row of otherRows(connect.rows, rows.length > 0, find)) rows.push(row);
  return { rows, notes: connect.notes };
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
  for (const row of otherRows(connect.rows, hasNetworkRows, find)) add(row, 1);
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
 * prefix), so only these are checked; `find` looks a key up among the networks' rows (a per-node
 * zone holds thousands: looked up, not indexed). Shared remote rows of a connect are named by it:
 * never repeats.
 */
function otherRows(
  connectRows: DesiredRow[],
  hasNetworkRows: boolean,
  find: (key: string) => DesiredRow | undefined,
): DesiredRow[] {
  const shared = hasNetworkRows || connectRows.length > 0 ? renderSharedRows() : [];
  const others = uniqueRows([...connectRows, ...shared]);
  if (connectRows.length === 0) return others;
  return others.filter((row) => {
    if (isShared(row)) return true;
    const key = `${row.table}\u0000${identityOf(row)}`;
    const found = find(key);
    if (found === undefined) return true;
    if (JSON.stringify(found) !== JSON.stringify(row))
      throw new ConnectRenderError(`two different ${row.table} rows have the identity ${identityOf(row)}`);
    return false;
  });
}
