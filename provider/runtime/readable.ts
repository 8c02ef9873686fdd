/**
 * A plan as a person reads it (`ovnk plan`): each zone's rows by table, children written into
 * their parents' columns (nb/parents.ts) as a Northbound shows them, and the zones `--zone` takes.
 */
import { zoneTables, type ZoneTables } from '../connect/zones';
import type { Cluster } from '../model/cluster';
import { inventoryZones } from '../model/zones';
import type { DesiredRow } from '../nb/desired';
import { inlineParents } from '../nb/parents';

export type { ZoneTables } from '../connect/zones';

/** A zone's rows by NB table, each row its columns, children inside their parents. */
export function readableTables(rows: DesiredRow[]): ZoneTables {
  return zoneTables(inlineParents(rows));
}

/** The names of a cluster's zones, as `--zone` takes them. */
export function zoneNames(cluster: Cluster): string[] {
  return inventoryZones(cluster.inventory).map((z) => z.name);
}
