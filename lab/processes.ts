/**
 * Stopping the lab's daemons by pid. PID 1 here does not reap detached daemons, so a stopped
 * daemon may linger as a zombie: a zombie counts as stopped. A pid is only signalled while its
 * command line still names the program the lab started, so a reused pid is never hit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { sleep } from './exec';
import { statFields, TICKS_PER_SECOND } from './procStat';

export interface DaemonRecord {
  /** What it is, e.g. "ovn-worker2/ovs-vswitchd". */
  name: string;
  /** The program name expected in /proc/PID/cmdline (guards against pid reuse). */
  program: string;
  pidFile: string;
  pid?: number;
}

export function readPidFile(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 1 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** True while the process exists and is not a zombie. */
export function isRunning(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}

/** True when pid runs `program` (its argv[0] basename, or a later argv word for wrappers). */
export function runsProgram(pid: number, program: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return argv.some((word) => word === program || word.endsWith(`/${program}`) || word.startsWith(`${program}:`));
  } catch {
    return false;
  }
}

/** Seconds since boot, as /proc/PID/stat's start times count them (in clock ticks, 1/100 s). */
export function ticksSinceBoot(): number {
  return Math.floor(Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * TICKS_PER_SECOND);
}

/**
 * Whether a process of `program` whose command line names `marker` (a lab's directory) and that
 * started at or after `sinceTicks` (ticksSinceBoot) still runs: a daemon being started.
 */
export function startingSince(program: string, marker: string, sinceTicks: number): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((entry) => {
      try {
        const stat = statFields(+entry);
        if (stat === undefined) return false;
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        // stat fields after "(comm) ": [0] state, [19] starttime
        return (
          Number(stat[19]) >= sinceTicks && stat[0] !== 'Z' && cmdline.includes(marker) && runsProgram(+entry, program)
        );
      } catch {
        return false;
      }
    });
}

export function pidOf(daemon: DaemonRecord): number | undefined {
  return readPidFile(daemon.pidFile) ?? daemon.pid;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** SIGTERM every daemon, wait until each is gone or a zombie, then SIGKILL what is left. */
export async function stopDaemons(daemons: DaemonRecord[], graceMs = 3000): Promise<void> {
  const pids = daemons
    .map((d) => ({ pid: pidOf(d), program: d.program }))
    .filter(
      (p): p is { pid: number; program: string } =>
        p.pid !== undefined && isRunning(p.pid) && runsProgram(p.pid, p.program),
    )
    .map((p) => p.pid);
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(isRunning) && Date.now() < deadline) await sleep(20);
  for (const pid of pids.filter(isRunning)) signal(pid, 'SIGKILL');
  while (pids.some(isRunning) && Date.now() < deadline + 1000) await sleep(20);
}
