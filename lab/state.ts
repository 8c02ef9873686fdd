/**
 * The lab's state on disk: where labs live, the claim on a lab index (so concurrent `up`s of
 * different labs never pick the same addresses), and the state file that records every pid,
 * namespace, interface, mount and pod the lab creates, so `down` removes exactly those.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { failing } from './errors';
import { sleep } from './exec';
import { type LabLayout, MAX_INDEX, type OvnFlavor } from './layout';
import type { DaemonRecord } from './processes';

/** A pod the network code plugged into a node (recorded here so `pods`, `exec` and `down` see it). */
export interface PodRecord {
  /** Kubernetes namespace and name. */
  namespace: string;
  name: string;
  node: string;
  /** The pod's network namespace on this machine. */
  netns: string;
  [detail: string]: unknown;
}

export interface LabState {
  version: 1;
  name: string;
  index: number;
  ovn: OvnFlavor;
  phase: 'starting' | 'running';
  startedAt: string;
  /** The process that ran `up` (test runs use it to find labs left behind by a dead run). */
  ownerPid: number;
  layout: LabLayout;
  /** The debootstrapped root the daemons run from (trixie); absent for the host's OVN. */
  ovnRoot?: string;
  namespaces: string[];
  rootLinks: string[];
  mounts: string[];
  daemons: DaemonRecord[];
  hostKeyFingerprints: Record<string, string>;
  /** breth0's MAC per node, read from the node at `up` (absent in states of older labs). */
  gatewayMacs?: Record<string, string>;
  pods: PodRecord[];
}

/** Where every lab of this machine lives ($OVNK_LAB_DIR, else a directory under os.tmpdir()). */
export function labsRoot(): string {
  return process.env.OVNK_LAB_DIR ?? path.join(os.tmpdir(), 'ovnk-lab');
}

export const labDir = (name: string): string => path.join(labsRoot(), name);
const stateFile = (name: string): string => path.join(labDir(name), 'state.json');
const indexDir = (): string => path.join(labsRoot(), '.index');

export function readState(name: string): LabState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(name), 'utf8')) as LabState;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw failing(
      `the state of lab "${name}" (${stateFile(name)}) is unreadable: ${(error as Error).message}; remove that directory after checking nothing of it runs`,
    );
  }
}

export function writeState(state: LabState): void {
  const file = stateFile(state.name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** Read-modify-write under a lock, so concurrent writers (pods of several tests) do not lose updates. */
export async function updateState(name: string, change: (state: LabState) => void): Promise<LabState> {
  const lock = path.join(labDir(name), 'state.lock');
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 250)
        throw failing(`lab "${name}" state is locked (${lock}); remove it if no ovnk process runs`);
      await sleep(20);
    }
  }
  try {
    const state = readState(name);
    if (!state) throw failing(`lab "${name}" is not running: start it with "ovnk lab up --name ${name}"`);
    change(state);
    writeState(state);
    return state;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export function listLabNames(): string[] {
  try {
    return readdirSync(labsRoot())
      .filter((entry) => !entry.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

/** Claim the lowest free index atomically (mkdir either creates the claim or fails). */
export function claimIndex(name: string): number {
  mkdirSync(indexDir(), { recursive: true });
  for (let index = 1; index <= MAX_INDEX; index++) {
    try {
      mkdirSync(path.join(indexDir(), String(index)));
      writeFileSync(path.join(indexDir(), String(index), 'lab'), name);
      return index;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw failing(
    `all ${MAX_INDEX} lab indexes are taken: stop labs you no longer need with "ovnk lab down --name NAME"`,
  );
}

export function releaseIndex(index: number): void {
  rmSync(path.join(indexDir(), String(index)), { recursive: true, force: true });
}

export function removeLabDir(name: string): void {
  rmSync(labDir(name), { recursive: true, force: true });
}
