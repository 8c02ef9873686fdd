/**
 * Monitor requests and the decoding of their updates (RFC 7047 4.1.5/4.1.6 `update`, and the
 * `update2`/`update3` forms of monitor_cond / monitor_cond_since from ovsdb-server(7)). Pure.
 */
import { decodeRow, type PlainRow } from './codec';
import { OvsdbValueError } from './errors';
import type { Condition, WireRow } from './notation';
import type { DatabaseSchema } from './schema';

export type MonitorMethod = 'monitor' | 'monitor_cond' | 'monitor_cond_since';

export interface MonitorRequest {
  columns?: string[];
  /** monitor_cond and monitor_cond_since only. */
  where?: Condition[];
  select?: { initial?: boolean; insert?: boolean; delete?: boolean; modify?: boolean };
}

/**
 * One row's change. `new`/`old` are whole rows (decoded with the server's column types). For
 * `modify` in update2/update3 form the server sends only `diff`: for a set column the elements to
 * add or remove, for a map the keys to add, remove or change, for others the new value.
 */
export interface RowUpdate {
  uuid: string;
  kind: 'initial' | 'insert' | 'modify' | 'delete';
  old?: PlainRow;
  new?: PlainRow;
  diff?: PlainRow;
}

export type TableUpdates = Record<string, RowUpdate[]>;

export interface MonitorUpdate {
  tables: TableUpdates;
  /** monitor_cond_since: the transaction id after this update. */
  lastTxnId?: string;
  /**
   * A monitor followed to another member without resuming (followedMonitor.ts): `tables` holds
   * every row as it is now (kind `initial`) and a `delete` for each row seen before that is gone.
   */
  resync?: boolean;
}

type WireRowUpdate = {
  old?: WireRow;
  new?: WireRow;
  initial?: WireRow;
  insert?: WireRow;
  modify?: WireRow;
  delete?: WireRow | null;
};
export type WireTableUpdates = Record<string, Record<string, WireRowUpdate>>;

export function checkRequests(method: MonitorMethod, requests: Record<string, MonitorRequest>): void {
  for (const [table, request] of Object.entries(requests)) {
    if (method === 'monitor' && request.where)
      throw new OvsdbValueError(
        `monitor.${table}.where`,
        request.where,
        'conditions need monitor_cond or monitor_cond_since',
      );
  }
}

/** v1 updates carry old/new; which one is present tells the kind. */
function decodeV1(uuid: string, update: WireRowUpdate, decode: (r: WireRow) => PlainRow, initial: boolean): RowUpdate {
  const row: RowUpdate = {
    uuid,
    kind: initial ? 'initial' : !update.old ? 'insert' : !update.new ? 'delete' : 'modify',
  };
  if (update.old) row.old = decode(update.old);
  if (update.new) row.new = decode(update.new);
  return row;
}

function decodeV2(uuid: string, update: WireRowUpdate, decode: (r: WireRow) => PlainRow): RowUpdate {
  if (update.initial) return { uuid, kind: 'initial', new: decode(update.initial) };
  if (update.insert) return { uuid, kind: 'insert', new: decode(update.insert) };
  if (update.modify) return { uuid, kind: 'modify', diff: decode(update.modify) };
  return update.delete ? { uuid, kind: 'delete', old: decode(update.delete) } : { uuid, kind: 'delete' };
}

export function decodeTableUpdates(
  wire: WireTableUpdates,
  schema: DatabaseSchema,
  form: 'v1' | 'v2',
  initial = false,
): TableUpdates {
  const tables: TableUpdates = {};
  for (const [table, rows] of Object.entries(wire ?? {})) {
    const decode = (row: WireRow) => decodeRow(row, schema.tables[table]);
    tables[table] = Object.entries(rows).map(([uuid, update]) =>
      form === 'v1' ? decodeV1(uuid, update, decode, initial) : decodeV2(uuid, update, decode),
    );
  }
  return tables;
}
