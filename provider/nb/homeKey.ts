/**
 * One key of a database's home row (NB_Global.external_ids, Open_vSwitch.external_ids: ledger.ts)
 * written so that two writers of the same key cannot both win: the operations that change it
 * carry a `wait` that fails the transaction when the key no longer holds what was read. A key
 * that was present is guarded before it is rewritten (`includes` the pair read); a key that was
 * absent is inserted with a map `insert` (which never overwrites a key another writer inserted
 * meanwhile) and then checked to hold our value; before that, a `wait` checks that our value is
 * not there yet: a transaction resent after a lost answer (a RAFT leader killed after it
 * committed, cluster.ts) then fails its guard instead of passing it again and writing its other
 * rows twice, and the caller finds its own commit (runtime/commit.ts). Pure.
 */
import type { Operation, WireValue } from '../ovsdb/notation';

/** Where a database keeps its bookkeeping: a root singleton table and its string map column. */
export interface Home {
  table: string;
  column: string;
}

/** Operations in transaction order; `guards` says, for each `wait` among them in order, what it checks. */
export interface KeyWrite {
  operations: Operation[];
  guards: string[];
}

const holds = (home: Home, key: string, text: string): Operation => ({
  op: 'wait',
  table: home.table,
  where: [[home.column, 'includes', ['map', [[key, text]]]]],
  columns: [],
  until: '==',
  rows: [{}],
  timeout: 0,
});

const lacks = (home: Home, key: string, text: string): Operation => ({
  op: 'wait',
  table: home.table,
  where: [[home.column, 'excludes', ['map', [[key, text]]]]],
  columns: [],
  until: '==',
  rows: [{}],
  timeout: 0,
});

const mutate = (home: Home, mutator: 'insert' | 'delete', value: WireValue): Operation => ({
  op: 'mutate',
  table: home.table,
  where: [],
  mutations: [[home.column, mutator, value]],
});

/**
 * Set `key` to `after` (or remove it when undefined), given `before`, the value read. Nothing when
 * they are equal. Without a home row yet, the row is inserted (a second one would break the
 * table's one-row limit, so a concurrent creator fails the commit as well).
 */
export function writeHomeKey(
  home: Home,
  key: string,
  before: string | undefined,
  after: string | undefined,
  homeExists: boolean,
): KeyWrite {
  const where = `${home.table}.${home.column}["${key}"]`;
  if (before === after) return { operations: [], guards: [] };
  if (!homeExists)
    return after === undefined
      ? { operations: [], guards: [] }
      : {
          operations: [{ op: 'insert', table: home.table, row: { [home.column]: ['map', [[key, after]]] } }],
          guards: [],
        };
  if (before === undefined)
    return {
      operations: [
        lacks(home, key, after!),
        mutate(home, 'insert', ['map', [[key, after!]]]),
        holds(home, key, after!),
      ],
      guards: [
        `${where} does not hold this transaction's value yet (it is not a resent transaction that committed)`,
        `${where} was not written by another writer meanwhile`,
      ],
    };
  const remove = mutate(home, 'delete', ['set', [key]]);
  return {
    operations: [
      holds(home, key, before),
      remove,
      ...(after === undefined ? [] : [mutate(home, 'insert', ['map', [[key, after]]])]),
    ],
    guards: [`${where} is unchanged since it was read`],
  };
}
