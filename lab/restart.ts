/**
 * Each daemon's health, and starting dead ones again without rebuilding the lab (`ovnk lab status`,
 * `ovnk lab restart`). A daemon is up while its recorded pid runs the program the lab started
 * (processes.ts: a zombie or a reused pid is down). The control plane (Northbound and Southbound
 * servers, members of a clustered Northbound, northd) starts again on its existing database, so
 * no row is lost; a node's sshd starts again in the node's namespace (its host key is kept, so pins
 * hold); the node's OVS and ovn-controller are not restartable here: a lab that lost one is rebuilt
 * with `ovnk lab down` and `ovnk lab up`.
 */
import { centralStarters } from './central';
import { refused } from './errors';
import { sleep } from './exec';
import { hasDataPlane, zoneLayoutOf } from './layout';
import { isRunning, pidOf, runsProgram, startingSince, ticksSinceBoot, type DaemonRecord } from './processes';
import { startSshd } from './sshd';
import type { LabState } from './state';
import { zoneStarters } from './zones';

export interface DaemonHealth {
  name: string;
  up: boolean;
  /** The recorded pid (absent when no pid file was written). */
  pid?: number;
  /** Whether `ovnk lab restart` can start it again. */
  restartable: boolean;
}

export interface RestartResult {
  name: string;
  /** The daemons started again, in order. */
  restarted: string[];
  health: DaemonHealth[];
}

function starters(state: LabState): Map<string, () => Promise<void>> {
  const { layout, ovnRoot } = state;
  const control =
    zoneLayoutOf(layout) === 'per-node' ? zoneStarters(layout, ovnRoot!) : centralStarters(layout, ovnRoot);
  const sshds = hasDataPlane(layout)
    ? layout.nodes.map((node) => [`${node.name}/sshd`, () => startSshd(layout, node, ovnRoot)] as const)
    : [];
  return new Map([...control, ...sshds]);
}

function isUp(daemon: DaemonRecord): { up: boolean; pid?: number } {
  const pid = pidOf(daemon);
  if (pid === undefined) return { up: false };
  return { up: isRunning(pid) && runsProgram(pid, daemon.program), pid };
}

export function daemonHealth(state: LabState): DaemonHealth[] {
  const restartable = starters(state);
  return state.daemons.map((d) => ({ name: d.name, ...isUp(d), restartable: restartable.has(d.name) }));
}

/**
 * Until the daemon's pid file names a running process of its program (a detached daemon writes it
 * late), for as long as a process of that program started since `sinceTicks` for this lab still
 * runs: a loaded machine makes the wait longer, a daemon that died ends it at once.
 */
async function waitUp(daemon: DaemonRecord, labDir: string, sinceTicks: number): Promise<void> {
  while (!isUp(daemon).up) {
    if (!startingSince(daemon.program, labDir, sinceTicks) && !isUp(daemon).up)
      throw refused(`${daemon.name} did not come up again: it exited while starting (see its log)`);
    await sleep(20);
  }
}

/**
 * Starts every dead daemon again, on its existing database; refuses before starting anything when
 * a dead daemon cannot be restarted here (see the header).
 */
export async function restartDead(state: LabState): Promise<RestartResult> {
  const start = starters(state);
  const dead = state.daemons.filter((d) => !isUp(d).up);
  const stuck = dead.filter((d) => !start.has(d.name)).map((d) => d.name);
  if (stuck.length > 0)
    throw refused(
      `lab "${state.name}": ${stuck.join(', ')} cannot be restarted on its own: rebuild the lab with "ovnk lab down --name ${state.name}" and "ovnk lab up"`,
    );
  // databases before northd, which connects to them
  const ordered = [...dead].sort((a, b) => Number(a.program === 'ovn-northd') - Number(b.program === 'ovn-northd'));
  for (const daemon of ordered) {
    const since = ticksSinceBoot();
    await start.get(daemon.name)!();
    await waitUp(daemon, state.layout.dir, since);
  }
  return { name: state.name, restarted: ordered.map((d) => d.name), health: daemonHealth(state) };
}
