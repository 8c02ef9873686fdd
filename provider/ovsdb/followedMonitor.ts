/**
 * A monitor that outlives its connection: the cluster client (cluster.ts) attaches it to whichever
 * member leads, and attaches it again to the next leader. What the listener misses in between is
 * re-synced on the new member: monitor_cond_since resumes after the last transaction id seen (the
 * members of a RAFT cluster share them), so only the missed changes arrive, as ordinary inserts,
 * modifications and deletes; where the server no longer knows that id, or the monitor is a plain
 * `monitor` or `monitor_cond`, every row is fetched again and the listener gets one update marked
 * `resync`: every row as it is now (kind `initial`) and a `delete` for each row it saw before that
 * is gone, so applying it as usual leaves exactly the server's rows.
 */
import type { MonitorOptions, OvsdbClient } from './client';
import type { MonitorRequest, MonitorUpdate, RowUpdate, TableUpdates } from './monitor';

export interface FollowOptions extends MonitorOptions {
  /** Called when the monitor cannot be attached to a new leader for a reason other than the transport; it then ends. */
  onError?: (error: Error) => void;
}

export class FollowedMonitor {
  /** The rows of the first attach (kind `initial`): what `monitor()` returns. */
  initial?: TableUpdates;
  found?: boolean;
  lastTxnId?: string;
  private client?: OvsdbClient;
  private cancelInner?: () => Promise<void>;
  /** Per table, the uuids of the rows the listener holds (to name the ones gone at a resync). */
  private readonly known = new Map<string, Set<string>>();

  constructor(
    readonly db: string,
    private readonly requests: Record<string, MonitorRequest>,
    private readonly listener: (update: MonitorUpdate) => void,
    readonly options: FollowOptions,
  ) {}

  /** Starts the monitor on `client` (nothing when it runs there already); later attaches re-sync the listener. */
  async attach(client: OvsdbClient): Promise<void> {
    if (this.client === client) return;
    const first = this.initial === undefined;
    const resume = !first && this.method === 'monitor_cond_since' ? this.lastTxnId : this.options.lastTxnId;
    const requests = first ? this.requests : withInitialRows(this.requests);
    const monitor = await client.monitor(this.db, requests, (update) => this.deliver(update), {
      method: this.method,
      ...(resume ? { lastTxnId: resume } : {}),
    });
    this.client = client;
    this.cancelInner = monitor.cancel;
    if (monitor.lastTxnId !== undefined) this.lastTxnId = monitor.lastTxnId;
    if (first) {
      this.initial = monitor.initial;
      this.found = monitor.found;
      this.track(monitor.initial);
    } else if (monitor.found === true) this.deliver({ tables: monitor.initial });
    else this.deliver({ tables: this.resynced(monitor.initial), resync: true });
  }

  /** Stops the monitor where it runs (if that connection is still open). */
  async cancel(): Promise<void> {
    const cancel = this.cancelInner;
    this.client = undefined;
    this.cancelInner = undefined;
    if (cancel) await cancel().catch(() => undefined);
  }

  private get method() {
    return this.options.method ?? 'monitor';
  }

  private deliver(update: MonitorUpdate): void {
    if (update.lastTxnId !== undefined) this.lastTxnId = update.lastTxnId;
    if (Object.values(update.tables).every((rows) => rows.length === 0)) return;
    this.track(update.tables);
    this.listener(update);
  }

  private track(tables: TableUpdates): void {
    for (const [table, rows] of Object.entries(tables)) {
      let uuids = this.known.get(table);
      if (!uuids) this.known.set(table, (uuids = new Set()));
      for (const row of rows) {
        if (row.kind === 'delete') uuids.delete(row.uuid);
        else uuids.add(row.uuid);
      }
    }
  }

  /** Every row now, plus a delete for each row held before that the server no longer has. */
  private resynced(now: TableUpdates): TableUpdates {
    const tables: TableUpdates = {};
    for (const table of new Set([...Object.keys(now), ...this.known.keys()])) {
      const rows = now[table] ?? [];
      const present = new Set(rows.map((row) => row.uuid));
      const gone: RowUpdate[] = [...(this.known.get(table) ?? [])]
        .filter((uuid) => !present.has(uuid))
        .map((uuid) => ({ uuid, kind: 'delete' }));
      if (rows.length + gone.length > 0) tables[table] = [...rows, ...gone];
    }
    return tables;
  }
}

/** A re-sync needs the current rows even where the caller asked for none at the start. */
function withInitialRows(requests: Record<string, MonitorRequest>): Record<string, MonitorRequest> {
  return Object.fromEntries(
    Object.entries(requests).map(([table, request]) => [
      table,
      request.select ? { ...request, select: { ...request.select, initial: true } } : request,
    ]),
  );
}
