/**
 * The loop over a cluster command's zones (eachZone: at most `parallel` at once, each zone one
 * transaction), with a hook per zone so a caller can show progress. Each zone's Northbound is
 * opened as its work begins and released as it ends, so a run over many zones holds only the
 * zones in flight; a zone that cannot be opened then fails alone, like any other failure of it.
 */
import { success, thrown } from '../../model/outcome';
import type { OvsdbDatabase } from '../../ovsdb/client';
import { type NbLease, withLease } from '../connections';
import { eachZone, type ZoneOutcome } from '../eachZone';

export interface ConnectedZone {
  name: string;
  db: OvsdbDatabase;
}

/** A zone to work on: its name, and how to hold its Northbound for the length of its work. */
export interface ZoneTarget {
  name: string;
  open(): Promise<NbLease>;
}

export interface ZoneTargets {
  zones: ZoneTarget[];
  parallel: number;
  /** Called as a zone's work begins; the returned function gets the zone's outcome. */
  onZone?: (zone: string) => (outcome: ZoneOutcome<unknown>) => void;
}

/** `work` on every connected zone; outcomes in the zones' order, never rejects. */
export function onZones<T>(targets: ZoneTargets, work: (zone: ConnectedZone) => Promise<T>): Promise<ZoneOutcome<T>[]> {
  const byName = new Map(targets.zones.map((z) => [z.name, z]));
  return eachZone(
    targets.zones.map((z) => z.name),
    async (name) => {
      const done = targets.onZone?.(name);
      try {
        const zone = byName.get(name)!;
        const value = await withLease(zone.open, (db) => work({ name, db }));
        done?.({ zone: name, ...success(value) });
        return value;
      } catch (error) {
        done?.({ zone: name, ...thrown(error) });
        throw error;
      }
    },
    targets.parallel,
  );
}
