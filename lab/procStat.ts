/**
 * A process's `/proc/<pid>/stat` (proc(5)), read past its command name, which may hold spaces and
 * parentheses: the one reader of it for the lab's waits, the benchmarks and the tests' budgets.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of stat's times (USER_HZ, 100 on Linux). */
export const TICKS_PER_SECOND = 100;

/** The fields after "(comm) ": [0] is proc(5)'s field 3 (state); undefined once the process is gone. */
export function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * utime + stime of a process in ticks; with `children`, also the CPU of the children it waited for
 * (cutime + cstime). 0 once the process is gone.
 */
export function cpuTicksOf(pid: number | 'self', children = false): number {
  const fields = statFields(pid) ?? [];
  return fields.slice(11, children ? 15 : 13).reduce((sum, field) => sum + Number(field), 0);
}
