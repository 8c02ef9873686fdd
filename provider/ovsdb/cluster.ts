/**
 * A database served by several remotes (a RAFT cluster): find the leader through the `_Server`
 * database, send everything there, and follow it: a closed connection, a request that got no
 * reply, or `_Server` saying our member is no longer leader makes the next call look for the
 * leader again. Only transport failures are retried (until `failoverTimeoutMs`); operation errors
 * are the server's answer and are thrown as they are. A transaction whose connection broke before
 * its reply may have committed; callers guard writes with `wait` operations (the reconcile does).
 */
import {
  OvsdbClient,
  type ClientOptions,
  type OvsdbDatabase,
  type TransactOptions,
  type TransactResult,
} from './client';
import { describeEndpoint, parseEndpoints, type Endpoint } from './endpoint';
import { OvsdbRpcError, OvsdbTransportError } from './errors';
import type { Operation } from './notation';
import type { DatabaseSchema } from './schema';

export interface ClusterOptions extends ClientOptions {
  /** How long to look for a leader and retry transport failures, in total per call. */
  failoverTimeoutMs?: number;
  /** Pause between rounds over all remotes while an election runs. */
  retryDelayMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `_Server.Database` (ovsdb-server(5)): is this member the leader and connected to its cluster? */
async function isLeader(client: OvsdbClient, db: string): Promise<boolean> {
  const [result] = await client.transact('_Server', [
    { op: 'select', table: 'Database', where: [['name', '==', db]], columns: ['leader', 'connected'] },
  ]);
  const row = result.rows?.[0];
  return row?.leader === true && row?.connected === true;
}

function isTransportFailure(error: unknown): boolean {
  return error instanceof OvsdbTransportError || (error instanceof OvsdbRpcError && error.error === 'not leader');
}

export class OvsdbClusterClient implements OvsdbDatabase {
  private current?: OvsdbClient;
  private stale = false;
  private next = 0;
  private closed = false;

  /**
   * @param remotes comma-separated `unix:`/`tcp:`/`ssl:` remotes or endpoints (stream openers too)
   * @param db the database whose leader we write to, e.g. `OVN_Northbound`
   */
  constructor(
    remotes: string | Endpoint[],
    readonly db: string,
    private readonly options: ClusterOptions = {},
  ) {
    this.endpoints = typeof remotes === 'string' ? parseEndpoints(remotes) : remotes;
  }

  private readonly endpoints: Endpoint[];

  /** The member we currently talk to, or the list of remotes before the first call. */
  get endpoint(): string {
    return this.current?.endpoint ?? this.endpoints.map(describeEndpoint).join(',');
  }

  listDbs(): Promise<string[]> {
    return this.withLeader((client) => client.listDbs());
  }

  getSchema(db: string): Promise<DatabaseSchema> {
    return this.withLeader((client) => client.getSchema(db));
  }

  /** A transaction on the leader; retried on another member only after a transport failure. */
  transact(db: string, operations: Operation[], options?: TransactOptions): Promise<TransactResult[]> {
    return this.withLeader((client) => client.transact(db, operations, options));
  }

  /** The connection to the current leader (found first if needed). */
  async leader(): Promise<OvsdbClient> {
    return this.withLeader(async (client) => client);
  }

  close(): void {
    this.closed = true;
    this.current?.close();
    this.current = undefined;
  }

  private async withLeader<T>(body: (client: OvsdbClient) => Promise<T>): Promise<T> {
    const deadline = Date.now() + (this.options.failoverTimeoutMs ?? 30_000);
    for (;;) {
      const client = await this.findLeader(deadline);
      try {
        return await body(client);
      } catch (error) {
        if (!isTransportFailure(error) || Date.now() >= deadline) throw error;
        this.drop(client);
      }
    }
  }

  private drop(client: OvsdbClient): void {
    client.close();
    if (this.current === client) this.current = undefined;
  }

  private async findLeader(deadline: number): Promise<OvsdbClient> {
    if (this.closed) throw new OvsdbTransportError(this.endpoint, 'closed', 'cluster client is closed');
    if (this.current?.isOpen && !this.stale) return this.current;
    if (this.current) this.drop(this.current);
    const failures: string[] = [];
    for (;;) {
      for (let tried = 0; tried < this.endpoints.length; tried++) {
        const index = (this.next + tried) % this.endpoints.length;
        const found = await this.tryMember(this.endpoints[index], failures);
        if (found) {
          this.next = index;
          this.current = found;
          this.stale = false;
          return found;
        }
      }
      if (Date.now() >= deadline) {
        throw new OvsdbTransportError(
          this.endpoint,
          'unreachable',
          `no leader for ${this.db}: ${failures.slice(-this.endpoints.length).join('; ')}`,
        );
      }
      await sleep(this.options.retryDelayMs ?? 200);
    }
  }

  private async tryMember(endpoint: Endpoint, failures: string[]): Promise<OvsdbClient | undefined> {
    let client: OvsdbClient | undefined;
    try {
      client = await OvsdbClient.connect(endpoint, { connectTimeoutMs: 2_000, ...this.options });
      if (await isLeader(client, this.db)) return await this.watch(client);
      failures.push(`${client.endpoint} is not the leader`);
    } catch (error) {
      if (!isTransportFailure(error)) throw error;
      failures.push((error as Error).message.replace(/^ovsdb: /, ''));
    }
    client?.close();
    return undefined;
  }

  /** Watches `_Server` so a leadership loss without a closed connection is noticed too. */
  private async watch(client: OvsdbClient): Promise<OvsdbClient> {
    await client.monitor('_Server', { Database: { columns: ['name', 'leader', 'connected'] } }, (update) => {
      for (const row of update.tables.Database ?? []) {
        const lost = row.new?.leader === false || row.new?.connected === false;
        if (row.new?.name === this.db && lost && this.current === client) this.stale = true;
      }
    });
    return client;
  }
}
