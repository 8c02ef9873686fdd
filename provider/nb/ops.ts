/**
 * Builders of the wire operations the reconcile engine emits (RFC 7047 section 5.2). Each takes
 * plain values (codec.ts conventions) and returns one `Operation`; nothing is sent.
 */
import { encodeValue, type PlainValue } from '../ovsdb/codec';
import type { Condition, Operation, WireRow } from '../ovsdb/notation';
import { columnTypeOf, type TableSchema } from '../ovsdb/schema';

export function byUuid(uuid: string): Condition[] {
  return [['_uuid', '==', ['uuid', uuid]]];
}

function encodeColumns(table: string, schema: TableSchema, columns: Record<string, unknown>): WireRow {
  const row: WireRow = {};
  for (const [column, value] of Object.entries(columns)) {
    row[column] = encodeValue(value as PlainValue, columnTypeOf(schema, table, column), `${table}.${column}`);
  }
  return row;
}

export function insertOp(
  table: string,
  schema: TableSchema,
  namedUuid: string,
  columns: Record<string, unknown>,
): Operation {
  return { op: 'insert', table, 'uuid-name': namedUuid, row: encodeColumns(table, schema, columns) };
}

export function updateOp(
  table: string,
  schema: TableSchema,
  uuid: string,
  columns: Record<string, unknown>,
): Operation {
  return { op: 'update', table, where: byUuid(uuid), row: encodeColumns(table, schema, columns) };
}

/** Adds or removes references in a set column without rewriting the rest of the set. */
export function mutateRefsOp(
  table: string,
  where: Condition[],
  column: string,
  mutator: 'insert' | 'delete',
  refs: ({ uuid: string } | { namedUuid: string })[],
): Operation {
  return { op: 'mutate', table, where, mutations: [[column, mutator, encodeValue(refs)]] };
}

/** Adds or removes string atoms in a set column (a shared row's part, sharedParts.ts). */
export function mutateAtomsOp(
  table: string,
  where: Condition[],
  column: string,
  mutator: 'insert' | 'delete',
  atoms: string[],
): Operation {
  return { op: 'mutate', table, where, mutations: [[column, mutator, ['set', atoms]]] };
}

export function deleteOp(table: string, uuid: string): Operation {
  return { op: 'delete', table, where: byUuid(uuid) };
}

/**
 * A guard: the transaction fails ("timed out", at once) unless the row still holds exactly the
 * values we observed in `columns`, so a concurrent writer's change is never clobbered.
 */
export function waitUnchangedOp(
  table: string,
  schema: TableSchema,
  uuid: string,
  observed: Record<string, unknown>,
): Operation {
  const columns = Object.keys(observed).sort();
  const row = encodeColumns(table, schema, Object.fromEntries(columns.map((c) => [c, observed[c]])));
  return { op: 'wait', table, where: byUuid(uuid), columns, until: '==', rows: [row], timeout: 0 };
}

/** A guard that a row (e.g. a foreign parent we attach to) still exists. */
export function waitExistsOp(table: string, uuid: string): Operation {
  return {
    op: 'wait',
    table,
    where: byUuid(uuid),
    columns: ['_uuid'],
    until: '==',
    rows: [{ _uuid: ['uuid', uuid] }],
    timeout: 0,
  };
}
