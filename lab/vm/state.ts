/**
 * The guest lab's record on disk (<labs root>/.vm/<name>/state.json): every qemu pid, port, key,
 * host-key fingerprint and host link it made, so `down` stops and removes exactly those, and
 * `status` reports the nodes like the netns lab's (ssh host, port, user, key path, fingerprint).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { badInput, failing } from '../errors';
import { labsRoot } from '../state';

export interface VmNodeRecord {
  name: string;
  pid: number;
  pidFile: string;
  console: string;
  sshPort: number;
  hostKeyFingerprint: string;
  /** eth1's address on the data segment (ADDR/PLEN), when the lab has one. */
  dataAddress?: string;
}

export interface VmLabState {
  version: 1;
  name: string;
  startedAt: string;
  dir: string;
  clientKeyPath: string;
  kernelVersion: string;
  nodes: VmNodeRecord[];
  /** Host links the data segment created (bridge first). */
  links: string[];
}

export const DEFAULT_VM_LAB = 'vm';

/** Lab names become link names (`ovm-<name>-t<i>` must fit 15 characters). */
export function checkVmLabName(name: string): string {
  if (!/^[a-z][a-z0-9]{0,6}$/.test(name))
    throw badInput(`vm lab name "${name}" is invalid: use 1 to 7 lowercase letters or digits, starting with a letter`);
  return name;
}

export function checkVmNodeCount(count: number): number {
  if (!Number.isInteger(count) || count < 1 || count > 8)
    throw badInput(`--vm-nodes ${count} is invalid: give a whole number from 1 to 8 (each guest takes about 800 MB)`);
  return count;
}

export const vmLabDir = (name: string): string => path.join(labsRoot(), '.vm', name);
const stateFile = (name: string): string => path.join(vmLabDir(name), 'state.json');

export function readVmState(name: string): VmLabState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(name), 'utf8')) as VmLabState;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw failing(`the state of vm lab "${name}" (${stateFile(name)}) is unreadable: ${(error as Error).message}`);
  }
}

export function writeVmState(state: VmLabState): void {
  const file = stateFile(state.name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
