/**
 * Northbound endpoints tunnelled through SSH, `ssh://user@host[:port]/unix:/path`: a stream to the
 * remote unix socket forwarded over one SSH connection per host and credentials (provider/host:
 * the host key checked against its pin, a key or an agent's keys), one OVSDB client per endpoint
 * and credentials. The CLI and the providers share it; the credentials come from their caller
 * (flags, stack config), and only a key file's path, never key material, can appear in an error.
 */
import type { HostKeyPin } from '../host/hostkey';
import { HostPool, trustKey } from '../host/pool';
import type { SshTarget } from '../host/ssh';
import { openUnixSocketStream } from '../host/stream';
import { failure, type Outcome, success } from '../model/outcome';
import { OvsdbClient, type OvsdbDatabase } from '../ovsdb/client';

/** How to reach a host over SSH: a key (material or a file) and/or an agent, and the host-key pin. */
export interface SshCredentials {
  /** Private key material (e.g. a Pulumi secret). */
  privateKey?: string;
  /** A private key file, read at connect time. */
  keyPath?: string;
  /** An SSH agent's socket (SSH_AUTH_SOCK). */
  agent?: string;
  hostKey: HostKeyPin;
}

export interface SshEndpoint {
  user: string;
  host: string;
  port: number;
  socketPath: string;
}

const SSH_ENDPOINT = /^ssh:\/\/([^@/\s]+)@(\[[0-9a-fA-F:]+\]|[^:/\s]+)(?::(\d+))?\/unix:(\/\S+)$/;

/** The parts of an ssh:// endpoint, or why it is not one (for the caller's error). */
export function parseSshEndpoint(endpoint: string): Outcome<SshEndpoint> {
  const match = SSH_ENDPOINT.exec(endpoint);
  if (!match) return failure('is not ssh://user@host[:port]/unix:/path/to/nb.sock');
  const port = match[3] === undefined ? 22 : Number(match[3]);
  if (port < 1 || port > 65535) return failure(`has port ${port}, outside 1..65535`);
  return success({ user: match[1]!, host: match[2]!.replace(/^\[|\]$/g, ''), port, socketPath: match[4]! });
}

const hosts = new HostPool();
const tunnels = new Map<string, Promise<OvsdbClient>>();

/** The pooled client of an ssh:// endpoint (already parsed); failures are the host layer's errors. */
export async function tunnelConnection(
  endpoint: string,
  target: SshEndpoint,
  ssh: SshCredentials,
  connectTimeoutMs: number,
): Promise<OvsdbDatabase> {
  const host: SshTarget = {
    host: target.host,
    port: target.port,
    user: target.user,
    ...(ssh.privateKey !== undefined ? { privateKey: ssh.privateKey } : {}),
    ...(ssh.keyPath !== undefined ? { keyPath: ssh.keyPath } : {}),
    ...(ssh.agent !== undefined ? { agent: ssh.agent } : {}),
    hostKey: ssh.hostKey,
    connectTimeoutMs,
  };
  // one tunnel per socket and credentials: another cluster's key or pin never rides on this one
  const key = `${trustKey(host)}${target.socketPath}`;
  let client = tunnels.get(key);
  if (!client) {
    const runner = hosts.runner(host);
    client = OvsdbClient.connect(openUnixSocketStream(runner, target.socketPath), { connectTimeoutMs });
    tunnels.set(key, client);
    client.catch(() => tunnels.delete(key));
  }
  const db = await client;
  if (db.isOpen) return db;
  tunnels.delete(key);
  return tunnelConnection(endpoint, target, ssh, connectTimeoutMs);
}

/** Close every tunnelled client and its SSH connection. */
export async function closeTunnels(): Promise<void> {
  const all = [...tunnels.values()];
  tunnels.clear();
  for (const client of all) (await client.catch(() => undefined))?.close();
  await hosts.closeAll();
}
