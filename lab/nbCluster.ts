/**
 * A clustered central Northbound (`ovnk lab up --zones central --nb-members 3`): a RAFT cluster
 * whose first member is made with `ovsdb-tool create-cluster` and the others with `join-cluster`,
 * each its own ovsdb-server with a unix socket and a tcp port on the central address. northd and
 * every client get all members, comma-separated, and follow the leader. A member started again on
 * its database file rejoins the cluster with its log (lab/restart.ts).
 */
import * as path from 'node:path';
import { badInput } from './errors';
import { exec, inRoot } from './exec';
import type { LabLayout } from './layout';
import type { DaemonRecord } from './processes';

/** Three members: the ports of a lab index (layout.ts) leave room for three client and three RAFT ports. */
export const MAX_NB_MEMBERS = 3;
const NB_SCHEMA = '/usr/share/ovn/ovn-nb.ovsschema';

export interface NbMember {
  /** The daemon's name in the state and in `ovnk lab status`: central/nb-m0, ... */
  name: string;
  db: string;
  socket: string;
  pidFile: string;
  tcpPort: number;
  raftPort: number;
}

export function checkNbMembers(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_NB_MEMBERS)
    throw badInput(`--nb-members ${value} is not usable: give 1 (a standalone Northbound) up to ${MAX_NB_MEMBERS}`);
  return value;
}

/** True when the layout's central Northbound is a RAFT cluster. */
export const isNbClustered = (layout: LabLayout): boolean => (layout.nbMembers ?? 1) > 1;

export function nbMembers(layout: LabLayout): NbMember[] {
  const base = 17000 + layout.index * 10;
  return Array.from({ length: layout.nbMembers ?? 1 }, (_, i) => {
    const file = (ext: string) => path.join(layout.centralDir, `nb-m${i}.${ext}`);
    return {
      name: `central/nb-m${i}`,
      db: file('db'),
      socket: file('sock'),
      pidFile: file('pid'),
      tcpPort: base + 3 + i,
      raftPort: base + 6 + i,
    };
  });
}

export function nbMemberDaemons(layout: LabLayout): DaemonRecord[] {
  return nbMembers(layout).map((m) => ({ name: m.name, program: 'ovsdb-server', pidFile: m.pidFile }));
}

/** Every member's client remote, comma-separated: `unix:` sockets, or tcp on the central address. */
export function nbClusterRemotes(layout: LabLayout, kind: 'unix' | 'tcp'): string {
  return nbMembers(layout)
    .map((m) => (kind === 'unix' ? `unix:${m.socket}` : `tcp:${layout.centralIp}:${m.tcpPort}`))
    .join(',');
}

const raft = (layout: LabLayout, member: NbMember) => `tcp:${layout.centralIp}:${member.raftPort}`;

/** The members' database files: the first creates the cluster, the others join it through the first. */
export async function createNbCluster(layout: LabLayout, root: string | undefined): Promise<void> {
  const [first, ...others] = nbMembers(layout);
  await exec(inRoot(root, ['ovsdb-tool', 'create-cluster', first!.db, NB_SCHEMA, raft(layout, first!)]));
  for (const member of others)
    await exec(
      inRoot(root, [
        'ovsdb-tool',
        'join-cluster',
        member.db,
        'OVN_Northbound',
        raft(layout, member),
        raft(layout, first!),
      ]),
    );
}

/** One member's ovsdb-server on its database file (new or left by a killed server). */
export async function startNbMember(layout: LabLayout, root: string | undefined, member: NbMember): Promise<void> {
  const ext = (e: string) => member.db.replace(/\.db$/, `.${e}`);
  await exec(
    inRoot(root, [
      'ovsdb-server',
      member.db,
      `--remote=punix:${member.socket}`,
      `--remote=ptcp:${member.tcpPort}:${layout.centralIp}`,
      `--pidfile=${member.pidFile}`,
      `--unixctl=${ext('ctl')}`,
      `--log-file=${ext('log')}`,
      '--detach',
      '--no-chdir',
    ]),
  );
}
