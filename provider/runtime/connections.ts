/**
 * Module-level Northbound connections: one per endpoint text, shared by every CLI action and
 * provider call of this process. A comma-separated endpoint is a RAFT cluster (leader-following
 * client). Connecting failures become TargetUnreachableError naming the endpoint.
 */
import { OvsdbClient, type ClientOptions, type OvsdbDatabase } from '../ovsdb/client';
import { OvsdbClusterClient } from '../ovsdb/cluster';
import { OvsdbTransportError, OvsdbValueError } from '../ovsdb/errors';

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

async function open(endpoint: string, options: ClientOptions): Promise<OvsdbDatabase> {
  if (endpoint.includes(',')) {
    const cluster = new OvsdbClusterClient(endpoint, NB_DATABASE, options);
    await cluster.listDbs();
    return cluster;
  }
  return OvsdbClient.connect(endpoint, options);
}

/** The shared connection to `endpoint`; `field` names where the endpoint came from in errors. */
export async function nbConnection(
  endpoint: string,
  field = 'endpoint',
  options: ClientOptions = {},
): Promise<OvsdbDatabase> {
  let connection = pool.get(endpoint);
  if (!connection) {
    connection = open(endpoint, { connectTimeoutMs: 5000, ...options });
    pool.set(endpoint, connection);
    connection.catch(() => pool.delete(endpoint));
  }
  try {
    const db = await connection;
    if (db instanceof OvsdbClient && !db.isOpen) {
      pool.delete(endpoint);
      return nbConnection(endpoint, field, options);
    }
    return db;
  } catch (error) {
    if (error instanceof OvsdbValueError) throw new EndpointError(endpoint, field, error.reason);
    if (error instanceof OvsdbTransportError) throw new TargetUnreachableError(endpoint, error.message);
    const code = (error as NodeJS.ErrnoException).code;
    throw new TargetUnreachableError(endpoint, code ?? (error as Error).message);
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
}
