/**
 * Time limits stretched by the machine's load. A command's wall time is its CPU time stretched by
 * the load: with more runnable processes than cores each gets its share. So a limit measured on a
 * machine at rest grows with the load average per core when the limit is set, never below it.
 */
import { availableParallelism, loadavg } from 'node:os';

/** `quietMs` stretched by the load average per core now. */
export function stretchedByLoad(quietMs: number): number {
  return Math.round(quietMs * Math.max(1, loadavg()[0]! / availableParallelism()));
}
