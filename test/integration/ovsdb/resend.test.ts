/**
 * The cluster client's resend policy (provider/ovsdb/cluster.ts `resendable`), against a real
 * ovsdb-server behind a relay that forwards one write and then cuts the connection before the
 * reply comes back: the write committed, the client cannot know. An unguarded write must not be
 * sent again (it would commit twice); a guarded one is, and its guard keeps it from writing twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OvsdbClient } from '../../../provider/ovsdb/client';
import { OvsdbClusterClient, resendable } from '../../../provider/ovsdb/cluster';
import { OvsdbTransportError } from '../../../provider/ovsdb/errors';
import { guardedInsertRouter, insertRouter, startOvsdbServer, type OvsdbServer } from '../../support/ovsdbServer';

const NB = 'OVN_Northbound';
let server: OvsdbServer;
let dir: string;
let relay: net.Server;
let armed = false;

/**
 * Forwards everything, but once armed, the first request naming `"insert"` reaches the server and
 * its connection is cut.
 */
function startRelay(path: string): Promise<net.Server> {
  const relayServer = net.createServer((client) => {
    const member = net.connect({ path: server.socketPath });
    let cut = false;
    client.on('data', (chunk: Buffer) => {
      member.write(chunk);
      if (armed && chunk.toString().includes('"insert"')) {
        armed = false;
        cut = true;
        setTimeout(() => (client.destroy(), member.destroy()), 300);
      }
    });
    member.on('data', (chunk: Buffer) => cut || client.write(chunk));
    client.on('error', () => member.destroy());
    member.on('error', () => client.destroy());
    client.on('close', () => member.destroy());
  });
  return new Promise((resolve) => relayServer.listen(path, () => resolve(relayServer)));
}

async function routersNamed(name: string): Promise<number> {
  const direct = await OvsdbClient.connect(server.unix);
  const [found] = await direct.transact(NB, [{ op: 'select', table: 'Logical_Router', where: [['name', '==', name]] }]);
  direct.close();
  return found!.rows!.length;
}

beforeAll(async () => {
  server = await startOvsdbServer();
  dir = mkdtempSync(join(tmpdir(), 'ovnk-resend-'));
  relay = await startRelay(join(dir, 'relay.sock'));
});

afterAll(async () => {
  relay?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a write whose connection is cut after it reached the server', () => {
  it('says reads and guarded writes may be sent again, and unguarded writes may not', () => {
    expect(resendable([{ op: 'select', table: 'Logical_Router', where: [] }])).toBe(true);
    expect(resendable(guardedInsertRouter('x'))).toBe(true);
    expect(resendable(insertRouter('x'))).toBe(false);
  });

  it('is not sent again when unguarded: the transport error reaches the caller and the row exists once', async () => {
    const client = new OvsdbClusterClient(`unix:${join(dir, 'relay.sock')}`, NB, { failoverTimeoutMs: 10_000 });
    await client.transact(NB, [{ op: 'select', table: 'NB_Global', where: [] }]);
    armed = true;
    await expect(client.transact(NB, insertRouter('lr-unguarded'))).rejects.toBeInstanceOf(OvsdbTransportError);
    expect(await routersNamed('lr-unguarded')).toBe(1);
    client.close();
  });

  it('is sent again when guarded, and its guard keeps the row from being written twice', async () => {
    const client = new OvsdbClusterClient(`unix:${join(dir, 'relay.sock')}`, NB, { failoverTimeoutMs: 10_000 });
    await client.transact(NB, [{ op: 'select', table: 'NB_Global', where: [] }]);
    armed = true;
    // the resend's guard fails (the first one committed): the server's answer, not a second row
    await expect(client.transact(NB, guardedInsertRouter('lr-guarded'))).rejects.toThrow(/timed out|wait/i);
    expect(await routersNamed('lr-guarded')).toBe(1);
    client.close();
  });
});
