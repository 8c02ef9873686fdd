/**
 * A database served by several remotes (a RAFT cluster): find the leader through the `_Server`
 * database, send everything there, and follow it: a closed connection, a request that got no
 * reply, or `_Server` saying our member is no longer leader makes the next call look for the
 * leader again. Only transport failures are retried (until `failoverTimeoutMs`); operation errors
 * are the server's answer and are thrown as they are. A transaction whose connection broke before
 * its reply may have committed, so it is sent again only when that is safe (`resendable`): it only
 * reads, or a `wait` guards it (a resend of one that committed fails its guard instead of writing
 * twice; runtime/commit.ts reads its marker back then). An unguarded write is not sent again: its
 * transport error says the outcome is unknown. A member that answered "not leader" did nothing.
 * Monitors follow the leader too, without waiting for a call: when the leader's connection closes
 * or it stops leading, the next leader is looked for at once and every monitor is attached there
 * and re-synced (followedMonitor.ts).
 */
import {
  OvsdbClient,
  type ClientOptions,
  type Monitor,
  type OvsdbDatabase,
  type TransactOptions,
  type TransactResult,
} from './client';
import { describeEndpoint, parseEndpoints, type Endpoint } from './endpoint';
import { OvsdbRpcError, OvsdbTransportError } from './errors';
import { FollowedMonitor, type FollowOptions } from './followedMonitor';
import type { MonitorRequest, MonitorUpdate } from './monitor';
import type { Operation } from './notation';
import type { DatabaseSchema } from './schema';

export interface ClusterOptions extends ClientOptions {
  /** How long to look for a leader and retry transport failures, in total per call. */
  failoverTimeoutMs?: number;
  /** Pause between rounds over all remotes while an election runs. */
  retryDelayMs?: number;
}

let followedCount = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `_Server.Database` (ovsdb-server(5)): is this member the leader and connected to its cluster? */
async function isLeader(client: OvsdbClient, db: string): Promise<boolean> {
  const [result] = await client.transact('_Server', [
    { op: 'select', table: 'Database', where: [['name', '==', db]], columns: ['leader', 'connected'] },
  ]);
  const row = result?.rows?.[0];
  return row?.leader === true && row?.connected === true;
}

const READ_ONLY = new Set(['select', 'comment', 'assert', 'wait']);

/** May the transaction be sent again after its connection broke without a reply? (See the header.) */
export function resendable(operations: readonly Operation[]): boolean {
  return operations.some((op) => op.op === 'wait') || operations.every((op) => READ_ONLY.has(op.op));
}

function isTransportFailure(error: unknown): boolean {
  return error instanceof OvsdbTransportError || (error instanceof OvsdbRpcError && error.error === 'not leader');
}

export class OvsdbClusterClient implements OvsdbDatabase {
  private current?: OvsdbClient;
  private stale = false;
  private next = 0;
  private closed = false;
  private searching?: Promise<OvsdbClient>;
  private following = false;
  private readonly monitors = new Set<FollowedMonitor>();

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
    return this.withLeader((client) => client.transact(db, operations, options), resendable(operations));
  }

  /** The connection to the current leader (found first if needed). */
  async leader(): Promise<OvsdbClient> {
    return this.withLeader(async (client) => client);
  }

  /**
   * A monitor on the leader that follows it (see the header): `listener` gets every later update,
   * including the re-sync after a failover (`resync` set when it could not resume).
   */
  async monitor(
    db: string,
    requests: Record<string, MonitorRequest>,
    listener: (update: MonitorUpdate) => void,
    options: FollowOptions = {},
  ): Promise<Monitor> {
    const followed = new FollowedMonitor(db, requests, listener, options);
    this.monitors.add(followed);
    try {
      await this.withLeader((client) => followed.attach(client));
    } catch (error) {
      this.monitors.delete(followed);
      throw error;
    }
    const cancel = async () => {
      this.monitors.delete(followed);
      await followed.cancel();
    };
    return {
      id: `ovnk-followed-${++followedCount}`,
      initial: followed.initial!,
      ...(followed.found === undefined ? {} : { found: followed.found }),
      ...(followed.lastTxnId === undefined ? {} : { lastTxnId: followed.lastTxnId }),
      cancel,
    };
  }

  close(): void {
    this.closed = true;
    this.monitors.clear();
    this.current?.close();
    this.current = undefined;
  }

  /**
   * `body` on the leader, again on the next one after a transport failure (with `resend` false,
   * only after "not leader").
   */
  private async withLeader<T>(body: (client: OvsdbClient) => Promise<T>, resend = true): Promise<T> {
    const deadline = Date.now() + (this.options.failoverTimeoutMs ?? 30_000);
    for (;;) {
      const client = await this.findLeader(deadline);
      try {
        return await body(client);
      } catch (error) {
        if (isTransportFailure(error)) this.lost(client);
        if (!isTransportFailure(error) || Date.now() >= deadline) throw error;
        if (!resend && error instanceof OvsdbTransportError) throw error;
      }
    }
  }

  /** Forgets `client` before closing it, so its close is not taken for a lost leader. */
  private drop(client: OvsdbClient): void {
    if (this.current === client) this.current = undefined;
    client.close();
  }

  /** The leader: the current one while it is open and leads, else one search shared by every caller. */
  private findLeader(deadline: number): Promise<OvsdbClient> {
    if (this.closed)
      return Promise.reject(new OvsdbTransportError(this.endpoint, 'closed', 'cluster client is closed'));
    if (this.current?.isOpen && !this.stale) return Promise.resolve(this.current);
    this.searching ??= this.search(deadline).finally(() => (this.searching = undefined));
    return this.searching;
  }

  private async search(deadline: number): Promise<OvsdbClient> {
    if (this.current) this.drop(this.current);
    const failures: string[] = [];
    for (;;) {
      for (let tried = 0; tried < this.endpoints.length; tried++) {
        const index = (this.next + tried) % this.endpoints.length;
        const found = await this.tryMember(this.endpoints[index]!, failures);
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

  /** Watches `_Server` so a leadership loss without a closed connection is noticed too; attaches the monitors. */
  private async watch(client: OvsdbClient): Promise<OvsdbClient> {
    client.onClose(() => this.lost(client));
    await client.monitor('_Server', { Database: { columns: ['name', 'leader', 'connected'] } }, (update) => {
      for (const row of update.tables.Database ?? []) {
        const lost = row.new?.leader === false || row.new?.connected === false;
        if (row.new?.name === this.db && lost) this.lost(client);
      }
    });
    for (const monitor of this.monitors) {
      try {
        await monitor.attach(client);
      } catch (error) {
        if (isTransportFailure(error)) throw error;
        this.monitors.delete(monitor);
        monitor.options.onError?.(error as Error);
      }
    }
    return client;
  }

  /** Our member closed, failed or stopped leading: the next call looks again; with monitors, look now. */
  private lost(client: OvsdbClient): void {
    if (this.current !== client || this.closed) return;
    this.stale = true;
    if (this.monitors.size > 0) void this.follow();
  }

  /** Looks for a leader until one is found (monitors attach there) or nothing is left to follow. */
  private async follow(): Promise<void> {
    if (this.following) return;
    this.following = true;
    try {
      while (!this.closed && this.monitors.size > 0) {
        try {
          await this.findLeader(Date.now() + (this.options.failoverTimeoutMs ?? 30_000));
          return;
        } catch {
          await sleep(this.options.retryDelayMs ?? 200);
        }
      }
    } finally {
      this.following = false;
    }
  }
}
