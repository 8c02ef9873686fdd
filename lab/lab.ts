/**
 * The embedded lab's life cycle: `up` (fabric, the zones' NB/SB/northd: one per node in the
 * per-node layout, one central set otherwise, N nodes, ready when every sshd answers and every
 * chassis is registered where its zone expects it), `down` (exactly what the state file records, pods
 * included; safe when nothing runs), and reading a running lab's status.
 */
import { mkdirSync } from 'node:fs';
import { DEFAULT_LAYOUT } from '../provider/model/zones';
import { centralDaemons, centralSocket, createFabric, startCentral } from './central';
import { badInput, refused } from './errors';
import {
  checkLabName,
  checkNodeCount,
  checkOvnFlavor,
  checkZoneLayout,
  hasDataPlane,
  type LabLayout,
  labLayout,
  type OvnFlavor,
  type ZoneLayout,
  zoneLayoutOf,
} from './layout';
import { checkNbMembers } from './nbCluster';
import { nodeDaemons, startNode } from './node';
import { checkPrerequisites } from './preflight';
import { isRunning, pidOf } from './processes';
import { waitForChassis, waitForSsh } from './readiness';
import { createClientKey, fingerprintOfPublicKeyFile, generateKey } from './sshd';
import {
  claimIndex,
  labDir,
  labsRoot,
  type LabState,
  readState,
  releaseIndex,
  removeLabDir,
  writeState,
} from './state';
import { type LabStatus, statusOf } from './status';
import { teardown } from './teardown';
import { mountOvnRoot, prepareOvnRoot } from './trixie';
import { provisionUplinkSegments, provisionUplinks } from './uplinks';
import { startZones, waitForZones, zoneDaemons } from './zones';

export const DEFAULT_LAB_NAME = 'lab';
export const DEFAULT_OVN: OvnFlavor = 'trixie';
/** The lab's default zone layout is the model's (upstream's only layout). */
export { DEFAULT_LAYOUT as DEFAULT_ZONES };

export interface UpOptions {
  name: string;
  nodes: number;
  ovn: OvnFlavor;
  /** per-node (the default, upstream's) or central. */
  zones?: ZoneLayout;
  /** false: only the zones' databases and northd, no node data plane (large control-plane labs). */
  dataPlane?: boolean;
  /** Progress lines for people. */
  progress?: (message: string) => void;
  readyTimeoutMs?: number;
  /** Also provision the Uplink bridges (lab/uplinks.ts). */
  uplinks?: boolean;
  /** Members of the central Northbound: more than 1 makes it a RAFT cluster (nbCluster.ts). */
  nbMembers?: number;
}

export interface UpResult {
  status: LabStatus;
  alreadyRunning: boolean;
  seconds: number;
}

/** True when every daemon the state records still runs (zombies count as stopped). */
export function labAlive(state: LabState): boolean {
  return (
    state.phase === 'running' &&
    state.daemons.every((d) => {
      const pid = pidOf(d);
      return pid !== undefined && isRunning(pid);
    })
  );
}

export function labStatus(name: string): LabStatus | undefined {
  const state = readState(name);
  return state ? statusOf(state, state.ovnRoot) : undefined;
}

function controlDaemons(layout: LabLayout) {
  return layout.zones === 'per-node' ? layout.nodes.flatMap((n) => zoneDaemons(layout, n)) : centralDaemons(layout);
}

function initialState(layout: LabLayout, ovnRoot: string | undefined): LabState {
  const nodes = hasDataPlane(layout) ? layout.nodes : [];
  return {
    version: 1,
    name: layout.name,
    index: layout.index,
    ovn: layout.ovn,
    phase: 'starting',
    startedAt: new Date().toISOString(),
    ownerPid: process.pid,
    layout,
    ...(ovnRoot ? { ovnRoot } : {}),
    namespaces: [layout.fabricNamespace, ...nodes.map((n) => n.namespace)],
    rootLinks: [layout.hostLink],
    mounts: [],
    daemons: [...nodes.flatMap(nodeDaemons), ...controlDaemons(layout)],
    hostKeyFingerprints: {},
    pods: [],
  };
}

async function createKeys(layout: LabLayout): Promise<Record<string, string>> {
  await Promise.all([
    createClientKey(layout),
    ...layout.nodes.map((n) => generateKey(n.hostKeyPath, `${n.name}@ovnk-lab-${layout.name}`)),
  ]);
  return Object.fromEntries(layout.nodes.map((n) => [n.name, fingerprintOfPublicKeyFile(`${n.hostKeyPath}.pub`)]));
}

/** The central NB/SB/northd (after the fabric: they listen on its address), or every zone's. */
async function startControl(layout: LabLayout, root: string | undefined): Promise<void> {
  await createFabric(layout);
  if (layout.zones === 'per-node') await startZones(layout, root!);
  else await startCentral(layout, root);
}

async function waitForChassisOf(layout: LabLayout, root: string | undefined, deadline: number): Promise<void> {
  if (layout.zones === 'per-node') return waitForZones(layout, root!, deadline);
  if (!hasDataPlane(layout)) return;
  const ids = layout.nodes.map((n) => n.chassisId);
  return waitForChassis(centralSocket(layout, 'sb'), root, ids, deadline);
}

async function startNodes(layout: LabLayout, state: LabState, timeoutMs: number): Promise<void> {
  const root = state.ovnRoot;
  const started = await Promise.all(layout.nodes.map((node) => startNode(layout, node, root)));
  state.gatewayMacs = Object.fromEntries(layout.nodes.map((node, i) => [node.name, started[i]!.gatewayMac]));
  writeState(state);
  const deadline = Date.now() + timeoutMs;
  await Promise.all(layout.nodes.map((n) => waitForSsh(n.mgmtIp, 22, deadline, `${n.logDir}/sshd.log`)));
}

/**
 * Each wait's clock starts when that wait does (starting many nodes on a busy machine takes its
 * own time, which must not use up the wait for their sshd or their chassis).
 */
async function bringUp(layout: LabLayout, state: LabState, timeoutMs: number): Promise<void> {
  const root = state.ovnRoot;
  const dataPlane = hasDataPlane(layout);
  const [fingerprints] = await Promise.all([dataPlane ? createKeys(layout) : {}, startControl(layout, root)]);
  state.hostKeyFingerprints = fingerprints;
  writeState(state);
  if (dataPlane) await startNodes(layout, state, timeoutMs);
  await waitForChassisOf(layout, root, Date.now() + timeoutMs);
}

/**
 * A running lab of the same OVN is reported; another OVN, or zones other than the ones asked for
 * explicitly, are refused; a dead one is cleaned first.
 */
async function checkExisting(options: UpOptions): Promise<LabStatus | undefined> {
  const existing = readState(options.name);
  if (!existing) return undefined;
  const zones = zoneLayoutOf(existing.layout);
  const other =
    existing.ovn !== options.ovn
      ? `the ${existing.ovn} OVN`
      : options.zones !== undefined && zones !== options.zones
        ? `${zones} zones`
        : undefined;
  if (other && labAlive(existing)) {
    throw refused(
      `lab "${options.name}" is already running with ${other}: run "ovnk lab down --name ${options.name}" first, or use another --name`,
    );
  }
  if (labAlive(existing)) return statusOf(existing, existing.ovnRoot);
  options.progress?.(`lab "${options.name}": a previous run left parts behind; removing them`);
  await teardown(existing);
  return undefined;
}

/** Per-node zones need the trixie OVN (remote router ports); a clustered Northbound is the central one. */
function checkZonesOvn(options: UpOptions, zones: ZoneLayout): void {
  if (zones === 'per-node' && (options.nbMembers ?? 1) > 1)
    throw badInput('--nb-members applies to the central Northbound: use --zones central');
  if (zones === 'per-node' && options.ovn !== 'trixie')
    throw badInput(
      `--zones per-node needs the trixie OVN (northd ${options.ovn === 'bookworm' ? '23.03' : options.ovn} ignores requested-chassis on remote router ports): use --ovn trixie, or --zones central`,
    );
}

export async function up(options: UpOptions): Promise<UpResult> {
  const started = Date.now();
  checkLabName(options.name);
  checkNodeCount(options.nodes);
  checkOvnFlavor(options.ovn);
  if (options.nbMembers !== undefined) checkNbMembers(options.nbMembers);
  const zones = checkZoneLayout(options.zones ?? DEFAULT_LAYOUT);
  checkPrerequisites();
  const running = await checkExisting(options);
  if (running) return { status: running, alreadyRunning: true, seconds: 0 };
  checkZonesOvn(options, zones);
  mkdirSync(labsRoot(), { recursive: true });
  try {
    mkdirSync(labDir(options.name), { recursive: false });
  } catch {
    throw refused(
      `lab "${options.name}" is being started or stopped by another process (${labDir(options.name)} exists): wait, or run "ovnk lab down --name ${options.name}"`,
    );
  }
  const index = claimIndex(options.name);
  const layout = labLayout({
    name: options.name,
    index,
    nodes: options.nodes,
    ovn: options.ovn,
    zones,
    dataPlane: options.dataPlane ?? true,
    ...(options.nbMembers === undefined ? {} : { nbMembers: options.nbMembers }),
    dir: labDir(options.name),
  });
  let state: LabState | undefined;
  try {
    const ovnRoot = await prepareOvnRoot(options.ovn, options.progress);
    state = initialState(layout, ovnRoot);
    writeState(state);
    if (ovnRoot) await mountOvnRoot(ovnRoot);
    options.progress?.(
      `lab "${options.name}": starting ${options.nodes} node(s) with the ${options.ovn} OVN, ${zones} zones${layout.dataPlane ? '' : ', no data plane'}`,
    );
    await bringUp(layout, state, options.readyTimeoutMs ?? 30_000);
    if (options.uplinks && layout.dataPlane) {
      await provisionUplinkSegments(layout);
      const macs = state.gatewayMacs ?? {};
      await Promise.all(layout.nodes.map((node) => provisionUplinks(layout, node, ovnRoot, macs[node.name]!)));
    }
    state.phase = 'running';
    writeState(state);
    return { status: statusOf(state, ovnRoot), alreadyRunning: false, seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    if (state) await teardown(state);
    else {
      releaseIndex(index);
      removeLabDir(options.name);
    }
    throw error;
  }
}

export interface DownResult {
  name: string;
  stopped: boolean;
}

export async function down(name: string): Promise<DownResult> {
  const state = readState(name);
  if (!state) {
    // a crash between claiming the directory and writing the state leaves only the directory
    removeLabDir(name);
    return { name, stopped: false };
  }
  await teardown(state);
  return { name, stopped: true };
}
