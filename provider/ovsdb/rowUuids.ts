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
 * The rest of each uuid is one random (version 4) uuid's, drawn per transaction: its rows differ
 * in the count, transactions in 90 random bits, so meeting a uuid already in the table is not a
 * practical concern; the server would refuse it ("duplicate uuid") and nothing would be written.
 * The client resolves the operations a few hundred at a time as it writes them (transactParams.ts);
 * withRowUuids makes the whole rewritten copy at once, copying only what holds a name.
 */
import { randomUUID } from 'node:crypto';
import type { Condition, Mutation, Operation, Uuid, WireAtom, WireRow, WireValue } from './notation';

/** Uuids whose first 32 bits count up from a random start, the rest one random uuid's. */
function uuidCounter(): () => Uuid {
  const random = randomUUID();
  const tail = random.slice(8);
  let next = Number.parseInt(random.slice(0, 8), 16);
  return () => {
    const uuid = next.toString(16).padStart(8, '0') + tail;
    next = (next + 1) >>> 0;
    return uuid;
  };
}

type Names = Map<string, Uuid>;

/** The uuids chosen for one transaction's named inserts: by uuid-name, and by operation index. */
export interface RowUuids {
  readonly byName: Names;
  readonly byIndex: readonly (Uuid | undefined)[];
}

/**
 * Uuids for the named inserts of `operations` (an insert that already has a `uuid` keeps it), or
 * undefined when there is nothing to choose: no names, or a name inserted twice (the server's to
 * refuse, "duplicate uuid-name", so the operations go as they are).
 */
export function chooseRowUuids(operations: readonly Operation[]): RowUuids | undefined {
  const byName: Names = new Map();
  const byIndex: (Uuid | undefined)[] = new Array(operations.length);
  const next = uuidCounter();
  let named = 0;
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i]!;
    if (op.op !== 'insert' || op['uuid-name'] === undefined) continue;
    byIndex[i] = op.uuid ?? next();
    byName.set(op['uuid-name'], byIndex[i]!);
    named++;
  }
  return byName.size === 0 || byName.size < named ? undefined : { byName, byIndex };
}

/**
 * `operations` with our uuids in place of uuid-names: the same operations in the same order (a
 * result or an error index means the same operation), each insert's result its chosen uuid.
 */
export function withRowUuids(operations: Operation[]): Operation[] {
  const uuids = chooseRowUuids(operations);
  return uuids === undefined ? operations : operations.map((op, i) => withRowUuid(op, i, uuids));
}

/** Operation `index` of the transaction `uuids` were chosen for, its uuid given and references resolved. */
export function withRowUuid(op: Operation, index: number, uuids: RowUuids): Operation {
  return resolved(op, uuids.byIndex[index], uuids.byName);
}

/** `op` with `uuid` (when it is a named insert's) and its references resolved. */
function resolved(op: Operation, uuid: Uuid | undefined, uuids: Names): Operation {
  switch (op.op) {
    case 'insert':
      if (uuid === undefined) return { ...op, row: resolveRow(op.row, uuids) };
      return { op: 'insert', table: op.table, uuid, row: resolveRow(op.row, uuids) };
    case 'update':
      return { ...op, where: resolveWhere(op.where, uuids), row: resolveRow(op.row, uuids) };
    case 'mutate': {
      const mutations = copyOnWrite(op.mutations, ([c, m, v]): Mutation => {
        const value = resolveValue(v, uuids);
        return value === v ? [c, m, v] : [c, m, value];
      });
      return { ...op, where: resolveWhere(op.where, uuids), mutations };
    }
    case 'wait':
      return { ...op, where: resolveWhere(op.where, uuids), rows: copyOnWrite(op.rows, (r) => resolveRow(r, uuids)) };
    case 'select':
    case 'delete':
      return { ...op, where: resolveWhere(op.where, uuids) };
    default:
      return op;
  }
}

/** `list` mapped by `f`, or `list` itself when `f` returned every element unchanged (by identity). */
function copyOnWrite<T>(list: T[], f: (item: T) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = f(list[i]!);
    if (out === undefined && !Object.is(item, list[i])) out = list.slice(0, i);
    out?.push(item);
  }
  return out ?? list;
}

function resolveWhere(where: Condition[], uuids: Names): Condition[] {
  return copyOnWrite(where, (condition) => {
    const value = resolveValue(condition[2], uuids);
    return value === condition[2] ? condition : [condition[0], condition[1], value];
  });
}

function resolveRow(row: WireRow, uuids: Names): WireRow {
  let out: WireRow | undefined;
  for (const column in row) {
    const value = resolveValue(row[column]!, uuids);
    if (value !== row[column]) (out ??= { ...row })[column] = value;
  }
  return out ?? row;
}

/** A value's named-uuid atoms as uuids (a name not inserted here is left for the server to refuse). */
function resolveValue(value: WireValue, uuids: Names): WireValue {
  if (!Array.isArray(value)) return value;
  if (value[0] === 'set') {
    const atoms = value[1] as WireAtom[];
    const resolvedAtoms = copyOnWrite(atoms, (a) => resolveAtom(a, uuids));
    return resolvedAtoms === atoms ? value : ['set', resolvedAtoms];
  }
  if (value[0] === 'map') {
    const pairs = value[1] as [WireAtom, WireAtom][];
    const resolvedPairs = copyOnWrite(pairs, (pair): [WireAtom, WireAtom] => {
      const [k, v] = [resolveAtom(pair[0], uuids), resolveAtom(pair[1], uuids)];
      return k === pair[0] && v === pair[1] ? pair : [k, v];
    });
    return resolvedPairs === pairs ? value : ['map', resolvedPairs];
  }
  return resolveAtom(value as WireAtom, uuids);
}

function resolveAtom(atom: WireAtom, uuids: Names): WireAtom {
  if (!Array.isArray(atom) || atom[0] !== 'named-uuid') return atom;
  const uuid = uuids.get(atom[1]);
  return uuid === undefined ? atom : ['uuid', uuid];
}
