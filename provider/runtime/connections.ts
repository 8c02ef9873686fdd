/**
 * Module-level Northbound connections: one per endpoint text and credentials, shared by every CLI
 * action and provider call of this process (two clusters naming one endpoint with different TLS
 * or SSH material get a connection each). A comma-separated endpoint is a RAFT cluster (leader-following
 * client); `ssl:` takes the caller's TLS material; `ssh://user@host[:port]/unix:/path` is
 * tunnelled (tunnel.ts) with the caller's SSH credentials. Connecting failures become
 * TargetUnreachableError naming the endpoint (never a credential).
 */
import { credentialDigest } from '../host/credentials';
import { canonicalJson } from '../model/canonical';
import { OvsdbClient, type ClientOptions, type OvsdbDatabase } from '../ovsdb/client';
import { OvsdbClusterClient } from '../ovsdb/cluster';
import { OvsdbTransportError, OvsdbValueError } from '../ovsdb/errors';
import { closeTunnels, parseSshEndpoint, type SshCredentials, tunnelConnection } from './tunnel';

/** How to open a Northbound: client options, TLS material for `ssl:`, SSH credentials for `ssh://`. */
export type NbOptions = ClientOptions & { ssh?: SshCredentials };

export const NB_DATABASE = 'OVN_Northbound';

/** The Northbound of a zone cannot be reached (or failed at the transport level). */
export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
  constructor(
    readonly endpoint: string,
    detail: string,
  ) {
    super(`cannot reach the Northbound at ${endpoint}: ${detail}`);
  }
}

/** An endpoint text that is not OVSDB syntax. */
export class EndpointError extends Error {
  override name = 'EndpointError';
  constructor(
    readonly endpoint: string,
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: "${endpoint}" ${reason}`);
  }
}

const pool = new Map<string, Promise<OvsdbDatabase>>();

/** The pool's key: the endpoint and a digest (in memory only) of the material it connects with. */
function poolKey(endpoint: string, options: NbOptions): string {
  const { tls, ssh } = options;
  return `${endpoint}#${credentialDigest(canonicalJson([tls, ssh]))}`;
}
/** How to reach each pooled connection's endpoint again (after it failed). */
const reopeners = new WeakMap<OvsdbDatabase, () => Promise<OvsdbDatabase>>();

async function open(endpoint: string, field: string, options: NbOptions): Promise<OvsdbDatabase> {
  if (endpoint.startsWith('ssh://')) return tunnel(endpoint, field, options);
  if (endpoint.includes(',')) {
    const cluster = new OvsdbClusterClient(endpoint, NB_DATABASE, options);
    await cluster.listDbs();
    return cluster;
  }
  return OvsdbClient.connect(endpoint, options);
}

async function tunnel(endpoint: string, field: string, options: NbOptions): Promise<OvsdbDatabase> {
  const parsed = parseSshEndpoint(endpoint);
  if (!parsed.ok) throw new EndpointError(endpoint, field, parsed.why);
  const target = parsed.value;
  if (!options.ssh)
    throw new EndpointError(
      endpoint,
      field,
      'is tunnelled through SSH: it needs a key or an agent and a pinned host key',
    );
  try {
    return await tunnelConnection(endpoint, target, options.ssh, options.connectTimeoutMs ?? 10_000);
  } catch (error) {
    throw new TargetUnreachableError(endpoint, (error as Error).message);
  }
}

/** The shared connection to `endpoint`; `field` names where the endpoint came from in errors. */
export async function nbConnection(
  endpoint: string,
  field = 'endpoint',
  options: NbOptions = {},
): Promise<OvsdbDatabase> {
  const key = poolKey(endpoint, options);
  let connection = pool.get(key);
  if (!connection) {
    connection = open(endpoint, field, { connectTimeoutMs: 5000, ...options });
    pool.set(key, connection);
    connection.catch(() => pool.delete(key));
  }
  try {
    const db = await connection;
    if (db instanceof OvsdbClient && !db.isOpen) {
      if (pool.get(key) === connection) pool.delete(key);
      return nbConnection(endpoint, field, options);
    }
    reopeners.set(db, () => nbConnection(endpoint, field, options));
    return db;
  } catch (error) {
    if (error instanceof EndpointError || error instanceof TargetUnreachableError) throw error;
    if (error instanceof OvsdbValueError) throw new EndpointError(endpoint, field, error.reason);
    if (error instanceof OvsdbTransportError) throw new TargetUnreachableError(endpoint, error.message);
    const code = (error as NodeJS.ErrnoException).code;
    throw new TargetUnreachableError(endpoint, code ?? (error as Error).message);
  }
}

/**
 * Runs `body` on a fresh connection to where `db` led, after `db` failed: the pool's (reopened)
 * when `db` came from it; a cluster client finds its leader again by itself; any other
 * connection is opened here by its endpoint text and closed afterwards.
 */
export async function withReconnected<T>(db: OvsdbDatabase, body: (db: OvsdbDatabase) => Promise<T>): Promise<T> {
  const reopen = reopeners.get(db);
  if (reopen !== undefined) return body(await reopen());
  if (db instanceof OvsdbClusterClient) return body(db);
  const fresh = await OvsdbClient.connect(db.endpoint, { connectTimeoutMs: 5000 });
  try {
    return await body(fresh);
  } finally {
    fresh.close();
  }
}

/** Close every pooled connection (the CLI does so before it exits). */
export async function closeConnections(): Promise<void> {
  const all = [...pool.values()];
  pool.clear();
  for (const connection of all) {
    try {
      (await connection).close();
    } catch {
      // a connection that never opened has nothing to close
    }
  }
  await closeTunnels();
}
