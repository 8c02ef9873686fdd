/**
 * The per-node (interconnect) layout on top of a running trixie lab: per node its own Northbound
 * and Southbound ovsdb-server and ovn-northd (NB_Global `name` = the zone, which is the node's
 * name), the node's ovn-controller moved to its zone's Southbound and marked `ovn-is-interconn`
 * (else it builds no tunnel to a remote chassis), and in every zone's Southbound
 * the other nodes registered as remote chassis (`other_config:is-remote=true`, geneve to their
 * encap IP), as upstream's ovnkube-controller does. The daemons are recorded in the lab's state
 * before they start, so `ovnk lab down` stops them by pid with the rest of the lab.
 *
 * No ovn-ic daemon runs (upstream's ovnkube-controller runs none either): by its code (ts_run,
 * port_binding_run; not measured here) ovn-ic owns every Logical_Switch carrying `other_config:interconn-ts`
 * (it deletes those without an OVN_IC_Northbound Transit_Switch of that name and creates its
 * own copies of those with one) and every `remote` port on them, which are exactly the rows the
 * per-node renderer writes with our owner marker.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { failing } from '../errors';
import { exec, inNamespace, inRoot, sleep } from '../exec';
import type { LabLayout, NodeLayout } from '../layout';
import { nodeDbSocket } from '../node';
import type { DaemonRecord } from '../processes';
import { registeredChassis } from '../readiness';
import { readState, updateState } from '../state';

export interface InterconnectZone {
  /** The zone's name: the node's. */
  name: string;
  /** `unix:` endpoints of the zone's databases. */
  nb: string;
  sb: string;
}

const zoneDir = (layout: LabLayout, node: NodeLayout): string => path.join(layout.dir, 'ic', node.name);
const socket = (dir: string, db: 'nb' | 'sb'): string => path.join(dir, `${db}.sock`);

export function zoneOf(layout: LabLayout, node: NodeLayout): InterconnectZone {
  const dir = zoneDir(layout, node);
  return { name: node.name, nb: `unix:${socket(dir, 'nb')}`, sb: `unix:${socket(dir, 'sb')}` };
}

export function zoneDaemons(layout: LabLayout, node: NodeLayout): DaemonRecord[] {
  const dir = zoneDir(layout, node);
  return [
    { name: `ic/${node.name}/ovn-northd`, program: 'ovn-northd', pidFile: path.join(dir, 'northd.pid') },
    { name: `ic/${node.name}/sb`, program: 'ovsdb-server', pidFile: path.join(dir, 'sb.pid') },
    { name: `ic/${node.name}/nb`, program: 'ovsdb-server', pidFile: path.join(dir, 'nb.pid') },
  ];
}

const daemonFlags = (dir: string, name: string): string[] => [
  `--pidfile=${path.join(dir, `${name}.pid`)}`,
  `--unixctl=${path.join(dir, `${name}.ctl`)}`,
  `--log-file=${path.join(dir, `${name}.log`)}`,
  '--detach',
  '--no-chdir',
];

async function startDb(root: string, dir: string, db: 'nb' | 'sb'): Promise<void> {
  await exec(inRoot(root, ['ovsdb-tool', 'create', path.join(dir, `${db}.db`), `/usr/share/ovn/ovn-${db}.ovsschema`]));
  await exec(
    inRoot(root, [
      'ovsdb-server',
      path.join(dir, `${db}.db`),
      `--remote=punix:${socket(dir, db)}`,
      ...daemonFlags(dir, db),
    ]),
  );
}

/** NB and SB of one zone, NB_Global named after the zone, then its northd. */
async function startZone(root: string, layout: LabLayout, node: NodeLayout): Promise<void> {
  const dir = zoneDir(layout, node);
  const zone = zoneOf(layout, node);
  mkdirSync(dir, { recursive: true });
  await Promise.all([startDb(root, dir, 'nb'), startDb(root, dir, 'sb')]);
  await exec(
    inRoot(root, [
      'ovn-nbctl',
      `--db=${zone.nb}`,
      '--no-wait',
      'init',
      '--',
      'set',
      'NB_Global',
      '.',
      `name=${node.name}`,
    ]),
  );
  await exec(
    inRoot(root, ['ovn-northd', `--ovnnb-db=${zone.nb}`, `--ovnsb-db=${zone.sb}`, ...daemonFlags(dir, 'northd')]),
  );
}

/** The other nodes as remote chassis of this zone (upstream: zone_ic_handler's remote chassis). */
async function addRemoteChassis(root: string, layout: LabLayout, node: NodeLayout): Promise<void> {
  const sb = zoneOf(layout, node).sb;
  for (const other of layout.nodes.filter((n) => n !== node)) {
    await exec(
      inRoot(root, [
        'ovn-sbctl',
        `--db=${sb}`,
        'chassis-add',
        other.chassisId,
        'geneve',
        other.encapIp,
        '--',
        'set',
        'Chassis',
        other.chassisId,
        `hostname=${other.name}`,
        'other_config:is-remote=true',
      ]),
    );
  }
}

/** ovn-controller tunnels to remote chassis only from a chassis marked as interconnect. */
async function moveController(root: string, layout: LabLayout, node: NodeLayout): Promise<void> {
  const vsctl = [
    'ovs-vsctl',
    `--db=unix:${nodeDbSocket(node)}`,
    'set',
    'Open_vSwitch',
    '.',
    `external_ids:ovn-remote=${zoneOf(layout, node).sb}`,
    'external_ids:ovn-is-interconn=true',
  ];
  await exec(inNamespace(node.namespace, inRoot(root, vsctl)));
}

async function waitForLocalChassis(root: string, layout: LabLayout, node: NodeLayout, deadline: number): Promise<void> {
  const sb = zoneOf(layout, node).sb.slice('unix:'.length);
  for (;;) {
    const present = await registeredChassis(sb, root);
    if (present.has(node.chassisId) && present.size === layout.nodes.length) return;
    if (Date.now() > deadline)
      throw failing(
        `zone ${node.name}: chassis ${node.chassisId} did not register in its Southbound; see ${path.join(node.logDir, 'ovn-controller.log')}`,
      );
    await sleep(20);
  }
}

/** Turn the running trixie lab `labName` into the per-node layout; returns each zone's endpoints. */
export async function startInterconnect(labName: string, timeoutMs = 30_000): Promise<InterconnectZone[]> {
  const state = readState(labName);
  if (!state || state.phase !== 'running')
    throw failing(`lab "${labName}" is not running: start it with "ovnk lab up --name ${labName}"`);
  const root = state.ovnRoot;
  if (!root)
    throw failing(
      `lab "${labName}" runs the bookworm OVN: the per-node layout needs the trixie OVN (remote router ports)`,
    );
  const { layout } = state;
  await updateState(labName, (s) => {
    s.daemons = [
      ...layout.nodes.flatMap((n) => zoneDaemons(layout, n)),
      ...s.daemons.filter((d) => !d.name.startsWith('ic/')),
    ];
  });
  await Promise.all(layout.nodes.map((node) => startZone(root, layout, node)));
  await Promise.all(layout.nodes.map((node) => addRemoteChassis(root, layout, node)));
  await Promise.all(layout.nodes.map((node) => moveController(root, layout, node)));
  const deadline = Date.now() + timeoutMs;
  await Promise.all(layout.nodes.map((node) => waitForLocalChassis(root, layout, node, deadline)));
  return layout.nodes.map((node) => zoneOf(layout, node));
}
