/**
 * The loop over a cluster command's zones (eachZone: at most `parallel` at once, each zone one
 * transaction), with a hook per zone so a caller can show progress. The zones are those already
 * connected; a zone that could not be connected is the caller's to report.
 */
import { success, thrown } from '../../model/outcome';
import type { OvsdbDatabase } from '../../ovsdb/client';
import { eachZone, type ZoneOutcome } from '../eachZone';

export interface ConnectedZone {
  name: string;
  db: OvsdbDatabase;
}

export interface ZoneTargets {
  zones: ConnectedZone[];
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
        const value = await work(byName.get(name)!);
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
