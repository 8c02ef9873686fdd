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

/**
 * One pooled connection: kept for the process's life once a caller took it so (nbConnection: the
 * providers reuse it across calls), else closed when its last lease is released (a CLI zone run's,
 * so a run over many zones holds only the zones in flight).
 */
interface Pooled {
  connection?: Promise<OvsdbDatabase>;
  leases: number;
  kept: boolean;
}

const pool = new Map<string, Pooled>();

/** The pool's key: the endpoint and a digest (in memory only) of the material it connects with. */
function poolKey(endpoint: string, options: NbOptions): string {
  const { tls, ssh } = options;
  return `${endpoint}#${credentialDigest(canonicalJson([tls, ssh]))}`;
}

function entryOf(key: string): Pooled {
  let entry = pool.get(key);
  if (!entry) {
    entry = { leases: 0, kept: false };
    pool.set(key, entry);
  }
  return entry;
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

/** The entry's open connection: opened (again) when it has none, or the one it had failed or closed. */
async function openIn(entry: Pooled, endpoint: string, field: string, options: NbOptions): Promise<OvsdbDatabase> {
  const connection = (entry.connection ??= open(endpoint, field, { connectTimeoutMs: 5000, ...options }));
  try {
    const db = await connection;
    if (db instanceof OvsdbClient && !db.isOpen) {
      if (entry.connection === connection) entry.connection = undefined;
      return openIn(entry, endpoint, field, options);
    }
    return db;
  } catch (error) {
    if (entry.connection === connection) entry.connection = undefined;
    throw unreachable(error, endpoint, field);
  }
}

/** A connecting failure as the error that names the endpoint (never a credential). */
function unreachable(error: unknown, endpoint: string, field: string): Error {
  if (error instanceof EndpointError || error instanceof TargetUnreachableError) return error;
  if (error instanceof OvsdbValueError) return new EndpointError(endpoint, field, error.reason);
  if (error instanceof OvsdbTransportError) return new TargetUnreachableError(endpoint, error.message);
  const code = (error as NodeJS.ErrnoException).code;
  return new TargetUnreachableError(endpoint, code ?? (error as Error).message);
}

/** The shared connection to `endpoint`, kept until closeConnections; `field` names the endpoint's source in errors. */
export async function nbConnection(
  endpoint: string,
  field = 'endpoint',
  options: NbOptions = {},
): Promise<OvsdbDatabase> {
  const entry = entryOf(poolKey(endpoint, options));
  entry.kept = true;
  const db = await openIn(entry, endpoint, field, options);
  reopeners.set(db, () => nbConnection(endpoint, field, options));
  return db;
}

/** A pooled connection held for one piece of work; `release` ends the hold (at most once). */
export interface NbLease {
  db: OvsdbDatabase;
  release(): Promise<void>;
}

/**
 * The pooled connection to `endpoint` for one piece of work (a CLI zone run): shared with any other
 * holder of the same endpoint and material, and closed when the last lease is released unless
 * nbConnection keeps it. Nothing of a connection outlives a zone's run (no monitor or lock),
 * so a run over many zones holds only the zones in flight (sockets, and servers' sessions).
 */
export async function leaseConnection(endpoint: string, field = 'endpoint', options: NbOptions = {}): Promise<NbLease> {
  const key = poolKey(endpoint, options);
  const entry = entryOf(key);
  entry.leases++;
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    if (--entry.leases > 0 || entry.kept) return;
    if (pool.get(key) === entry) pool.delete(key);
    await closeOne(entry.connection);
  };
  try {
    const db = await openIn(entry, endpoint, field, options);
    reopeners.set(db, () => openIn(entry, endpoint, field, options));
    return { db, release };
  } catch (error) {
    await release();
    throw error;
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

/** `work` on the database of `open`, released when the work ends (whatever it did). */
export async function withLease<T>(open: () => Promise<NbLease>, work: (db: OvsdbDatabase) => Promise<T>): Promise<T> {
  const lease = await open();
  try {
    return await work(lease.db);
  } finally {
    await lease.release();
  }
}

async function closeOne(connection: Promise<OvsdbDatabase> | undefined): Promise<void> {
  try {
    (await connection)?.close();
  } catch {
    // a connection that never opened has nothing to close
  }
}

/** Close every pooled connection (the CLI does so before it exits). */
export async function closeConnections(): Promise<void> {
  const all = [...pool.values()];
  pool.clear();
  for (const entry of all) await closeOne(entry.connection);
  await closeTunnels();
}
