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
  /** Whose unmarked rows of what we plan to look for (upstreamRows.ts); none when absent. */
  upstream?: Upstream;
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
  /** Rows of `upstream` found for what we plan, observed among `owned` (ledger rows among `foreign`). */
  upstream?: Twin[];
}

/** Whose unmarked rows an apply may take over (upstreamRows.ts). */
export interface Upstream {
  /** external_ids pairs any of which marks a row as theirs, made for what we plan. */
  tags: [key: string, value: string][];
  /**
   * Read on every apply: an unowned row of these tables carrying one of `tags` shows they wrote.
   * The server is asked, per table, for the rows without our marker carrying one of `by` (one
   * select each; RFC 7047 ANDs a select's conditions), a pair every row carrying a tag carries too.
   */
  probe: { tables: string[]; tags: [key: string, value: string][]; by: [key: string, value: string][] };
  /** Tables whose tagged rows we do not plan are taken over too, to be deleted. */
  leftovers: string[];
  /** Tables whose rows stay theirs. */
  keep: string[];
}

/** A row of theirs with an identity we plan, or a leftover. `tagged`: it carries one of `tags`. */
export interface Twin {
  table: string;
  uuid: string;
  identity: string;
  tagged: boolean;
}
