import * as net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OvsdbClusterClient } from '../../../provider/ovsdb/cluster';
import type { Endpoint } from '../../../provider/ovsdb/endpoint';
import type { MonitorMethod, MonitorUpdate, TableUpdates } from '../../../provider/ovsdb/monitor';
import type { Operation } from '../../../provider/ovsdb/notation';
import { startOvsdbCluster, type OvsdbCluster } from '../../support/ovsdbCluster';

// A monitor through the cluster client, its leader killed while the client cannot reach the
// others (their connections wait behind a gate the test opens), changes made meanwhile through
// another client: when the gate opens the monitor runs on the new leader and the listener's
// rows are the server's rows again.
const NB = 'OVN_Northbound';
let cluster: OvsdbCluster | undefined;

afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

/** Every member as a stream endpoint whose connections open only once `open()` was called. */
function gated(members: OvsdbCluster['members']): { endpoints: Endpoint[]; close(): void; open(): void } {
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const endpoints: Endpoint[] = members.map((member) => ({
    kind: 'stream',
    describe: member.tcp,
    open: async () => {
      await gate;
      const socket = net.connect({ host: '127.0.0.1', port: member.tcpPort });
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      return socket;
    },
  }));
  return {
    endpoints,
    close: () => (gate = new Promise((resolve) => (release = resolve))),
    open: () => release(),
  };
}

/** The listener's copy of the rows: uuid -> name, kept from the updates as any consumer keeps them. */
class Replica {
  readonly names = new Map<string, unknown>();
  readonly updates: MonitorUpdate[] = [];
  apply(tables: TableUpdates): void {
    for (const row of tables.Logical_Router ?? []) {
      if (row.kind === 'delete') this.names.delete(row.uuid);
      else this.names.set(row.uuid, (row.new ?? row.diff)?.name);
    }
  }
  sorted(): unknown[] {
    return [...this.names.values()].sort();
  }
}

async function serverRouters(client: OvsdbClusterClient): Promise<unknown[]> {
  const [result] = await client.transact(NB, [{ op: 'select', table: 'Logical_Router', where: [], columns: ['name'] }]);
  return result!.rows!.map((row) => row.name).sort();
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
}

const insert = (name: string): Operation => ({ op: 'insert', table: 'Logical_Router', row: { name } });

const rewrite: Operation[] = [
  insert('lr-added'),
  { op: 'update', table: 'Logical_Router', where: [['name', '==', 'lr-renamed']], row: { name: 'lr-renamed2' } },
  { op: 'delete', table: 'Logical_Router', where: [['name', '==', 'lr-deleted']] },
];
const REWRITTEN = ['lr-added', 'lr-kept', 'lr-renamed2'];

/**
 * Monitor, kill the leader behind the gate, run `missed` through another client, open the gate:
 * the listener's rows must become `expected`, and a change after the failover must arrive too.
 */
async function followAfterKill(method: MonitorMethod, missed: Operation[], expected: string[]) {
  cluster = await startOvsdbCluster(3);
  const writer = new OvsdbClusterClient(cluster.remotes, NB, { failoverTimeoutMs: 20_000 });
  await writer.transact(NB, [insert('lr-kept'), insert('lr-renamed'), insert('lr-deleted')]);
  const gate = gated(cluster.members);
  const watcher = new OvsdbClusterClient(gate.endpoints, NB, { failoverTimeoutMs: 20_000, retryDelayMs: 50 });
  const replica = new Replica();
  const monitor = await watcher.monitor(
    NB,
    { Logical_Router: { columns: ['name'] } },
    (update) => {
      replica.updates.push(update);
      replica.apply(update.tables);
    },
    { method },
  );
  replica.apply(monitor.initial);
  const first = watcher.endpoint;
  gate.close();
  await cluster.members.find((m) => m.tcp === first)!.kill();
  await writer.transact(NB, missed);
  expect(replica.updates).toEqual([]);
  gate.open();
  await until(() => JSON.stringify(replica.sorted()) === JSON.stringify(expected), 'the monitor caught up');
  expect(watcher.endpoint).not.toBe(first);
  await writer.transact(NB, [insert('lr-later')]);
  await until(() => replica.names.size === expected.length + 1, 'a change after the failover arrived');
  expect(replica.sorted()).toEqual(await serverRouters(writer));
  await monitor.cancel();
  writer.close();
  watcher.close();
  return replica.updates;
}

describe('a monitor through the cluster client', () => {
  it('resumes on the new leader after the leader is killed, receiving only the changes it missed', async () => {
    // ovsdb-server resumes after inserts; after updates or deletes 3.1 no longer finds the id (next test)
    const updates = await followAfterKill(
      'monitor_cond_since',
      [insert('lr-added')],
      ['lr-added', 'lr-deleted', 'lr-kept', 'lr-renamed'],
    );
    expect(updates[0]!.resync).toBeUndefined();
    expect(updates[0]!.tables.Logical_Router!.map((row) => `${row.kind}:${String(row.new?.name)}`)).toEqual([
      'insert:lr-added',
    ]);
  }, 60_000);

  it('re-syncs a monitor_cond_since the new leader cannot resume, leaving exactly the server rows', async () => {
    const updates = await followAfterKill('monitor_cond_since', rewrite, REWRITTEN);
    const kinds = updates[0]!.tables.Logical_Router!.map((row) => row.kind).sort();
    // either the missed diff (resumed) or a re-sync with one delete: both leave the server's rows
    const resumed = ['delete', 'insert', 'modify'];
    const resynced = ['delete', 'initial', 'initial', 'initial'];
    expect(kinds).toEqual(updates[0]!.resync ? resynced : resumed);
  }, 60_000);

  it('re-syncs a plain monitor on the new leader: every row as it is now and a delete for each row gone', async () => {
    const updates = await followAfterKill('monitor', rewrite, REWRITTEN);
    const resync = updates[0]!;
    expect(resync.resync).toBe(true);
    const kinds = resync.tables.Logical_Router!.map((row) => `${row.kind}:${String(row.new?.name ?? '')}`).sort();
    expect(kinds).toEqual(['delete:', 'initial:lr-added', 'initial:lr-kept', 'initial:lr-renamed2']);
  }, 60_000);
});
