/** CPU time of a process: what a benchmark or budget counts on a machine shared with other work. */
import { readdirSync, readFileSync } from 'node:fs';
import { cpuTicksOf, TICKS_PER_SECOND } from '../../lab/procStat';

/** User and system CPU seconds a process has used (/proc/<pid>/stat, in clock ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number {
  return cpuTicksOf(pid) / TICKS_PER_SECOND;
}

/**
 * CPU seconds a process's main thread has run, to the nanosecond (/proc/<pid>/schedstat), for
 * timing one short call of a single-threaded server; cpuSecondsOf when it cannot be read.
 */
export function preciseCpuSecondsOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return cpuSecondsOf(pid);
  }
}

/**
 * CPU seconds every thread of a process has run, to the nanosecond (/proc/<pid>/task/<tid>/schedstat):
 * a Node server's main thread and its GC and I/O threads, for timing a few milliseconds of calls;
 * cpuSecondsOf when it cannot be read.
 */
export function threadsCpuSecondsOf(pid: number): number {
  try {
    const threads = readdirSync(`/proc/${pid}/task`);
    const ns = threads.map((tid) => Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    return ns.reduce((a, b) => a + b, 0) / 1e9;
  } catch {
    return cpuSecondsOf(pid);
  }
}
