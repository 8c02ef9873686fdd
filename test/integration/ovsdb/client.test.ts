import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OvsdbClient } from '../../../provider/ovsdb/client';
import type { StreamEndpoint } from '../../../provider/ovsdb/endpoint';
import {
  Aborted,
  ConstraintViolation,
  DomainError,
  DuplicateUuidName,
  NotOwner,
  OvsdbRpcError,
  OvsdbSyntaxError,
  OvsdbTransportError,
  ReferentialIntegrityViolation,
  TimedOut,
} from '../../../provider/ovsdb/errors';
import type { Operation } from '../../../provider/ovsdb/notation';
import { startOvsdbServer, type OvsdbServer } from '../../support/ovsdbServer';

const NB = 'OVN_Northbound';
let server: OvsdbServer;
let client: OvsdbClient;

beforeAll(async () => {
  server = await startOvsdbServer({ ssl: true });
  client = await OvsdbClient.connect(server.unix);
});

afterAll(async () => {
  client?.close();
  await server?.stop();
});

function routerWithPort(router: string, port: string): Operation[] {
  return [
    {
      op: 'insert',
      table: 'Logical_Router_Port',
      'uuid-name': 'lrp',
      row: { name: port, mac: '0a:00:00:00:00:01', networks: ['set', ['100.64.0.0/31']] },
    },
    {
      op: 'insert',
      table: 'Logical_Router',
      row: {
        name: router,
        ports: ['set', [['named-uuid', 'lrp']]],
        options: ['map', [['requested-tnl-key', '50000']]],
      },
    },
  ];
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('connecting over every transport', () => {
  it('lists the databases over unix, tcp and ssl', async () => {
    for (const endpoint of [server.unix, server.tcp, server.ssl as string]) {
      const c = await OvsdbClient.connect(endpoint, { tls: server.tls });
      expect(await c.listDbs()).toEqual([NB, '_Server']);
      c.close();
    }
  });

  it('refuses an ssl server whose certificate our CA did not sign', async () => {
    const error = await failure(
      OvsdbClient.connect(server.ssl as string, { tls: { ...server.tls!, ca: server.otherCa! } }),
    );
    expect(error).toBeInstanceOf(OvsdbTransportError);
    expect(error.message).toContain(`ovsdb: ${server.ssl}: cannot connect`);
  });

  it('refuses an ssl endpoint without TLS material, naming the field', async () => {
    await expect(OvsdbClient.connect(server.ssl as string)).rejects.toThrow('[tls]');
  });

  it('speaks over any Duplex a custom stream opener hands it', async () => {
    const opener: StreamEndpoint = {
      kind: 'stream',
      describe: 'test-tunnel',
      open: () =>
        new Promise((resolve, reject) => {
          const socket = net.connect({ path: server.socketPath }, () => resolve(socket));
          socket.once('error', reject);
        }),
    };
    const c = await OvsdbClient.connect(opener);
    expect(c.endpoint).toBe('test-tunnel');
    const [result] = await c.transact(NB, [
      { op: 'select', table: 'Logical_Router', where: [['name', '==', 'nobody']] },
    ]);
    expect(result.rows).toEqual([]);
    c.close();
  });

  it('reports a missing unix socket as a refused connection', async () => {
    const error = await failure(OvsdbClient.connect(`unix:${path.join(server.dir, 'absent.sock')}`));
    expect(error).toMatchObject({ name: 'OvsdbTransportError', reason: 'refused' });
  });
});

describe('transactions', () => {
  it('inserts a router with a port by named uuid and reads both back decoded', async () => {
    const [port, router] = await client.transact(NB, routerWithPort('lr-read', 'lrp-read'));
    expect(port.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const [selected] = await client.transact(NB, [
      { op: 'select', table: 'Logical_Router', where: [['_uuid', '==', ['uuid', router.uuid!]]] },
    ]);
    expect(selected.rows).toHaveLength(1);
    expect(selected.rows![0]).toMatchObject({
      _uuid: { uuid: router.uuid },
      name: 'lr-read',
      ports: [{ uuid: port.uuid }],
      options: { 'requested-tnl-key': '50000' },
      static_routes: [],
      enabled: undefined,
    });
    const [lrp] = await client.transact(NB, [
      {
        op: 'select',
        table: 'Logical_Router_Port',
        where: [['name', '==', 'lrp-read']],
        columns: ['networks', 'peer'],
      },
    ]);
    expect(lrp.rows).toEqual([{ networks: ['100.64.0.0/31'], peer: undefined }]);
  });

  it('a duplicate port name is a constraint violation at commit, naming the table', async () => {
    await client.transact(NB, routerWithPort('lr-dup', 'lrp-dup'));
    const error = await failure(client.transact(NB, routerWithPort('lr-dup2', 'lrp-dup')));
    expect(error).toBeInstanceOf(ConstraintViolation);
    expect(error).toMatchObject({ index: 2, op: 'commit', table: 'Logical_Router_Port' });
    expect(error.message).toContain('constraint violation in operation 2 (commit on Logical_Router_Port)');
    expect(error.message).toContain('lrp-dup');
  });

  it('a strong reference to a missing row is a referential integrity violation', async () => {
    const missing = '0b0c0d0e-0000-4000-8000-000000000001';
    const error = await failure(
      client.transact(NB, [
        { op: 'insert', table: 'Logical_Router', row: { name: 'lr-ref', ports: ['uuid', missing] } },
      ]),
    );
    expect(error).toBeInstanceOf(ReferentialIntegrityViolation);
    expect(error).toMatchObject({ index: 1, op: 'commit' });
    expect((error as ReferentialIntegrityViolation).details).toContain(missing);
  });

  it('two inserts with one uuid-name are a duplicate uuid name in the second operation', async () => {
    const insert: Operation = { op: 'insert', table: 'Logical_Router', 'uuid-name': 'same', row: { name: 'lr-same' } };
    const error = await failure(client.transact(NB, [insert, insert]));
    expect(error).toBeInstanceOf(DuplicateUuidName);
    expect(error).toMatchObject({ index: 1, op: 'insert', table: 'Logical_Router' });
  });

  it('a misspelled member is a syntax error', async () => {
    const bad = { op: 'insert', table: 'Logical_Router', uuid_name: 'x', row: {} } as unknown as Operation;
    const error = await failure(client.transact(NB, [bad]));
    expect(error).toBeInstanceOf(OvsdbSyntaxError);
    expect((error as OvsdbSyntaxError).details).toContain("Member 'uuid_name' is present but not allowed here");
  });

  it('a wait that is not satisfied with timeout 0 times out', async () => {
    const wait: Operation = {
      op: 'wait',
      table: 'Logical_Router',
      where: [['name', '==', 'lr-never']],
      columns: ['name'],
      until: '==',
      rows: [{ name: 'lr-never' }],
      timeout: 0,
    };
    const error = await failure(client.transact(NB, [wait]));
    expect(error).toBeInstanceOf(TimedOut);
    expect(error).toMatchObject({ index: 0, op: 'wait', table: 'Logical_Router' });
  });

  it('division by zero in a mutate is a domain error and nothing is committed', async () => {
    const error = await failure(
      client.transact(NB, [
        { op: 'insert', table: 'Meter_Band', 'uuid-name': 'band', row: { action: 'drop', rate: 10 } },
        { op: 'insert', table: 'Meter', row: { name: 'm-domain', unit: 'kbps', bands: ['named-uuid', 'band'] } },
        { op: 'mutate', table: 'Meter_Band', where: [], mutations: [['rate', '/=', 0]] },
      ]),
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ index: 2, table: 'Meter_Band' });
    const [meters] = await client.transact(NB, [{ op: 'select', table: 'Meter', where: [['name', '==', 'm-domain']] }]);
    expect(meters.rows).toEqual([]);
  });

  it('an abort operation aborts, and asserting a lock we do not hold is not owner', async () => {
    expect(await failure(client.transact(NB, [{ op: 'abort' }]))).toBeInstanceOf(Aborted);
    expect(await failure(client.transact(NB, [{ op: 'assert', lock: 'ovnk_test' }]))).toBeInstanceOf(NotOwner);
  });

  it('a too-many-rows commit is a constraint violation naming the table', async () => {
    const error = await failure(
      client.transact(NB, [
        { op: 'insert', table: 'NB_Global', row: {} },
        { op: 'insert', table: 'NB_Global', row: {} },
      ]),
    );
    expect(error).toMatchObject({ name: 'ConstraintViolation', op: 'commit', table: 'NB_Global' });
  });

  it('an unknown database is a request error, not an operation error', async () => {
    const error = await failure(client.transact('Nope', []));
    expect(error).toBeInstanceOf(OvsdbRpcError);
    expect(error.message).toContain('unknown database');
  });
});

describe('monitors', () => {
  it('a monitor reports inserts, modifications and deletes of the rows it watches', async () => {
    const updates: { kind: string; name?: unknown }[] = [];
    const monitor = await client.monitor(NB, { Logical_Router: { columns: ['name'] } }, (update) => {
      for (const row of update.tables.Logical_Router ?? [])
        updates.push({ kind: row.kind, name: (row.new ?? row.old)?.name });
    });
    expect(monitor.initial.Logical_Router?.every((row) => row.kind === 'initial')).toBe(true);
    await client.transact(NB, [{ op: 'insert', table: 'Logical_Router', row: { name: 'lr-mon' } }]);
    await client.transact(NB, [
      { op: 'update', table: 'Logical_Router', where: [['name', '==', 'lr-mon']], row: { name: 'lr-mon2' } },
    ]);
    await client.transact(NB, [{ op: 'delete', table: 'Logical_Router', where: [['name', '==', 'lr-mon2']] }]);
    await client.echo(); // the notifications of our own transactions precede this reply
    expect(updates).toEqual([
      { kind: 'insert', name: 'lr-mon' },
      { kind: 'modify', name: 'lr-mon2' },
      { kind: 'delete', name: 'lr-mon2' },
    ]);
    await monitor.cancel();
    await client.transact(NB, [{ op: 'insert', table: 'Logical_Router', row: { name: 'lr-after-cancel' } }]);
    await client.echo();
    expect(updates).toHaveLength(3);
  });

  it('monitor_cond_since sends only the rows matching its condition, with a transaction id', async () => {
    const seen: string[] = [];
    const monitor = await client.monitor(
      NB,
      { Logical_Router: { columns: ['name'], where: [['name', '==', 'lr-cond']] } },
      (update) =>
        seen.push(
          ...(update.tables.Logical_Router ?? []).map(
            (row) => `${row.kind}:${String(row.new?.name ?? row.diff?.name)}`,
          ),
        ),
      { method: 'monitor_cond_since' },
    );
    expect(monitor.found).toBe(false);
    expect(monitor.lastTxnId).toMatch(/^[0-9a-f-]{36}$/);
    await client.transact(NB, [
      { op: 'insert', table: 'Logical_Router', row: { name: 'lr-cond' } },
      { op: 'insert', table: 'Logical_Router', row: { name: 'lr-other' } },
    ]);
    await client.echo();
    expect(seen).toEqual(['insert:lr-cond']);
    await monitor.cancel();
  });

  it('monitor_cond reports a modification as the diff of the changed columns', async () => {
    await client.transact(NB, [
      { op: 'insert', table: 'Logical_Router', row: { name: 'lr-diff', options: ['map', [['a', '1']]] } },
    ]);
    const diffs: unknown[] = [];
    const monitor = await client.monitor(
      NB,
      { Logical_Router: { columns: ['name', 'options'], where: [['name', '==', 'lr-diff']] } },
      (update) =>
        diffs.push(...(update.tables.Logical_Router ?? []).map((row) => ({ kind: row.kind, diff: row.diff }))),
      { method: 'monitor_cond' },
    );
    expect(monitor.initial.Logical_Router?.map((row) => row.new)).toEqual([{ name: 'lr-diff', options: { a: '1' } }]);
    await client.transact(NB, [
      {
        op: 'mutate',
        table: 'Logical_Router',
        where: [['name', '==', 'lr-diff']],
        mutations: [['options', 'insert', ['map', [['b', '2']]]]],
      },
    ]);
    await client.echo();
    expect(diffs).toEqual([{ kind: 'modify', diff: { options: { b: '2' } } }]);
    await monitor.cancel();
  });

  it('a plain monitor refuses conditions before sending anything', async () => {
    await expect(client.monitor(NB, { Logical_Router: { where: [['name', '==', 'x']] } }, () => {})).rejects.toThrow(
      '[monitor.Logical_Router.where]',
    );
  });
});

describe('liveness', () => {
  it("answers the server's echo so an idle connection stays open, where a silent one is dropped", async () => {
    const own = await startOvsdbServer({ remotes: [`db:${NB},NB_Global,connections`] });
    try {
      const admin = await OvsdbClient.connect(own.unix);
      await admin.transact(NB, [
        {
          op: 'insert',
          table: 'Connection',
          'uuid-name': 'conn',
          row: { target: 'ptcp:0:127.0.0.3', inactivity_probe: 1000 },
        },
        { op: 'insert', table: 'NB_Global', row: { connections: ['named-uuid', 'conn'] } },
      ]);
      const port = await logPort(path.join(own.dir, 'db.log'), '127.0.0.3');
      const quiet = await OvsdbClient.connect(`tcp:127.0.0.3:${port}`, { inactivityProbeMs: 0 });
      const silent = net.connect({ host: '127.0.0.3', port }).resume(); // reads the echo, never answers
      const silentClosed = new Promise<number>((resolve) => silent.once('close', () => resolve(Date.now())));
      // ovsdb-server probes after 1 s of silence (its minimum) and drops the peer after 2 s
      await new Promise((r) => setTimeout(r, 3000));
      expect(await Promise.race([silentClosed, Promise.resolve(-1)])).toBeGreaterThan(0);
      expect(quiet.isOpen).toBe(true);
      expect(await quiet.listDbs()).toContain(NB);
      quiet.close();
      admin.close();
    } finally {
      await own.stop();
    }
  });

  it('our own echo notices a server that stopped answering', async () => {
    const own = await startOvsdbServer();
    const c = await OvsdbClient.connect(own.unix, { inactivityProbeMs: 100 });
    const closed = new Promise<OvsdbTransportError>((resolve) => c.onClose(resolve));
    process.kill(own.pid, 'SIGSTOP');
    try {
      const error = await closed;
      expect(error.reason).toBe('timeout');
      expect(error.message).toContain('no answer to echo within 100 ms');
    } finally {
      process.kill(own.pid, 'SIGCONT');
      await own.stop();
    }
  });

  it('a server kept busy past the echo probe keeps the connection while a request is within its timeout, and that request completes', async () => {
    const own = await startOvsdbServer();
    const c = await OvsdbClient.connect(own.unix, { inactivityProbeMs: 100 });
    let closedBy: OvsdbTransportError | undefined;
    c.onClose((error) => (closedBy = error));
    process.kill(own.pid, 'SIGSTOP'); // as busy as a 29k-row transaction: silent, then answers in order
    try {
      const insert = c.transact(NB, [{ op: 'insert', table: 'Logical_Switch', row: { name: 'ls-busy' } }], {
        timeoutMs: 5000,
      });
      await new Promise((r) => setTimeout(r, 1000)); // five probe periods without an answer
      expect(closedBy).toBeUndefined();
      process.kill(own.pid, 'SIGCONT');
      const [result] = await insert;
      expect(result?.uuid).toBeDefined();
      expect(c.isOpen).toBe(true);
      expect(await c.listDbs()).toContain(NB);
      c.close();
    } finally {
      process.kill(own.pid, 'SIGCONT');
      await own.stop();
    }
  });

  it('a busy server is given up when the outstanding request reaches its own timeout, and the next unanswered echo closes the connection', async () => {
    const own = await startOvsdbServer();
    const c = await OvsdbClient.connect(own.unix, { inactivityProbeMs: 100 });
    const closed = new Promise<OvsdbTransportError>((resolve) => c.onClose(resolve));
    process.kill(own.pid, 'SIGSTOP');
    try {
      const error = await failure(
        c.transact(NB, [{ op: 'insert', table: 'Logical_Switch', row: { name: 'ls-gone' } }], { timeoutMs: 500 }),
      );
      expect(error.message).toContain('transact got no reply within 500 ms');
      const dropped = await closed;
      expect(dropped.reason).toBe('timeout');
      expect(dropped.message).toContain('no answer to echo within 100 ms');
    } finally {
      process.kill(own.pid, 'SIGCONT');
      await own.stop();
    }
  });

  it('a request without a reply in time fails with a timeout, and the connection stays usable', async () => {
    const wait: Operation = {
      op: 'wait',
      table: 'Logical_Router',
      where: [['name', '==', 'lr-never']],
      columns: ['name'],
      until: '==',
      rows: [{ name: 'lr-never' }],
      timeout: 2000,
    };
    const error = await failure(client.transact(NB, [wait], { timeoutMs: 100 }));
    expect(error).toMatchObject({ name: 'OvsdbTransportError', reason: 'timeout' });
    expect(error.message).toContain('transact got no reply within 100 ms');
    expect(await client.listDbs()).toContain(NB);
  });

  it('every pending request fails with a transport error when the server is killed', async () => {
    const own = await startOvsdbServer();
    const c = await OvsdbClient.connect(own.tcp);
    const wait: Operation = {
      op: 'wait',
      table: 'Logical_Router',
      where: [],
      columns: ['name'],
      until: '==',
      rows: [{ name: 'x' }],
      timeout: 10_000,
    };
    const pending = [failure(c.transact(NB, [wait])), failure(c.transact(NB, [wait]))];
    await c.echo();
    await own.kill();
    for (const error of await Promise.all(pending)) {
      expect(error).toMatchObject({ name: 'OvsdbTransportError', reason: 'closed' });
      expect(error.message).toContain(`ovsdb: ${own.tcp}: transact failed: connection closed by the server`);
    }
    await expect(c.listDbs()).rejects.toBeInstanceOf(OvsdbTransportError);
    await own.stop();
  });
});

async function logPort(logPath: string, host: string): Promise<number> {
  const pattern = new RegExp(`0:${host.replace(/\./g, '\\.')}: listening on port (\\d+)`);
  for (let i = 0; i < 500; i++) {
    const match = pattern.exec(await fs.readFile(logPath, 'utf8'));
    if (match) return Number(match[1]);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no listening line for ${host} in ${logPath}`);
}
