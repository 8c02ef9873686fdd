/**
 * What the runtime changes in rendered rows for the server it writes to (pure).
 *
 * - ACL `tier`: OVN_Northbound before 7.0.3 has no tiers. Without tiers every ACL is evaluated in
 *   one tier, which is what tier ordering collapses to when only one tier is used per match, so the
 *   column is left out for such servers. Every other column the server lacks is refused by the
 *   schema adapter (provider/nb/adapt.ts), with the feature and version it needs (NAT `match`,
 *   for one: leaving it out would widen the NAT).
 * - Shared rows (Copp `ovnkube-default`, its meters and `acl-logging`): when a row of that name
 *   exists and is not ours, it is used as it is: ours is dropped from the desired set (with its
 *   meter bands), and references by name resolve to the existing row.
 */
import type { DesiredRow } from '../nb/desired';
import type { DatabaseSchema } from '../ovsdb/schema';

export function adaptToServer(rows: DesiredRow[], server: DatabaseSchema): DesiredRow[] {
  if (server.tables.ACL?.columns.tier !== undefined) return rows;
  return rows.map((row) => {
    if (row.table !== 'ACL' || !('tier' in row.columns)) return row;
    const { tier: _tier, ...columns } = row.columns;
    return { ...row, columns };
  });
}

/** Names of shared rows found on the server without our marker, by table. */
export interface ForeignShared {
  copps: Set<string>;
  meters: Set<string>;
}

export function dropForeignShared(rows: DesiredRow[], foreign: ForeignShared): DesiredRow[] {
  const droppedBands = new Set<string>();
  for (const row of rows) {
    if (row.table === 'Meter' && foreign.meters.has(row.columns.name as string)) for (const band of (row.columns.bands as string[]) ?? []) droppedBands.add(band);
  }
  return rows.filter((row) => {
    if (row.table === 'Copp') return !foreign.copps.has(row.columns.name as string);
    if (row.table === 'Meter') return !foreign.meters.has(row.columns.name as string);
    if (row.table === 'Meter_Band') return !droppedBands.has((row.columns.external_ids as Record<string, string>)['ovnk.io/key']!);
    return true;
  });
}
