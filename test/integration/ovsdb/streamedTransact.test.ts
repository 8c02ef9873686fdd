/**
 * A large transaction is written while it is serialized (provider/ovsdb/outbox.ts,
 * transactParams.ts), against a real ovsdb-server: it arrives as one whole JSON-RPC request, no
 * other message is written into its middle, a server that stops reading holds it back instead of
 * our memory filling, and a timeout, a close or a value that cannot be serialized in the middle
 * of it leave the connection as the client's documented semantics say.
 */
import * as net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OvsdbClient } from '../../../provider/ovsdb/client';
import type { StreamEndpoint } from '../../../provider/ovsdb/endpoint';
import { OvsdbTransportError } from '../../../provider/ovsdb/errors';
import { JsonSplitter } from '../../../provider/ovsdb/framing';
import type { Operation, WireAtom } from '../../../provider/ovsdb/notation';
import { chooseRowUuids } from '../../../provider/ovsdb/rowUuids';
import { startOvsdbServer, type OvsdbServer } from '../../support/ovsdbServer';

const NB = 'OVN_Northbound';
/** About 4 MB of JSON: many pieces, and far more than a unix socket buffers (212,992 bytes by default). */
const ROWS = 20_000;
let server: OvsdbServer;

beforeEach(async () => {
  server = await startOvsdbServer();
});

afterEach(async () => {
  process.kill(server.pid, 'SIGCONT');
  await server.stop();
});

/** `count` static routes by uuid-name and the router that holds them. */
function routerWithRoutes(router: string, count: number): Operation[] {
  const routes: Operation[] = Array.from({ length: count }, (_, i) => ({
    op: 'insert',
    table: 'Logical_Router_Static_Route',
    'uuid-name': `r${i}`,
    row: { ip_prefix: `10.${(i >> 8) & 255}.${i & 255}.0/24`, nexthop: '100.64.0.1' },
  }));
  const refs = routes.map((_, i): WireAtom => ['named-uuid', `r${i}`]);
  return [...routes, { op: 'insert', table: 'Logical_Router', row: { name: router, static_routes: ['set', refs] } }];
}

/** A client on the server's unix socket that records the text of every write, in order. */
async function recordingClient(): Promise<{ client: OvsdbClient; writes: string[] }> {
  const writes: string[] = [];
  const opener: StreamEndpoint = {
    kind: 'stream',
    describe: 'recorded',
    open: () =>
      new Promise((resolve, reject) => {
        const socket = net.connect({ path: server.socketPath }, () => resolve(socket));
        socket.once('error', reject);
        const write = socket.write.bind(socket) as (chunk: string) => boolean;
        socket.write = ((chunk: string) => (writes.push(chunk), write(chunk))) as typeof socket.write;
      }),
  };
  return { client: await OvsdbClient.connect(opener, { requestTimeoutMs: 60_000 }), writes };
}

/** The messages in what was written, as the server's side of the socket would split them. */
function messagesIn(writes: string[]): { method?: string; params?: unknown[] }[] {
  return new JsonSplitter().push(Buffer.from(writes.join(''))) as { method?: string; params?: unknown[] }[];
}

const chars = (writes: string[]) => writes.reduce((n, w) => n + w.length, 0);

async function routesOf(router: string, on: OvsdbServer = server): Promise<string[]> {
  const reader = await OvsdbClient.connect(on.unix);
  const [found] = await reader.transact(NB, [
    { op: 'select', table: 'Logical_Router', where: [['name', '==', router]], columns: ['static_routes'] },
  ]);
  reader.close();
  const rows = found!.rows!;
  return rows.length === 0 ? [] : (rows[0]!.static_routes as { uuid: string }[]).map((r) => r.uuid);
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a transaction written while it is serialized', () => {
  it('arrives in many writes as one request, every row stored under its chosen uuid and the reply decoded', async () => {
    const { client, writes } = await recordingClient();
    const ops = routerWithRoutes('lr-streamed', ROWS);
    const rowUuids = chooseRowUuids(ops)!;
    const results = await client.transact(NB, ops, { rowUuids });
    client.close();
    expect(writes.length).toBeGreaterThan(20);
    const [request, ...others] = messagesIn(writes);
    expect(others).toEqual([]);
    expect(request!.method).toBe('transact');
    expect(request!.params).toHaveLength(1 + ops.length);
    expect(JSON.stringify(request!.params)).not.toContain('named-uuid');
    expect(results.slice(0, ROWS).map((r) => r.uuid)).toEqual(rowUuids.byIndex.slice(0, ROWS));
    expect((await routesOf('lr-streamed')).sort()).toEqual(rowUuids.byIndex.slice(0, ROWS).sort());
  });

  it('arrives whole over tcp and over ssl, whose socket takes the pieces through TLS', async () => {
    const own = await startOvsdbServer({ ssl: true });
    try {
      for (const [name, endpoint] of [
        ['lr-tcp', own.tcp],
        ['lr-ssl', own.ssl!],
      ] as const) {
        const client = await OvsdbClient.connect(endpoint, { tls: own.tls, requestTimeoutMs: 60_000 });
        const ops = routerWithRoutes(name, ROWS);
        expect(await client.transact(NB, ops, { rowUuids: chooseRowUuids(ops) })).toHaveLength(ops.length);
        client.close();
        expect(await routesOf(name, own)).toHaveLength(ROWS);
      }
    } finally {
      await own.stop();
    }
  });

  it('is held back by a server that stops reading, and a request made meanwhile is written after it, whole', async () => {
    const { client, writes } = await recordingClient();
    const ops = routerWithRoutes('lr-held', ROWS);
    process.kill(server.pid, 'SIGSTOP');
    const transaction = client.transact(NB, ops, { rowUuids: chooseRowUuids(ops) });
    await settle(300);
    const handed = chars(writes);
    // the kernel's socket buffer and one write of ours, not the whole message in our memory
    expect(handed).toBeLessThan(1_000_000);
    const listed = client.listDbs();
    await settle(100);
    expect(chars(writes)).toBe(handed); // still waiting for the server to read
    process.kill(server.pid, 'SIGCONT');
    expect(await transaction).toHaveLength(ops.length);
    expect(await listed).toContain(NB);
    client.close();
    expect(handed).toBeLessThan(chars(writes) / 4);
    expect(messagesIn(writes).map((m) => m.method)).toEqual(['transact', 'list_dbs']);
    expect(await routesOf('lr-held')).toHaveLength(ROWS);
  });

  it('is still written whole after its own timeout, so the connection stays usable and the rows are committed', async () => {
    const { client, writes } = await recordingClient();
    const ops = routerWithRoutes('lr-late', ROWS);
    process.kill(server.pid, 'SIGSTOP');
    const error = await client.transact(NB, ops, { timeoutMs: 200 }).catch((e: Error) => e);
    expect(error).toMatchObject({ name: 'OvsdbTransportError', reason: 'timeout' });
    const handed = chars(writes);
    process.kill(server.pid, 'SIGCONT');
    expect(await client.listDbs()).toContain(NB);
    expect(chars(writes)).toBeGreaterThan(handed);
    client.close();
    expect(await routesOf('lr-late')).toHaveLength(ROWS);
  });

  it('stops when the client closes in the middle of it, and the server commits none of it', async () => {
    const { client, writes } = await recordingClient();
    const ops = routerWithRoutes('lr-cut', ROWS);
    process.kill(server.pid, 'SIGSTOP');
    const transaction = client.transact(NB, ops).catch((e: Error) => e);
    await settle(200);
    client.close();
    const error = await transaction;
    expect(error).toBeInstanceOf(OvsdbTransportError);
    expect(error).toMatchObject({ reason: 'closed' });
    const handed = chars(writes);
    process.kill(server.pid, 'SIGCONT');
    await settle(200);
    expect(chars(writes)).toBe(handed);
    expect(await routesOf('lr-cut')).toEqual([]);
  });

  it('that cannot serialize a later operation drops the connection naming the cause, and commits nothing', async () => {
    const { client } = await recordingClient();
    const ops = routerWithRoutes('lr-bad', ROWS);
    (ops[ROWS - 1] as { row: Record<string, unknown> }).row.nexthop = 1n; // JSON has no BigInt
    const closed = new Promise<OvsdbTransportError>((resolve) => client.onClose(resolve));
    const error = await client.transact(NB, ops).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toMatchObject({ name: 'OvsdbTransportError', reason: 'protocol' });
    expect(error?.message).toContain('a request was cut short: Do not know how to serialize a BigInt');
    expect((await closed).reason).toBe('protocol');
    expect(await routesOf('lr-bad')).toEqual([]);
  });

  it('that cannot serialize its first operations fails alone, before anything is written', async () => {
    const { client, writes } = await recordingClient();
    const ops = routerWithRoutes('lr-first-bad', 10);
    (ops[0] as { row: Record<string, unknown> }).row.nexthop = 1n;
    const before = writes.length;
    await expect(client.transact(NB, ops)).rejects.toThrow('Do not know how to serialize a BigInt');
    expect(writes.length).toBe(before);
    expect(await client.listDbs()).toContain(NB);
    client.close();
  });
});
