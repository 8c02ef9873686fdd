/**
 * One round of observe's reads (observe.ts, holders.ts): selects sent in one transaction, each
 * with the function that takes its reply.
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

/** The reads' selects in one transaction (none when there are no reads), then each read its reply. */
export async function runReads(db: OvsdbDatabase, database: string, reads: Read[]): Promise<void> {
  if (reads.length === 0) return;
  const results = await db.transact(
    database,
    reads.map((r) => r.op),
  );
  reads.forEach((r, i) => r.read(results[i]?.rows ?? []));
}
