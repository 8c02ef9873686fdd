/**
 * Work on every zone at once, at most `parallel` at a time. Zones are independent databases (one
 * Northbound per node in upstream's layout), so a slow or unreachable zone must hold up neither
 * the others nor the result: each zone's outcome, value or what it threw, is kept in the zones' order,
 * and the caller decides what a failed zone means. Each zone's own work stays what it was (one
 * transaction); only the loop over zones is here.
 */
import { type Outcome, success, type Thrown, thrown } from '../model/outcome';

/** Zones worked on at once unless the caller says otherwise (`--parallel`). */
export const DEFAULT_PARALLEL = 8;

export type ZoneOutcome<T> = { zone: string } & Outcome<T, Thrown>;

/** A `--parallel` value: a whole number of at least 1. */
export function checkParallel(value: number, field = '--parallel'): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${field} ${value} is not usable: give a whole number of zones of at least 1`);
  return value;
}

/** `work` on each zone, at most `parallel` at a time; never rejects, outcomes in the zones' order. */
export async function eachZone<T>(
  zones: readonly string[],
  work: (zone: string) => Promise<T>,
  parallel = DEFAULT_PARALLEL,
): Promise<ZoneOutcome<T>[]> {
  checkParallel(parallel);
  const outcomes: ZoneOutcome<T>[] = new Array(zones.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < zones.length) {
      const index = next++;
      const zone = zones[index]!;
      try {
        outcomes[index] = { zone, ...success(await work(zone)) };
      } catch (error) {
        outcomes[index] = { zone, ...thrown(error) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, zones.length) }, worker));
  return outcomes;
}
