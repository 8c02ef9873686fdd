/**
 * The uuids of the rows a transaction inserts, chosen by us instead of by the server: each insert
 * with a `uuid-name` gets a `uuid` (the insert's optional member, an OVSDB extension to RFC 7047
 * since Open vSwitch 2.13) and loses its name, and every `named-uuid` reference to it becomes a
 * plain `uuid` reference. The database ends up the same; only who picked the uuids differs.
 *
 * Why: ovsdb-server resolves each `uuid-name` through a symbol table built and walked per
 * transaction, and hashes rows by the first 32 bits of their uuid (lib/uuid.h uuid_hash) in the
 * hash maps it walks about ten times while committing (ovsdb/transaction.c for_each_txn_row).
 * Its own uuids are random, so with 100,000 rows those walks jump around a heap far larger than
 * the cache. Ours count up in those 32 bits, in the order of the inserts, so the walks follow the
 * order the rows were allocated in. One transaction of 100,000 routes cost ovsdb-server 2.0 s
 * instead of 2.5 s (the README's Performance section, issue 30.3).
 *
 * The rest of each uuid is random (version 4): 90 random bits per row, so meeting a uuid already
 * in the table is not a practical concern; the server would refuse it ("duplicate uuid") and
 * nothing would be written.
 */
import { randomUUID } from 'node:crypto';
import type { Condition, Mutation, Operation, Uuid, WireAtom, WireRow, WireValue } from './notation';

/** Uuids whose first 32 bits count up from a random start, the rest random. */
function uuidCounter(): () => Uuid {
  let next = Number.parseInt(randomUUID().slice(0, 8), 16);
  return () => {
    const uuid = `${next.toString(16).padStart(8, '0')}${randomUUID().slice(8)}`;
    next = (next + 1) >>> 0;
    return uuid;
  };
}

/**
 * `operations` with our uuids in place of uuid-names: the same operations in the same order (a
 * result or an error index means the same operation), each insert's result its chosen uuid.
 */
export function withRowUuids(operations: Operation[]): Operation[] {
  const uuids = new Map<string, Uuid>();
  const next = uuidCounter();
  for (const op of operations) {
    if (op.op !== 'insert' || op['uuid-name'] === undefined) continue;
    // a name inserted twice is the server's to refuse ("duplicate uuid-name"): sent as it is
    if (uuids.has(op['uuid-name'])) return operations;
    uuids.set(op['uuid-name'], op.uuid ?? next());
  }
  if (uuids.size === 0) return operations;
  return operations.map((op) => resolved(op, uuids));
}

function resolved(op: Operation, uuids: Map<string, Uuid>): Operation {
  const row = (r: WireRow) => resolveRow(r, uuids);
  const where = (w: Condition[]) => w.map(([c, fn, v]): Condition => [c, fn, resolveValue(v, uuids)]);
  switch (op.op) {
    case 'insert': {
      const name = op['uuid-name'];
      const uuid = name === undefined ? op.uuid : uuids.get(name);
      return { op: 'insert', table: op.table, ...(uuid === undefined ? {} : { uuid }), row: row(op.row) };
    }
    case 'update':
      return { ...op, where: where(op.where), row: row(op.row) };
    case 'mutate':
      return {
        ...op,
        where: where(op.where),
        mutations: op.mutations.map(([c, m, v]): Mutation => [c, m, resolveValue(v, uuids)]),
      };
    case 'wait':
      return { ...op, where: where(op.where), rows: op.rows.map(row) };
    case 'select':
    case 'delete':
      return { ...op, where: where(op.where) };
    default:
      return op;
  }
}

function resolveRow(row: WireRow, uuids: Map<string, Uuid>): WireRow {
  const out: WireRow = {};
  for (const column in row) out[column] = resolveValue(row[column]!, uuids);
  return out;
}

/** A value's named-uuid atoms as uuids (a name not inserted here is left for the server to refuse). */
function resolveValue(value: WireValue, uuids: Map<string, Uuid>): WireValue {
  if (!Array.isArray(value)) return value;
  if (value[0] === 'set') return ['set', (value[1] as WireAtom[]).map((a) => resolveAtom(a, uuids))];
  if (value[0] === 'map')
    return [
      'map',
      (value[1] as [WireAtom, WireAtom][]).map(([k, v]) => [resolveAtom(k, uuids), resolveAtom(v, uuids)]),
    ];
  return resolveAtom(value as WireAtom, uuids);
}

function resolveAtom(atom: WireAtom, uuids: Map<string, Uuid>): WireAtom {
  if (!Array.isArray(atom) || atom[0] !== 'named-uuid') return atom;
  const uuid = uuids.get(atom[1]);
  return uuid === undefined ? atom : ['uuid', uuid];
}
