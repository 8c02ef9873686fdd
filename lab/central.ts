/**
 * The lab's shared parts: the fabric (a namespace with a Linux bridge that every node's mgmt and
 * underlay veth joins, plus one veth into the root namespace carrying the central address), and
 * the central Northbound (standalone, or a RAFT cluster: nbCluster.ts) and Southbound ovsdb-servers
 * (unix and tcp) and ovn-northd. Each daemon can be started again on its existing database
 * (centralStarters, used by lab/restart.ts).
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { exec, inNamespace, inRoot, ipBatch } from './exec';
import { type LabLayout, UNDERLAY6_PREFIX, underlayGateway6 } from './layout';
import {
  createNbCluster,
  isNbClustered,
  nbClusterRemotes,
  nbMemberDaemons,
  nbMembers,
  startNbMember,
} from './nbCluster';
import type { DaemonRecord } from './processes';

export async function createFabric(layout: LabLayout): Promise<void> {
  const fabric = layout.fabricNamespace;
  await exec(['ip', 'netns', 'add', fabric]);
  await ipBatch(
    [
      'link set lo up',
      'link add br0 type bridge',
      `addr add ${layout.underlayGateway}/24 dev br0`,
      // the IPv6 underlay: the fabric answers the nodes' IPv6 egress as it does their IPv4
      `addr add ${underlayGateway6(layout)}/${UNDERLAY6_PREFIX} dev br0 nodad`,
      'link set br0 up',
    ],
    fabric,
  );
  await ipBatch([
    `link add ${layout.hostLink} type veth peer name host netns ${fabric}`,
    `addr add ${layout.centralIp}/${layout.mgmtPrefix} dev ${layout.hostLink}`,
    `link set ${layout.hostLink} up`,
  ]);
  await ipBatch(['link set host master br0 up'], fabric);
  // the fabric's own TCP (a host beyond the nodes' gateways) crosses breth0's userspace
  // datapath, which passes a partial checksum on: TX checksum offload off, as for pods
  await exec(inNamespace(fabric, ['ethtool', '-K', 'br0', 'tx', 'off']));
}

export const centralSocket = (layout: LabLayout, db: 'nb' | 'sb'): string => path.join(layout.centralDir, `${db}.sock`);

export function centralDaemons(layout: LabLayout): DaemonRecord[] {
  const c = layout.centralDir;
  return [
    { name: 'central/ovn-northd', program: 'ovn-northd', pidFile: path.join(c, 'northd.pid') },
    { name: 'central/sb', program: 'ovsdb-server', pidFile: path.join(c, 'sb.pid') },
    ...(isNbClustered(layout)
      ? nbMemberDaemons(layout)
      : [{ name: 'central/nb', program: 'ovsdb-server', pidFile: path.join(c, 'nb.pid') }]),
  ];
}

/** The Northbound's `unix:` remote as northd and ovn-nbctl take it: every member of a cluster. */
export const centralNbRemote = (layout: LabLayout): string =>
  isNbClustered(layout) ? nbClusterRemotes(layout, 'unix') : `unix:${centralSocket(layout, 'nb')}`;

function centralEnv(layout: LabLayout): NodeJS.ProcessEnv {
  const c = layout.centralDir;
  return { OVS_RUNDIR: c, OVS_LOGDIR: c, OVS_DBDIR: c, OVN_RUNDIR: c, OVN_LOGDIR: c, OVN_DBDIR: c };
}

async function createDb(layout: LabLayout, root: string | undefined, db: 'nb' | 'sb'): Promise<void> {
  const schema = `/usr/share/ovn/ovn-${db}.ovsschema`;
  const file = path.join(layout.centralDir, `${db}.db`);
  await exec(inRoot(root, ['ovsdb-tool', 'create', file, schema]), { env: centralEnv(layout) });
}

/** A standalone database server on its file (new, or left by a stopped server). */
async function runDbServer(layout: LabLayout, root: string | undefined, db: 'nb' | 'sb'): Promise<void> {
  const c = layout.centralDir;
  const port = db === 'nb' ? layout.nbPort : layout.sbPort;
  await exec(
    inRoot(root, [
      'ovsdb-server',
      path.join(c, `${db}.db`),
      `--remote=punix:${centralSocket(layout, db)}`,
      `--remote=ptcp:${port}:${layout.centralIp}`,
      `--pidfile=${path.join(c, `${db}.pid`)}`,
      `--unixctl=${path.join(c, `${db}.ctl`)}`,
      `--log-file=${path.join(c, `${db}.log`)}`,
      '--detach',
      '--no-chdir',
    ]),
    { env: centralEnv(layout) },
  );
}

async function startNorthbound(layout: LabLayout, root: string | undefined): Promise<void> {
  if (!isNbClustered(layout)) {
    await createDb(layout, root, 'nb');
    return runDbServer(layout, root, 'nb');
  }
  await createNbCluster(layout, root);
  await Promise.all(nbMembers(layout).map((member) => startNbMember(layout, root, member)));
}

async function runNorthd(layout: LabLayout, root: string | undefined): Promise<void> {
  const c = layout.centralDir;
  await exec(
    inRoot(root, [
      'ovn-northd',
      `--ovnnb-db=${centralNbRemote(layout)}`,
      `--ovnsb-db=unix:${centralSocket(layout, 'sb')}`,
      `--pidfile=${path.join(c, 'northd.pid')}`,
      `--unixctl=${path.join(c, 'northd.ctl')}`,
      `--log-file=${path.join(c, 'northd.log')}`,
      '--detach',
      '--no-chdir',
    ]),
    { env: centralEnv(layout) },
  );
}

/**
 * NB and SB servers, `init` of NB_Global (on the leader of a cluster), then northd. `root` runs
 * them from another root (trixie).
 */
export async function startCentral(layout: LabLayout, root: string | undefined): Promise<void> {
  mkdirSync(layout.centralDir, { recursive: true });
  await Promise.all([
    startNorthbound(layout, root),
    createDb(layout, root, 'sb').then(() => runDbServer(layout, root, 'sb')),
  ]);
  const init = ['ovn-nbctl', `--db=${centralNbRemote(layout)}`, '--timeout=30', '--no-wait', 'init'];
  await exec(inRoot(root, init), { env: centralEnv(layout) });
  await runNorthd(layout, root);
}

/** How to start each central daemon again on its existing database, by the daemon's name. */
export function centralStarters(layout: LabLayout, root: string | undefined): Map<string, () => Promise<void>> {
  return new Map<string, () => Promise<void>>([
    ['central/ovn-northd', () => runNorthd(layout, root)],
    ['central/sb', () => runDbServer(layout, root, 'sb')],
    ...(isNbClustered(layout)
      ? nbMembers(layout).map((m) => [m.name, () => startNbMember(layout, root, m)] as const)
      : [['central/nb', () => runDbServer(layout, root, 'nb')] as const]),
  ]);
}
