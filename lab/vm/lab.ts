/**
 * The optional lab of QEMU guest nodes (a real Debian kernel, where VRF, VLAN and dummy devices
 * work): `vmUp` builds the cached image if needed, makes a client key and per-node host keys,
 * boots the guests at once and waits for each to answer SSH with its pinned key; `vmDown` stops the
 * recorded qemu pids and removes the recorded host links and the lab's directory; `vmStatus` reports
 * every node's SSH settings in the shape the netns lab uses.
 */
import { mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { SshTarget } from '../../provider/host';
import { refused } from '../errors';
import { stopDaemons } from '../processes';
import { generateKey } from '../sshd';
import { freeLoopbackPort, QEMU, startGuest, waitForSsh } from './guest';
import { ensureImage } from './image';
import { buildOverlay, composeInitrd } from './overlay';
import { createSegment, dataAddress, dataMac, deleteLinks, tapName } from './segment';
import {
  checkVmLabName,
  checkVmNodeCount,
  readVmState,
  type VmLabState,
  type VmNodeRecord,
  vmLabDir,
  writeVmState,
} from './state';

export interface VmUpOptions {
  name?: string;
  nodes: number;
  /** Also create the tap data segment (guests' eth1 on a host bridge). */
  data?: boolean;
  bootTimeoutMs?: number;
  progress?: (message: string) => void;
}

export interface VmNodeStatus {
  name: string;
  ssh: { host: string; port: number; user: string; keyPath: string; hostKeyFingerprint: string };
  pid: number;
  console: string;
  dataAddress?: string;
}

export interface VmLabStatus {
  name: string;
  kernelVersion: string;
  dir: string;
  nodes: VmNodeStatus[];
}

export const vmNodeName = (lab: string, index: number): string => `${lab}-n${index}`;

export async function vmUp(options: VmUpOptions): Promise<VmLabStatus> {
  const name = checkVmLabName(options.name ?? 'vm');
  const count = checkVmNodeCount(options.nodes);
  if (readVmState(name)) throw refused(`vm lab "${name}" exists: stop it first with "ovnk lab vm down --name ${name}"`);
  const image = await ensureImage(options.progress);
  const dir = vmLabDir(name);
  mkdirSync(dir, { recursive: true });
  const state: VmLabState = {
    version: 1,
    name,
    startedAt: new Date().toISOString(),
    dir,
    clientKeyPath: path.join(dir, 'client_key'),
    kernelVersion: image.kernelVersion,
    nodes: [],
    links: [],
  };
  writeVmState(state);
  try {
    await generateKey(state.clientKeyPath, `ovnk-vm-${name}`);
    if (options.data) state.links = await createSegment(name, count);
    writeVmState(state);
    for (let i = 1; i <= count; i++) await bootNode(state, image, i, options.data === true);
    options.progress?.(`waiting for ${count} guest(s) to answer SSH`);
    await Promise.all(
      state.nodes.map((node) =>
        waitForSsh(vmTarget(state, node), node.pid, options.bootTimeoutMs ?? 90_000, node.console),
      ),
    );
  } catch (error) {
    await vmDown(name);
    throw error;
  }
  return vmStatusOf(state);
}

/** Build the node's initrd, start its qemu and record it at once (so a failure later still stops it). */
async function bootNode(
  state: VmLabState,
  image: { vmlinux: string; baseCpio: string },
  index: number,
  data: boolean,
): Promise<void> {
  const name = vmNodeName(state.name, index);
  const nodeDir = path.join(state.dir, name);
  mkdirSync(nodeDir, { recursive: true });
  const overlay = await buildOverlay(nodeDir, `${state.clientKeyPath}.pub`, name);
  const initrd = path.join(nodeDir, 'initrd');
  await composeInitrd(image.baseCpio, overlay.cpio, initrd);
  rmSync(overlay.cpio);
  const sshPort = await freeLoopbackPort();
  const boot = {
    name,
    vmlinux: image.vmlinux,
    initrd,
    sshPort,
    console: path.join(nodeDir, 'console.log'),
    pidFile: path.join(nodeDir, 'qemu.pid'),
    ...(data ? { data: { tap: tapName(state.name, index), mac: dataMac(index), address: dataAddress(index) } } : {}),
  };
  const pid = startGuest(boot);
  const record: VmNodeRecord = {
    name,
    pid,
    pidFile: boot.pidFile,
    console: boot.console,
    sshPort,
    hostKeyFingerprint: overlay.fingerprint,
    ...(data ? { dataAddress: dataAddress(index) } : {}),
  };
  state.nodes.push(record);
  writeVmState(state);
}

/** The SSH target of a guest node: loopback port, root, the lab's key, the pinned host key. */
export function vmTarget(
  state: { clientKeyPath: string },
  node: { sshPort: number; hostKeyFingerprint: string },
): SshTarget {
  return {
    host: '127.0.0.1',
    port: node.sshPort,
    user: 'root',
    keyPath: state.clientKeyPath,
    hostKey: { fingerprint: node.hostKeyFingerprint },
  };
}

export function vmStatusOf(state: VmLabState): VmLabStatus {
  return {
    name: state.name,
    kernelVersion: state.kernelVersion,
    dir: state.dir,
    nodes: state.nodes.map((node) => ({
      name: node.name,
      ssh: {
        host: '127.0.0.1',
        port: node.sshPort,
        user: 'root',
        keyPath: state.clientKeyPath,
        hostKeyFingerprint: node.hostKeyFingerprint,
      },
      pid: node.pid,
      console: node.console,
      ...(node.dataAddress ? { dataAddress: node.dataAddress } : {}),
    })),
  };
}

export function vmStatus(name = 'vm'): VmLabStatus | undefined {
  const state = readVmState(checkVmLabName(name));
  return state && vmStatusOf(state);
}

/**
 * Stop the recorded guests (by pid, only while it still runs qemu), delete the recorded links and
 * the lab's directory.
 */
export async function vmDown(name = 'vm'): Promise<{ stopped: number }> {
  const state = readVmState(checkVmLabName(name));
  if (!state) return { stopped: 0 };
  await stopDaemons(
    state.nodes.map((node) => ({ name: node.name, program: QEMU, pidFile: node.pidFile, pid: node.pid })),
  );
  await deleteLinks(state.links);
  rmSync(state.dir, { recursive: true, force: true });
  return { stopped: state.nodes.length };
}
