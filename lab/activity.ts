/**
 * Whether some processes are working: the CPU time they used since the last look. Waits that
 * last while what they wait for works (settle.ts for a lab's daemons, exec.ts for a command) go on
 * while that time grows and end once it stops.
 */
import { cpuTicksOf } from './procStat';

/**
 * CPU ticks (1/100 s) between two looks above which the processes count as still working: an idle
 * probe or echo costs less; a daemon starved on a loaded machine still gets this much.
 */
const BUSY_TICKS = 1;

/**
 * The activity of some processes since the previous call of `working()` (the first call compares
 * with creation): working while they used more than BUSY_TICKS of CPU in between.
 */
export function processActivity(pids: () => number[]): { working(): boolean } {
  const ticks = () => pids().reduce((sum, pid) => sum + cpuTicksOf(pid, true), 0);
  let last = ticks();
  return {
    working() {
      const now = ticks();
      const busy = now - last > BUSY_TICKS;
      last = now;
      return busy;
    },
  };
}
