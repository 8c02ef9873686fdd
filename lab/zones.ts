/**
 * The per-node (interconnect) zones, upstream's layout: per node its own Northbound and
 * Southbound ovsdb-server and ovn-northd (NB_Global `name` = the zone, which is the node's name);
 * the node's ovn-controller talks to its zone's Southbound and is marked `ovn-is-interconn` (else
 * it builds no tunnel to a remote chassis; lab/node.ts sets both); and in every zone's Southbound
 * the other nodes registered as remote chassis (`other_config:is-remote=true`, geneve to their
 * encap IP), as upstream's ovnkube-controller (zone_ic_handler) does.
 *
 * No ovn-ic daemon runs, as none runs under upstream's ovnkube-controller. Debian trixie ships one
 * (packages ovn-ic and ovn-ic-db, 25.03), and measured here with its own Interconnect databases
 * it deletes, within a second, every Logical_Switch carrying `other_config:interconn-ts` that the
 * Interconnect Northbound has no Transit_Switch for, with its ports: the transit switches and
 * Layer2 switches the per-node renderer writes with our owner marker, as upstream's own
 * controller writes them. Declaring them there instead would make ovn-ic create its own copies
 * and remote ports, owned by no one we can audit.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { failing } from './errors';
import { exec, inRoot, sleep } from './exec';
import { hasDataPlane, type LabLayout, type NodeLayout } from './layout';
import type { DaemonRecord } from './processes';
import { registeredChassis } from './readiness';

export interface ZoneEndpoints {
  /** The zone's name: the node's. */
  name: string;
  /** `unix:` endpoints of the zone's databases. */
  nb: string;
  sb: string;
}

export const zoneDir = (layout: LabLayout, node: NodeLayout): string => path.join(layout.dir, 'zones', node.name);
const socket = (dir: string, db: 'nb' | 'sb'): string => path.join(dir, `${db}.sock`);

export function zoneOf(layout: LabLayout, node: NodeLayout): ZoneEndpoints {
  const dir = zoneDir(layout, node);
  return { name: node.name, nb: `unix:${socket(dir, 'nb')}`, sb: `unix:${socket(dir, 'sb')}` };
}

export function zoneDaemons(layout: LabLayout, node: NodeLayout): DaemonRecord[] {
  const dir = zoneDir(layout, node);
  return [
    { name: `zones/${node.name}/ovn-northd`, program: 'ovn-northd', pidFile: path.join(dir, 'northd.pid') },
    { name: `zones/${node.name}/sb`, program: 'ovsdb-server', pidFile: path.join(dir, 'sb.pid') },
    { name: `zones/${node.name}/nb`, program: 'ovsdb-server', pidFile: path.join(dir, 'nb.pid') },
  ];
}

const daemonFlags = (dir: string, name: string): string[] => [
  `--pidfile=${path.join(dir, `${name}.pid`)}`,
  `--unixctl=${path.join(dir, `${name}.ctl`)}`,
  `--log-file=${path.join(dir, `${name}.log`)}`,
  '--detach',
  '--no-chdir',
];

/**
 * One of a zone's database servers; the database is created only when missing, so a server
 * stopped by hand starts again on its rows.
 */
export async function startZoneDb(
  root: string,
  layout: LabLayout,
  node: NodeLayout,
  db: 'nb' | 'sb',
  fresh = false,
): Promise<void> {
  const dir = zoneDir(layout, node);
  if (fresh)
    await exec(
      inRoot(root, ['ovsdb-tool', 'create', path.join(dir, `${db}.db`), `/usr/share/ovn/ovn-${db}.ovsschema`]),
    );
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
  await Promise.all([startZoneDb(root, layout, node, 'nb', true), startZoneDb(root, layout, node, 'sb', true)]);
  const init = [
    'ovn-nbctl',
    `--db=${zone.nb}`,
    '--no-wait',
    'init',
    '--',
    'set',
    'NB_Global',
    '.',
    `name=${node.name}`,
  ];
  await exec(inRoot(root, init));
  await runZoneNorthd(root, layout, node);
}

async function runZoneNorthd(root: string, layout: LabLayout, node: NodeLayout): Promise<void> {
  const zone = zoneOf(layout, node);
  const flags = daemonFlags(zoneDir(layout, node), 'northd');
  await exec(inRoot(root, ['ovn-northd', `--ovnnb-db=${zone.nb}`, `--ovnsb-db=${zone.sb}`, ...flags]));
}

/** How to start each zone daemon again on its existing database, by the daemon's name (lab/restart.ts). */
export function zoneStarters(layout: LabLayout, root: string): Map<string, () => Promise<void>> {
  return new Map(
    layout.nodes.flatMap((node) => [
      [`zones/${node.name}/ovn-northd`, () => runZoneNorthd(root, layout, node)] as const,
      [`zones/${node.name}/sb`, () => startZoneDb(root, layout, node, 'sb')] as const,
      [`zones/${node.name}/nb`, () => startZoneDb(root, layout, node, 'nb')] as const,
    ]),
  );
}

/** The other nodes as remote chassis of this zone, in one transaction (upstream: zone_ic_handler's remote chassis). */
async function addRemoteChassis(root: string, layout: LabLayout, node: NodeLayout): Promise<void> {
  const others = layout.nodes.filter((n) => n !== node);
  if (others.length === 0) return;
  const commands = others.flatMap((other) => [
    '--',
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
  ]);
  await exec(inRoot(root, ['ovn-sbctl', `--db=${zoneOf(layout, node).sb}`, ...commands]));
}

/** Every zone: databases, northd and the remote chassis (the nodes' own chassis register when they start). */
export async function startZones(layout: LabLayout, root: string): Promise<void> {
  await Promise.all(
    layout.nodes.map(async (node) => {
      await startZone(root, layout, node);
      await addRemoteChassis(root, layout, node);
    }),
  );
}

async function waitForZoneChassis(root: string, layout: LabLayout, node: NodeLayout, deadline: number): Promise<void> {
  const sb = zoneOf(layout, node).sb.slice('unix:'.length);
  const expected = hasDataPlane(layout) ? layout.nodes.length : layout.nodes.length - 1;
  for (;;) {
    const present = await registeredChassis(sb, root);
    if (present.size === expected && (!hasDataPlane(layout) || present.has(node.chassisId))) return;
    if (Date.now() > deadline)
      throw failing(
        `zone ${node.name}: chassis ${node.chassisId} did not register in its Southbound; see ${path.join(node.logDir, 'ovn-controller.log')}`,
      );
    await sleep(20);
  }
}

/** Until every zone's Southbound holds its node's chassis and the others as remote ones. */
export async function waitForZones(layout: LabLayout, root: string, deadline: number): Promise<void> {
  await Promise.all(layout.nodes.map((node) => waitForZoneChassis(root, layout, node, deadline)));
}
