/**
 * What the runtime changes in rendered rows for the server it writes to (pure).
 *
 * - ACL `tier`: OVN_Northbound before 7.0.3 has no tiers. Without tiers every ACL is evaluated in
 *   one tier, which is what tier ordering collapses to when only one tier is used per match, so the
 *   column is left out for such servers.
 * - NAT `match` (7.4.0): leaving the match out would widen the NAT to every packet of its logical
 *   IP, so on older servers NAT rows with a match (the management-port SNAT to the masquerade IP,
 *   which only host-bound traffic needs) are not rendered at all, and the result says so.
 *   Pod-to-pod traffic does not use them.
 * Every other column the server lacks is refused by the schema adapter (provider/nb/adapt.ts),
 * with the feature and version it needs.
 * - Shared rows (Copp `ovnkube-default`, its meters and `acl-logging`): when a row of that name
 *   exists and is neither ours nor a shared row of ovnk (nb/shared.ts, which the engine claims),
 *   it is used as it is: ours is dropped from the desired set (with its meter bands), and
 *   references by name resolve to the existing row.
 */
import { KEY_KEY } from '../model/externalIds';
import type { DesiredRow } from '../nb/desired';
import type { DatabaseSchema } from '../ovsdb/schema';
import { identityOf } from '../topology/rows';

export interface Adapted {
  rows: DesiredRow[];
  /** What was left out for this server, in words. */
  notes: string[];
}

function withoutTier(row: DesiredRow): DesiredRow {
  if (row.table !== 'ACL' || !('tier' in row.columns)) return row;
  const { tier: _tier, ...columns } = row.columns;
  return { ...row, columns };
}

/** Rows without `drop`, and without references to them in other rows' set columns. */
function dropRows(rows: DesiredRow[], drop: Set<DesiredRow>): DesiredRow[] {
  const gone = new Set([...drop].map(identityOf));
  const refersToGone = (v: unknown) => Array.isArray(v) && v.some((x) => typeof x === 'string' && gone.has(x));
  return rows
    .filter((r) => !drop.has(r))
    .map((row) => {
      if (!Object.values(row.columns).some(refersToGone)) return row;
      const columns: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row.columns))
        columns[k] = Array.isArray(v) ? v.filter((x) => typeof x !== 'string' || !gone.has(x)) : v;
      return { ...row, columns };
    });
}

export function adaptToServer(rows: DesiredRow[], server: DatabaseSchema): Adapted {
  const notes: string[] = [];
  let out = server.tables.ACL?.columns.tier === undefined ? rows.map(withoutTier) : rows;
  if (server.tables.NAT?.columns.match === undefined) {
    const matched = new Set(
      out.filter((r) => r.table === 'NAT' && typeof r.columns.match === 'string' && r.columns.match !== ''),
    );
    if (matched.size > 0) {
      out = dropRows(out, matched);
      notes.push(
        `${matched.size} NAT rows with a match (management-port SNAT) left out: ${server.name} ${server.version} has no NAT match (needs 7.4.0)`,
      );
    }
  }
  return { rows: out, notes };
}

/** Names of shared rows found on the server without our marker, by table. */
export interface ForeignShared {
  copps: Set<string>;
  meters: Set<string>;
}

/** Our rows without the shared ones found foreign; a band goes only when no meter we keep holds it. */
export function dropForeignShared(rows: DesiredRow[], foreign: ForeignShared): DesiredRow[] {
  const keptBands = new Set<string>();
  const droppedBands = new Set<string>();
  for (const row of rows.filter((r) => r.table === 'Meter')) {
    const target = foreign.meters.has(row.columns.name as string) ? droppedBands : keptBands;
    for (const band of (row.columns.bands as string[]) ?? []) target.add(band);
  }
  for (const band of keptBands) droppedBands.delete(band);
  return rows.filter((row) => {
    if (row.table === 'Copp') return !foreign.copps.has(row.columns.name as string);
    if (row.table === 'Meter') return !foreign.meters.has(row.columns.name as string);
    if (row.table === 'Meter_Band')
      return !droppedBands.has((row.columns.external_ids as Record<string, string>)[KEY_KEY]!);
    return true;
  });
}
