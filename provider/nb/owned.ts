/**
 * Which observed rows are ours (reconcile.ts): rows carrying our marker, shared rows carrying our
 * user key (shared.ts), rows being taken over (upstreamRows.ts), and rows of ledger tables whose
 * identity our ledger lists (ledger.ts);
 * everything else is someone else's. A desired
 * ledger row whose identity a foreign row already has is refused. Pure.
 */
import { describeRow, rowIdentity, type ObservedRow } from './desired';
import { isLedgerTable, ledgerHome, ledgerKey, parseLedger, type Ledger } from './ledger';
import { isOwnedBy } from './ownership';
import type { Entry, ReconcileInput } from './reconcileTypes';
import { RowIndex } from './references';
import { type ReconcileReason, type RowProblem, rowProblem } from './rowProblems';
import { isSharedRow, isUsedBy } from './shared';

/** The owner's stored ledger (empty when the database has no ledger home or none is stored). */
export function storedLedger(input: ReconcileInput): Ledger {
  const home = ledgerHome(input.schema.name);
  if (home === undefined) return {};
  return (
    input.ledger?.recovered ??
    parseLedger(input.ledger?.text, `${home.table}.${home.column}["${ledgerKey(input.owner)}"]`)
  );
}

export interface Split {
  /**
   * Our rows and every shared row, by identity; of several with one identity the lowest uuid is
   * kept, the rest of ours go stale.
   */
  owned: RowIndex<ObservedRow>;
  foreign: RowIndex<ObservedRow>;
  mine: ObservedRow[];
  /** Every observed row that is not ours, once each. */
  others: ObservedRow[];
}

/** Ours: rows with our marker or taken over (`adopted`), and rows of ledger tables whose identity our ledger lists. */
export function splitObserved(input: ReconcileInput, ledger: Ledger): Split {
  const owned = new RowIndex<ObservedRow>();
  const foreign = new RowIndex<ObservedRow>();
  const inLedger = (row: ObservedRow) =>
    isLedgerTable(input.schema, row.table) &&
    (ledger[row.table] ?? []).includes(rowIdentity(row.table, row.columns) ?? '');
  // a uuid seen twice keeps its first place and its last row, as a Map of both lists would
  const byUuid = new Map<string, ObservedRow>();
  for (const row of input.observed) byUuid.set(row.uuid, row);
  for (const row of input.foreign ?? []) byUuid.set(row.uuid, row);
  const observed = new Set(input.observed);
  const ids = (row: ObservedRow) => row.columns.external_ids as Record<string, unknown> | undefined;
  const isMine = (row: ObservedRow) =>
    isLedgerTable(input.schema, row.table)
      ? inLedger(row)
      : observed.has(row) &&
        (isOwnedBy(ids(row), input.owner) || isUsedBy(ids(row), input.owner) || input.adopted?.has(row.uuid) === true);
  const mine: ObservedRow[] = [];
  const others: ObservedRow[] = [];
  // of several matchable rows with one identity the lowest uuid is kept
  const lowest = new Map<string, { identity: string; row: ObservedRow }>();
  const keep = (row: ObservedRow) => {
    const identity = rowIdentity(row.table, row.columns);
    if (identity === undefined) return;
    const key = `${row.table}\u0000${identity}`;
    const kept = lowest.get(key);
    if (kept === undefined || row.uuid < kept.row.uuid) lowest.set(key, { identity, row });
  };
  for (const row of byUuid.values()) {
    const ours = isMine(row);
    (ours ? mine : others).push(row);
    // a desired shared row matches a shared row whoever uses it (the owner then claims it)
    if (ours || (observed.has(row) && isSharedRow(ids(row)))) keep(row);
  }
  for (const { identity, row } of lowest.values()) owned.add(row.table, identity, row);
  for (const row of others) {
    const identity = rowIdentity(row.table, row.columns);
    if (identity !== undefined) foreign.add(row.table, identity, row);
  }
  return { owned, foreign, mine, others };
}

/**
 * A desired row of a ledger table whose identity a row of someone else already has: that row is
 * never taken over, and inserting ours would violate the table's unique index, so refuse.
 */
export function checkForeignTwins(
  input: ReconcileInput,
  entries: Entry[],
  foreign: RowIndex<ObservedRow>,
  problems: RowProblem<ReconcileReason>[],
): void {
  const home = ledgerHome(input.schema.name);
  for (const entry of entries) {
    if (entry.observed !== undefined || !isLedgerTable(input.schema, entry.row.table)) continue;
    const twins = foreign.get(entry.row.table, entry.identity);
    if (twins.length === 0) continue;
    problems.push(
      rowProblem(
        'foreignTwin',
        entry.row.table,
        entry.identity,
        `${describeRow(entry.row.table, entry.identity)}: a row with this identity already exists (${twins.map((t) => t.uuid).join(', ')}) and is not ours (not in ${home!.table}.${home!.column}["${ledgerKey(input.owner)}"]); it is left alone and ours cannot be inserted beside it (unique index ${JSON.stringify(input.schema.tables[entry.row.table]!.indexes)})`,
      ),
    );
  }
}
