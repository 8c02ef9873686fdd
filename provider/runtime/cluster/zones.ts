/**
 * The loop over a cluster command's zones (eachZone: at most `parallel` at once, each zone one
 * transaction), with a hook per zone so a caller can show progress. Each zone's Northbound is
 * opened as its work begins and released as it ends, so a run over many zones holds only the
 * zones in flight; a zone that cannot be opened then fails alone, like any other failure of it.
 * Before the run, readZones reads every zone (the plan needs them all) and hands the connections
 * of the zones the run starts with over to it.
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

/** A zone read before the run: `open` takes over the connection kept from its read, `release` drops it unused. */
export interface ReadZone extends ZoneTarget {
  release(): Promise<void>;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Until the event loop has passed its poll phase: a long plan keeps the process from reading,
 * and from answering the server's echo; a close the server sent meanwhile is seen there (the pool
 * then opens the connection again) before a kept connection is taken as open. The first
 * setImmediate may run before this turn's poll phase, the second runs after it.
 */
async function throughPoll(): Promise<void> {
  await turn();
  await turn();
}

/** A zone whose `open` first hands over `kept` (the pooled connection stays open: no second connect). */
function handingOver(zone: ZoneTarget, kept: NbLease | undefined): ReadZone {
  let held = kept;
  const release = async (): Promise<void> => {
    const lease = held;
    held = undefined;
    await lease?.release();
  };
  const open = async (): Promise<NbLease> => {
    if (held !== undefined) await throughPoll();
    const lease = await zone.open();
    await release();
    return lease;
  };
  return { name: zone.name, open, release };
}

/**
 * `read` on every zone, `parallel` at a time, before a plan that needs every zone's: the first
 * `parallel` zones are read last and keep their connection for the run, which starts with them
 * (onZones goes in the zones' order); the others are connected again for their run. Holding
 * every zone from its read to its run would hold them all while planning, so a zone past the
 * first `parallel` costs two connections; never more than `parallel` are held at once. Outcomes
 * in the zones' order; call `release` of each zone the run does not open.
 */
export async function readZones<T>(
  zones: ZoneTarget[],
  parallel: number,
  read: (db: OvsdbDatabase) => Promise<T>,
): Promise<ZoneOutcome<{ value: T; zone: ReadZone }>[]> {
  const byName = new Map(zones.map((z) => [z.name, z]));
  const readOne = (keep: boolean) => async (name: string) => {
    const zone = byName.get(name)!;
    const lease = await zone.open();
    let kept = false;
    try {
      const value = await read(lease.db);
      kept = keep;
      return { value, zone: handingOver(zone, keep ? lease : undefined) };
    } finally {
      if (!kept) await lease.release();
    }
  };
  const names = zones.map((z) => z.name);
  const later = await eachZone(names.slice(parallel), readOne(false), parallel);
  const first = await eachZone(names.slice(0, parallel), readOne(true), parallel);
  return [...first, ...later];
}
