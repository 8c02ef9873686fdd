/**
 * Where an OVSDB server is: `unix:PATH`, `tcp:HOST:PORT`, `ssl:HOST:PORT` (IPv6 hosts in
 * brackets), several of them comma-separated for a RAFT cluster, or a custom stream opener for
 * tunnelled transports (the host layer opens a remote unix socket through SSH and hands us the
 * Duplex). Parsing only; transport.ts opens them.
 */
import type { Duplex } from 'node:stream';
import { OvsdbValueError } from './errors';

export type SocketEndpoint =
  | { kind: 'unix'; path: string }
  | { kind: 'tcp'; host: string; port: number }
  | { kind: 'ssl'; host: string; port: number };

/** A transport we do not open ourselves: `describe` names it in errors, `open` gives a fresh Duplex. */
export interface StreamEndpoint {
  kind: 'stream';
  describe: string;
  open(): Promise<Duplex>;
}

export type Endpoint = SocketEndpoint | StreamEndpoint;

function parsePort(text: string, remote: string, field: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) {
    throw new OvsdbValueError(field, remote, `port "${text}" is not a number from 1 to 65535`);
  }
  return port;
}

function parseHostPort(rest: string, remote: string, field: string): { host: string; port: number } {
  const [, host, port] = /^\[([0-9a-fA-F:.]+)\]:([^:]*)$/.exec(rest) ?? /^([^:[\]]+):([^:]*)$/.exec(rest) ?? [];
  if (host === undefined || port === undefined)
    throw new OvsdbValueError(field, remote, 'expected HOST:PORT (IPv6 hosts in brackets, e.g. [::1]:6641)');
  return { host, port: parsePort(port, remote, field) };
}

/** One remote, e.g. `tcp:127.0.0.1:6641`, `ssl:[fd00::1]:6641` or `unix:/run/ovn/ovnnb_db.sock`. */
export function parseEndpoint(remote: string, field = 'endpoint'): SocketEndpoint {
  const text = remote.trim();
  const colon = text.indexOf(':');
  const scheme = colon < 0 ? text : text.slice(0, colon);
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  if (scheme === 'unix') {
    if (rest === '') throw new OvsdbValueError(field, remote, 'unix: needs a socket path');
    return { kind: 'unix', path: rest };
  }
  if (scheme === 'tcp' || scheme === 'ssl') return { kind: scheme, ...parseHostPort(rest, remote, field) };
  throw new OvsdbValueError(field, remote, 'expected unix:PATH, tcp:HOST:PORT or ssl:HOST:PORT');
}

/** A comma-separated list of remotes (a clustered database names every member). */
export function parseEndpoints(remotes: string, field = 'endpoint'): SocketEndpoint[] {
  const parts = remotes.split(',').filter((part) => part.trim() !== '');
  if (parts.length === 0) throw new OvsdbValueError(field, remotes, 'names no remote');
  return parts.map((part, index) => parseEndpoint(part, parts.length > 1 ? `${field}[${index}]` : field));
}

export function describeEndpoint(endpoint: Endpoint): string {
  switch (endpoint.kind) {
    case 'unix':
      return `unix:${endpoint.path}`;
    case 'stream':
      return endpoint.describe;
    default:
      return `${endpoint.kind}:${endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host}:${endpoint.port}`;
  }
}
