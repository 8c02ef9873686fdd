/**
 * What observe (observe.ts) is asked and what it finds: one owner's desired rows, and the rows of
 * a live database reconcile needs to plan them. Their own module, so the select builders
 * (observeSelects.ts) and the engine's callers share them without importing each other.
 */
import type { DatabaseSchema } from '../ovsdb/schema';
import type { DesiredRow, ObservedRow } from './desired';
import type { LedgerState } from './ledger';

export interface ApplyRequest {
  owner: string;
  /** Our generated metadata (nbSchema, vswitchSchema); its name is the database. */
  schema: DatabaseSchema;
  desired: DesiredRow[];
}

export interface Observation {
  /** The server's schema (row types and constraints as it enforces them). */
  server: DatabaseSchema;
  /** Rows carrying our marker, and the shared rows (shared.ts) of the tables that may hold them. */
  owned: ObservedRow[];
  /** Rows of others named by references or parents, holders of our rows, and ledger-table rows. */
  foreign: ObservedRow[];
  /** The owner's ledger (absent for databases without a ledger home). */
  ledger?: LedgerState;
  /** The home row's map (every owner's bookkeeping keys), when the database has a home. */
  home?: { exists: boolean; map: Record<string, string> };
}
