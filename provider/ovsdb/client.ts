/**
 * OvsdbClient: the database API of one connection (RFC 7047 section 4.1): list_dbs, get_schema,
 * transact (results checked and decoded, failures thrown as typed errors), monitor /
 * monitor_cond / monitor_cond_since with their notifications, monitor_cancel and echo. The wire
 * connection (framing, ids, timeouts, keepalive) is rpc.ts; several remotes are cluster.ts.
 */
import { decodeRowsInPlace, type PlainRow } from './codec';
import { describeEndpoint, parseEndpoint, type Endpoint } from './endpoint';
import { checkResults, type OvsdbTransportError } from './errors';
import {
  checkRequests,
  decodeTableUpdates,
  type MonitorMethod,
  type MonitorRequest,
  type MonitorUpdate,
  type TableUpdates,
  type WireTableUpdates,
} from './monitor';
import type { Operation, OperationResult } from './notation';
import type { RowUuids } from './rowUuids';
import { RpcConnection, type RpcOptions } from './rpc';
import { type DatabaseSchema, internSchema } from './schema';
import { transactParams } from './transactParams';
import { openTransport, type OpenOptions } from './transport';

export type ClientOptions = RpcOptions & OpenOptions;

/** A transact result with rows decoded by the server's column types and uuids as strings. */
export interface TransactResult {
  uuid?: string;
  rows?: PlainRow[];
  count?: number;
}

export interface TransactOptions {
  timeoutMs?: number;
  /**
   * Decode selected rows by this schema instead of the server's: for columns whose type is the
   * same in every version, so a read needs no `get_schema` of its own.
   */
  schema?: DatabaseSchema;
  /**
   * Uuids chosen for the named inserts (rowUuids.ts chooseRowUuids): sent in place of their
   * names, each operation resolved as it is written. Results and error indexes are the same.
   */
  rowUuids?: RowUuids;
}

export interface MonitorOptions {
  method?: MonitorMethod;
  /** monitor_cond_since: resume after this transaction id (all zeros: from scratch). */
  lastTxnId?: string;
}

export interface Monitor {
  id: string;
  initial: TableUpdates;
  /** monitor_cond_since: whether the server still knew `lastTxnId` (then `initial` is only the missed diff). */
  found?: boolean;
  lastTxnId?: string;
  cancel(): Promise<void>;
}

/** What one connection and a cluster of them both offer (cluster.ts adds failover). */
export interface OvsdbDatabase {
  readonly endpoint: string;
  listDbs(): Promise<string[]>;
  getSchema(db: string): Promise<DatabaseSchema>;
  transact(db: string, operations: Operation[], options?: TransactOptions): Promise<TransactResult[]>;
  close(): void;
}

const ZERO_TXN = '00000000-0000-0000-0000-000000000000';
let monitorCount = 0;

export class OvsdbClient implements OvsdbDatabase {
  private readonly schemas = new Map<string, Promise<DatabaseSchema>>();

  private constructor(private readonly rpc: RpcConnection) {}

  /** Connects to one endpoint (`unix:`, `tcp:`, `ssl:` text, or an Endpoint incl. a stream opener). */
  static async connect(endpoint: Endpoint | string, options: ClientOptions = {}): Promise<OvsdbClient> {
    const target = typeof endpoint === 'string' ? parseEndpoint(endpoint) : endpoint;
    const stream = await openTransport(target, options);
    return new OvsdbClient(new RpcConnection(stream, describeEndpoint(target), options));
  }

  get endpoint(): string {
    return this.rpc.endpoint;
  }

  get isOpen(): boolean {
    return this.rpc.isOpen;
  }

  listDbs(): Promise<string[]> {
    return this.rpc.request<string[]>('list_dbs', []);
  }

  /** The server's schema of `db`, fetched once per connection (one object per schema text: internSchema). */
  getSchema(db: string): Promise<DatabaseSchema> {
    let schema = this.schemas.get(db);
    if (!schema) {
      schema = this.rpc.request<DatabaseSchema>('get_schema', [db]).then(internSchema);
      schema.catch(() => this.schemas.delete(db));
      this.schemas.set(db, schema);
    }
    return schema;
  }

  /**
   * One atomic transaction. Returns one result per operation (inserted uuids, selected rows
   * decoded, counts); throws the typed OvsdbOperationError of the failing operation or commit.
   * A large one is written while it is serialized (transactParams.ts, outbox.ts).
   * @throws OvsdbOperationError subclasses, OvsdbRpcError, OvsdbTransportError
   */
  async transact(db: string, operations: Operation[], options: TransactOptions = {}): Promise<TransactResult[]> {
    const needsSchema = operations.some((op) => op.op === 'select');
    const schema = needsSchema ? (options.schema ?? (await this.getSchema(db))) : undefined;
    const results = await this.rpc.request<(OperationResult | null)[]>(
      'transact',
      transactParams(db, operations, options.rowUuids),
      options.timeoutMs,
    );
    // checkResults returns exactly one result per operation, in order
    const checked = checkResults(operations, results, this.endpoint);
    for (let index = 0; index < checked.length; index++)
      decodeResultInPlace(checked[index]!, schema, operations[index]!);
    return checked as TransactResult[];
  }

  /** Sends our own echo; resolves when the server answers. */
  async echo(): Promise<void> {
    await this.rpc.request('echo', []);
  }

  /**
   * Starts a monitor; `listener` gets every later update (including ones caused by our own
   * transactions, which may arrive before the transact reply).
   */
  async monitor(
    db: string,
    requests: Record<string, MonitorRequest>,
    listener: (update: MonitorUpdate) => void,
    options: MonitorOptions = {},
  ): Promise<Monitor> {
    const method = options.method ?? 'monitor';
    checkRequests(method, requests);
    const schema = await this.getSchema(db);
    const id = `ovnk-monitor-${++monitorCount}`;
    const unsubscribe = this.rpc.onNotification((name, params) => {
      const update = decodeNotification(name, params, id, schema);
      if (update) listener(update);
    });
    const wireRequests =
      method === 'monitor' ? requests : Object.fromEntries(Object.entries(requests).map(([t, r]) => [t, [r]]));
    const params =
      method === 'monitor_cond_since' ? [db, id, wireRequests, options.lastTxnId ?? ZERO_TXN] : [db, id, wireRequests];
    const cancel = async () => {
      unsubscribe();
      if (this.rpc.isOpen) await this.rpc.request('monitor_cancel', [id]);
    };
    try {
      const reply = await this.rpc.request<unknown>(method, params);
      return { id, cancel, ...decodeMonitorReply(method, reply, schema) };
    } catch (error) {
      unsubscribe();
      throw error;
    }
  }

  onClose(listener: (error: OvsdbTransportError) => void): void {
    this.rpc.onClose(listener);
  }

  close(): void {
    this.rpc.close();
  }
}

/**
 * A result decoded in place: its uuid as a string, its rows plain (a reply is parsed for this
 * alone, and a copy of each of 100,000 results was garbage). A successful result holds no other
 * members (RFC 7047 section 5.2).
 */
function decodeResultInPlace(result: OperationResult, schema: DatabaseSchema | undefined, operation: Operation): void {
  const decoded = result as TransactResult;
  if (result.uuid) decoded.uuid = result.uuid[1];
  if (result.rows) {
    const table = 'table' in operation ? schema?.tables[operation.table] : undefined;
    decoded.rows = decodeRowsInPlace(result.rows, table);
  }
}

function decodeMonitorReply(
  method: MonitorMethod,
  reply: unknown,
  schema: DatabaseSchema,
): Pick<Monitor, 'initial' | 'found' | 'lastTxnId'> {
  if (method !== 'monitor_cond_since') {
    return { initial: decodeTableUpdates(reply as WireTableUpdates, schema, method === 'monitor' ? 'v1' : 'v2', true) };
  }
  const [found, lastTxnId, updates] = reply as [boolean, string, WireTableUpdates];
  return { found, lastTxnId, initial: decodeTableUpdates(updates, schema, 'v2', !found) };
}

/** update [id, tables], update2 [id, tables], update3 [id, txnId, tables]; others are not ours. */
function decodeNotification(
  name: string,
  params: unknown[],
  id: string,
  schema: DatabaseSchema,
): MonitorUpdate | undefined {
  if (params[0] !== id) return undefined;
  if (name === 'update') return { tables: decodeTableUpdates(params[1] as WireTableUpdates, schema, 'v1') };
  if (name === 'update2') return { tables: decodeTableUpdates(params[1] as WireTableUpdates, schema, 'v2') };
  if (name === 'update3')
    return { lastTxnId: params[1] as string, tables: decodeTableUpdates(params[2] as WireTableUpdates, schema, 'v2') };
  return undefined;
}
