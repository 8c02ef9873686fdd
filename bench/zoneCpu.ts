/**
 * Where a zones step's time goes: this process's CPU (process.cpuUsage: the main thread and any
 * worker threads), the CPU of the zones' own daemons (each zone's NB and SB ovsdb-server and its
 * northd, from /proc/<pid>/stat), and the wall time. On a machine with `cores` cores a step
 * cannot take less than max(ours on its busiest thread, everything / cores), which bounds what
 * working on the zones at once can gain.
 */
import { availableParallelism } from 'node:os';
import { readState } from '../lab';
import { readPidFile } from '../lab/processes';
import { cpuSecondsOf } from '../test/support/processCpu';

export type DaemonKind = 'nb' | 'sb' | 'northd';

export interface CpuSplit {
  wall: number;
  /** This process, seconds of CPU. */
  ours: number;
  /** The zones' daemons, seconds of CPU by kind. */
  servers: Record<DaemonKind, number>;
}

export interface ZoneDaemon {
  kind: DaemonKind;
  pid: number;
}

/** The NB, SB and northd pids of the lab's zones of `nodes` (per-node layout). */
export function zoneDaemons(lab: string, nodes: string[]): ZoneDaemon[] {
  const state = readState(lab);
  if (!state) throw new Error(`lab ${lab} has no state`);
  const kinds: Record<string, DaemonKind> = { nb: 'nb', sb: 'sb', 'ovn-northd': 'northd' };
  return state.daemons.flatMap((d) => {
    const [scope, node, what] = d.name.split('/');
    const pid = readPidFile(d.pidFile) ?? d.pid;
    if (scope !== 'zones' || !nodes.includes(node!) || pid === undefined || !kinds[what!]) return [];
    return [{ kind: kinds[what!]!, pid }];
  });
}

function serversCpu(daemons: ZoneDaemon[]): Record<DaemonKind, number> {
  const sum: Record<DaemonKind, number> = { nb: 0, sb: 0, northd: 0 };
  for (const d of daemons) sum[d.kind] += cpuSecondsOf(d.pid);
  return sum;
}

/** `body`'s wall time and the CPU it cost here and in the zones' daemons. */
export async function cpuSplit<T>(
  daemons: ZoneDaemon[],
  body: () => Promise<T>,
): Promise<{ split: CpuSplit; value: T }> {
  const servers = serversCpu(daemons);
  const ours = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = await body();
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(ours);
  const after = serversCpu(daemons);
  return {
    value,
    split: {
      wall,
      ours: (used.user + used.system) / 1e6,
      servers: { nb: after.nb - servers.nb, sb: after.sb - servers.sb, northd: after.northd - servers.northd },
    },
  };
}

/** One line for people: wall, ours, and the daemons' CPU. */
export function splitText({ wall, ours, servers }: CpuSplit): string {
  const f = (s: number) => s.toFixed(3);
  return `wall ${f(wall)} s, our CPU ${f(ours)} s, nb ${f(servers.nb)} s, sb ${f(servers.sb)} s, northd ${f(servers.northd)} s`;
}

export const serversOf = (split: CpuSplit): number => split.servers.nb + split.servers.sb + split.servers.northd;

/**
 * The most working on zones at once could gain from this CPU on an otherwise idle machine: at once,
 * our work stays on one thread and all of it shares the machine's cores, so the step takes at
 * least max(ours, everything / cores); one at a time took its measured wall, which is less than
 * our CPU and the servers' added up (our garbage collector's threads and the server answering a
 * round while we read the last run beside each other).
 */
export function cpuBound(one: CpuSplit, many: CpuSplit, cores = availableParallelism()): number {
  return one.wall / Math.max(many.ours, (many.ours + serversOf(many)) / cores);
}

/** How many cores one at a time kept busy: its CPU, ours and the servers', over its wall time. */
export const coresBusy = (split: CpuSplit): number => (split.ours + serversOf(split)) / split.wall;
