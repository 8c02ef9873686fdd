/**
 * One round of observe's reads (observe.ts, holders.ts): selects sent together in a few
 * transactions, each with the function that takes its reply.
 */
import type { OvsdbDatabase } from '../ovsdb/client';
import type { Operation } from '../ovsdb/notation';
import type { ObservedRow } from './desired';

export type Row = Record<string, unknown>;

/** A select of a round and the function that reads its reply. */
export interface Read {
  op: Operation;
  read: (rows: Row[]) => void;
}

export const uuidOf = (row: Row): string => (row._uuid as { uuid: string }).uuid;

export const toRow =
  (table: string) =>
  (row: Row): ObservedRow => ({ table, uuid: uuidOf(row), columns: row });

/**
 * Selects per transaction. ovsdb-server's cost per select grows with the transaction it is in (its
 * request and reply are built and freed whole: 100 `_uuid ==` selects cost 1.0 to 1.7 ms in one
 * transaction on a server holding only our rows, 3.2 ms beside an upstream-like load of 65,000
 * rows, and 1.1 and 1.5 ms in transactions of 10; bench/reads.ts), so a round goes in several.
 */
const SELECTS_PER_TRANSACTION = 16;

/**
 * The reads' selects, in transactions of SELECTS_PER_TRANSACTION sent together (none when there
 * are no reads), then each read its reply, in order. A round is no snapshot: observe's rounds
 * never were one transaction, and what an apply relies on is checked at commit (its `wait`s on
 * the rows it changes and on the keys it rewrites, the unique indexes for the rows it inserts).
 */
export async function runReads(db: OvsdbDatabase, database: string, reads: Read[]): Promise<void> {
  const batches: Read[][] = [];
  for (let i = 0; i < reads.length; i += SELECTS_PER_TRANSACTION)
    batches.push(reads.slice(i, i + SELECTS_PER_TRANSACTION));
  const results = await Promise.all(
    batches.map((batch) =>
      db.transact(
        database,
        batch.map((r) => r.op),
      ),
    ),
  );
  batches.forEach((batch, b) => batch.forEach((r, i) => r.read(results[b]![i]?.rows ?? [])));
}
