import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OvsdbClient } from '../../../provider/ovsdb/client';
import { OvsdbClusterClient } from '../../../provider/ovsdb/cluster';
import { ConstraintViolation, OvsdbTransportError } from '../../../provider/ovsdb/errors';
import type { Operation } from '../../../provider/ovsdb/notation';
import { startOvsdbCluster, type OvsdbCluster } from '../../support/ovsdbCluster';
import { guardedInsertRouter, insertRouter, startOvsdbServer } from '../../support/ovsdbServer';

const NB = 'OVN_Northbound';
let cluster: OvsdbCluster;

beforeAll(async () => {
  cluster = await startOvsdbCluster(3);
});

afterAll(async () => {
  await cluster?.stop();
});

/** Asks every live member itself, so the test does not trust the client it checks. */
async function leaders(): Promise<string[]> {
  const found: string[] = [];
  for (const member of cluster.members.filter((m) => m.child.exitCode === null && m.child.signalCode === null)) {
    const c = await OvsdbClient.connect(member.unix);
    const [result] = await c.transact('_Server', [{ op: 'select', table: 'Database', where: [['name', '==', NB]] }]);
    if (result.rows?.[0]?.leader === true) found.push(member.tcp);
    c.close();
  }
  return found;
}

const selectRouter = (name: string): Operation[] => [
  { op: 'select', table: 'Logical_Router', where: [['name', '==', name]], columns: ['name'] },
];

async function settledLeader(): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const found = await leaders();
    if (found.length === 1) return found[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the cluster did not settle on one leader');
}

describe('a three-member RAFT Northbound', () => {
  it('moves to the new leader when the old one stops answering without closing the connection', async () => {
    const client = new OvsdbClusterClient(cluster.remotes, NB, {
      failoverTimeoutMs: 20_000,
      requestTimeoutMs: 700,
      inactivityProbeMs: 0,
    });
    await client.transact(NB, insertRouter('lr-frozen-before'));
    const frozen = cluster.members.find((m) => m.tcp === client.endpoint)!;
    process.kill(frozen.pid, 'SIGSTOP');
    try {
      await client.transact(NB, guardedInsertRouter('lr-frozen-after'));
      expect(client.endpoint).not.toBe(frozen.tcp);
    } finally {
      process.kill(frozen.pid, 'SIGCONT');
    }
    expect(await settledLeader()).toBe(client.endpoint);
    const [after] = await client.transact(NB, selectRouter('lr-frozen-after'));
    expect(after.rows).toEqual([{ name: 'lr-frozen-after' }]);
    client.close();
  });

  it('finds the leader, follows it when the leader is killed, and writes to the new one', async () => {
    const client = new OvsdbClusterClient(cluster.remotes, NB, { failoverTimeoutMs: 20_000 });
    await client.transact(NB, insertRouter('lr-before'));
    const first = client.endpoint;
    expect(await leaders()).toEqual([first]);

    await cluster.members.find((m) => m.tcp === first)!.kill();
    await client.transact(NB, guardedInsertRouter('lr-after'));
    const second = client.endpoint;
    expect(second).not.toBe(first);
    expect(await leaders()).toEqual([second]);

    const [before] = await client.transact(NB, selectRouter('lr-before'));
    const [after] = await client.transact(NB, selectRouter('lr-after'));
    expect(before.rows).toEqual([{ name: 'lr-before' }]);
    expect(after.rows).toEqual([{ name: 'lr-after' }]);
    client.close();
  });

  it('throws an operation error at once instead of retrying it', async () => {
    const client = new OvsdbClusterClient(cluster.remotes, NB);
    const port: Operation = {
      op: 'insert',
      table: 'Logical_Router_Port',
      'uuid-name': 'p',
      row: { name: 'lrp-cl', mac: '0a:00:00:00:00:02', networks: '10.0.0.1/31' },
    };
    const router: Operation = {
      op: 'insert',
      table: 'Logical_Router',
      row: { name: 'lr-cl', ports: ['named-uuid', 'p'] },
    };
    await client.transact(NB, [port, router]);
    const started = Date.now();
    await expect(client.transact(NB, [port, router])).rejects.toBeInstanceOf(ConstraintViolation);
    expect(Date.now() - started).toBeLessThan(1000);
    client.close();
  });
});

describe('remotes without a leader', () => {
  it('gives up after the failover timeout naming every remote and why', async () => {
    const standalone = await startOvsdbServer();
    const dead = standalone.tcp;
    await standalone.stop();
    const client = new OvsdbClusterClient(`${dead},unix:/nonexistent/ovnk.sock`, NB, {
      failoverTimeoutMs: 300,
      retryDelayMs: 50,
    });
    const error = await client.transact(NB, selectRouter('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OvsdbTransportError);
    expect((error as Error).message).toContain(`no leader for ${NB}`);
    expect((error as Error).message).toContain(dead);
    expect((error as Error).message).toContain('unix:/nonexistent/ovnk.sock');
  });

  it('treats a standalone server as its own leader', async () => {
    const standalone = await startOvsdbServer();
    const client = new OvsdbClusterClient(standalone.unix, NB);
    expect(await client.listDbs()).toContain(NB);
    client.close();
    await standalone.stop();
  });
});
