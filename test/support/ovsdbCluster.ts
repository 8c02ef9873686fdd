/**
 * A RAFT cluster of real ovsdb-servers on one machine for tests (ovsdbServer.ts's pieces): fixed
 * loopback addresses chosen below the kernel's ephemeral range, members joined one by one, each
 * waited for until it counts for a majority.
 */
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { processActivity } from '../../lab/activity';
import { stretchedByLoad } from '../../lab/load';
import { NB_SCHEMA, type OvsdbServer, removeDir, run, serverHandle, spawnServer } from './ovsdbServer';

/**
 * A free loopback port below the kernel's ephemeral range (RAFT addresses must be fixed before the
 * servers start). A port the kernel handed out and we closed again may be handed to another
 * process's outgoing connection before the member binds it; the kernel never picks a source port
 * below `ip_local_port_range`, so one from there stays free for us (seen: a member left "joining
 * cluster" forever, its leader's port taken, while other test lanes ran beside it).
 */
async function freePort(): Promise<number> {
  const [ephemeralFloor] = (await fs.readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')).split(/\s+/);
  const below = Number(ephemeralFloor) - 1024;
  for (;;) {
    const port = 1024 + Math.floor(Math.random() * below);
    const server = net.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
}

/** A round of waiting for a member to join: ample on a machine at rest. */
const MEMBERSHIP_ROUND_MS = 15_000;

/**
 * Joining finishes after the server starts; until then a member does not count for a majority.
 * Waits in rounds (stretched by the load) that go on while the cluster's servers use CPU, so a
 * busy machine makes the wait longer and a cluster at rest ends it.
 */
async function waitForMembership(ctl: string, dbName: string, servers: () => number[]): Promise<void> {
  const activity = processActivity(servers);
  let deadline = Date.now() + stretchedByLoad(MEMBERSHIP_ROUND_MS);
  for (;;) {
    const { stdout } = await run('ovs-appctl', ['-t', ctl, 'cluster/status', dbName]).catch(() => ({ stdout: '' }));
    if (/Status: cluster member/.test(stdout) && /Leader: (?!unknown)/.test(stdout)) return;
    if (Date.now() > deadline) {
      if (!activity.working()) throw new Error(`${ctl} did not become a cluster member:\n${stdout}`);
      deadline = Date.now() + stretchedByLoad(MEMBERSHIP_ROUND_MS);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface OvsdbCluster {
  dir: string;
  members: OvsdbServer[];
  /** Every member's client remote, comma-separated (tcp). */
  remotes: string;
  stop(): Promise<void>;
}

/** A RAFT cluster of `size` members from `schema`, all on 127.0.0.1. */
export async function startOvsdbCluster(size = 3, schema = NB_SCHEMA): Promise<OvsdbCluster> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ovnk-raft-'));
  const members: OvsdbServer[] = [];
  const stop = async () => {
    await Promise.all(members.map((m) => m.stop()));
    await removeDir(dir);
  };
  try {
    const raft = await Promise.all(Array.from({ length: size }, () => freePort()));
    const dbName = JSON.parse(await fs.readFile(schema, 'utf8')).name as string;
    for (let i = 0; i < size; i++) {
      const db = path.join(dir, `m${i}.db`);
      const local = `tcp:127.0.0.1:${raft[i]}`;
      if (i === 0) await run('ovsdb-tool', ['create-cluster', db, schema, local]);
      else await run('ovsdb-tool', ['join-cluster', db, dbName, local, `tcp:127.0.0.1:${raft[0]}`]);
      members.push(serverHandle(dir, `m${i}`, await spawnServer(dir, db, `m${i}`, [], false), false));
    }
    const servers = () => members.map((m) => m.pid);
    for (let i = 0; i < size; i++) await waitForMembership(path.join(dir, `m${i}.ctl`), dbName, servers);
    return { dir, members, remotes: members.map((m) => m.tcp).join(','), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
