/**
 * The lab's shared parts: the fabric (a namespace with a Linux bridge that every node's mgmt and
 * underlay veth joins, plus one veth into the root namespace carrying the central address), and
 * the central Northbound and Southbound ovsdb-servers (unix and tcp) and ovn-northd.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { exec, inRoot, ipBatch } from './exec';
import type { LabLayout } from './layout';
import type { DaemonRecord } from './processes';

export async function createFabric(layout: LabLayout): Promise<void> {
  const fabric = layout.fabricNamespace;
  await exec(['ip', 'netns', 'add', fabric]);
  await ipBatch(
    ['link set lo up', 'link add br0 type bridge', `addr add ${layout.underlayGateway}/24 dev br0`, 'link set br0 up'],
    fabric,
  );
  await ipBatch([
    `link add ${layout.hostLink} type veth peer name host netns ${fabric}`,
    `addr add ${layout.centralIp}/${layout.mgmtPrefix} dev ${layout.hostLink}`,
    `link set ${layout.hostLink} up`,
  ]);
  await ipBatch(['link set host master br0 up'], fabric);
}

export const centralSocket = (layout: LabLayout, db: 'nb' | 'sb'): string => path.join(layout.centralDir, `${db}.sock`);

export function centralDaemons(layout: LabLayout): DaemonRecord[] {
  const c = layout.centralDir;
  return [
    { name: 'central/ovn-northd', program: 'ovn-northd', pidFile: path.join(c, 'northd.pid') },
    { name: 'central/sb', program: 'ovsdb-server', pidFile: path.join(c, 'sb.pid') },
    { name: 'central/nb', program: 'ovsdb-server', pidFile: path.join(c, 'nb.pid') },
  ];
}

function centralEnv(layout: LabLayout): NodeJS.ProcessEnv {
  const c = layout.centralDir;
  return { OVS_RUNDIR: c, OVS_LOGDIR: c, OVS_DBDIR: c, OVN_RUNDIR: c, OVN_LOGDIR: c, OVN_DBDIR: c };
}

async function startDbServer(
  layout: LabLayout,
  root: string | undefined,
  db: 'nb' | 'sb',
  port: number,
): Promise<void> {
  const c = layout.centralDir;
  const schema = `/usr/share/ovn/ovn-${db}.ovsschema`;
  const env = centralEnv(layout);
  await exec(inRoot(root, ['ovsdb-tool', 'create', path.join(c, `${db}.db`), schema]), { env });
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
    { env },
  );
}

/** NB and SB servers, `init` of NB_Global, then northd. `root` runs them from another root (trixie). */
export async function startCentral(layout: LabLayout, root: string | undefined): Promise<void> {
  const c = layout.centralDir;
  mkdirSync(c, { recursive: true });
  await Promise.all([
    startDbServer(layout, root, 'nb', layout.nbPort),
    startDbServer(layout, root, 'sb', layout.sbPort),
  ]);
  const env = centralEnv(layout);
  await exec(inRoot(root, ['ovn-nbctl', `--db=unix:${centralSocket(layout, 'nb')}`, '--no-wait', 'init']), { env });
  await exec(
    inRoot(root, [
      'ovn-northd',
      `--ovnnb-db=unix:${centralSocket(layout, 'nb')}`,
      `--ovnsb-db=unix:${centralSocket(layout, 'sb')}`,
      `--pidfile=${path.join(c, 'northd.pid')}`,
      `--unixctl=${path.join(c, 'northd.ctl')}`,
      `--log-file=${path.join(c, 'northd.log')}`,
      '--detach',
      '--no-chdir',
    ]),
    { env },
  );
}
