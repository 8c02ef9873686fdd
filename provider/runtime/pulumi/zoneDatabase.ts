/**
 * A zone's Northbound connection for the providers: `unix:`, `tcp:` and `ssl:` endpoints (with the
 * configured TLS material) from the runtime's shared pool, `ssh://user@host[:port]/unix:/path`
 * ones through an SSH tunnel to the remote socket (provider/host, host key pinned), pooled here
 * per endpoint with one SSH connection per host.
 */
import { HostPool } from '../../host/pool';
import { openUnixSocketStream } from '../../host/stream';
import { OvsdbClient, type OvsdbDatabase } from '../../ovsdb/client';
import { nbConnection, TargetUnreachableError } from '../connections';
import { ConfigError, requireEndpoint, requireSsh, tlsMaterial } from './settings';

const hosts = new HostPool();
const tunnels = new Map<string, Promise<OvsdbClient>>();

export interface SshEndpoint {
  user: string;
  host: string;
  port: number;
  socketPath: string;
}

const SSH_ENDPOINT = /^ssh:\/\/([^@/\s]+)@(\[[0-9a-fA-F:]+\]|[^:/\s]+)(?::(\d+))?\/unix:(\/\S+)$/;

export function parseSshEndpoint(endpoint: string, field: string): SshEndpoint {
  const match = SSH_ENDPOINT.exec(endpoint);
  if (!match) throw new ConfigError(`${field}: "${endpoint}" is not ssh://user@host[:port]/unix:/path/to/nb.sock`);
  const port = match[3] === undefined ? 22 : Number(match[3]);
  if (port < 1 || port > 65535) throw new ConfigError(`${field}: "${endpoint}" has port ${port}, outside 1..65535`);
  return { user: match[1]!, host: match[2]!.replace(/^\[|\]$/g, ''), port, socketPath: match[4]! };
}

async function tunnel(endpoint: string, field: string): Promise<OvsdbDatabase> {
  let client = tunnels.get(endpoint);
  if (!client) {
    const target = parseSshEndpoint(endpoint, field);
    const ssh = requireSsh(endpoint);
    const runner = hosts.runner({
      host: target.host,
      port: target.port,
      user: target.user,
      privateKey: ssh.privateKey,
      hostKey: ssh.hostKey,
    });
    client = OvsdbClient.connect(openUnixSocketStream(runner, target.socketPath), { connectTimeoutMs: 10_000 });
    tunnels.set(endpoint, client);
    client.catch(() => tunnels.delete(endpoint));
  }
  try {
    const db = await client;
    if (db.isOpen) return db;
    tunnels.delete(endpoint);
    return tunnel(endpoint, field);
  } catch (error) {
    throw new TargetUnreachableError(endpoint, (error as Error).message);
  }
}

export async function zoneDatabase(zone: string): Promise<OvsdbDatabase> {
  const endpoint = requireEndpoint(zone);
  const field = `zone ${zone}`;
  if (endpoint.startsWith('ssh://')) return tunnel(endpoint, field);
  return nbConnection(endpoint, field, endpoint.startsWith('ssl:') ? { tls: tlsMaterial() } : {});
}
