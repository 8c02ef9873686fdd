/**
 * What an ovsdb-server received, as the server itself logs it: with `jsonrpc:file:dbg` it writes
 * one line per JSON-RPC message, named after the connection (`tcp:127.0.0.1:<client port>`, the
 * session ovsdb-server accepted; a port is not reused while the client holds it in TIME_WAIT).
 * Counted from a log offset, so a test counts the connections and `get_schema`s of one command.
 */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { type OvsdbServer, run } from './ovsdbServer';

const logOf = (server: OvsdbServer) => path.join(server.dir, 'db.log');

/** From now on the server logs every JSON-RPC message it receives (startOvsdbServer's control socket and log). */
export async function logRequests(server: OvsdbServer): Promise<void> {
  await run('ovs-appctl', ['-t', path.join(server.dir, 'db.ctl'), 'vlog/set', 'jsonrpc:file:dbg']);
}

/** Where the server's log ends now: count from here. */
export const logMark = (server: OvsdbServer): number => statSync(logOf(server)).size;

const REQUEST = /\|jsonrpc\|DBG\|(tcp:[^ ]+): received request, method="([^"]+)"/g;

/** The TCP connections that sent the server a request since `mark`, and the `get_schema`s among those requests. */
export function requestsSince(server: OvsdbServer, mark: number): { connections: number; getSchemas: number } {
  const text = readFileSync(logOf(server)).subarray(mark).toString('utf8');
  const connections = new Set<string>();
  let getSchemas = 0;
  for (const [, connection, method] of text.matchAll(REQUEST)) {
    connections.add(connection!);
    if (method === 'get_schema') getSchemas++;
  }
  return { connections: connections.size, getSchemas };
}
