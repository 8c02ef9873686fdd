/**
 * The shapes the reconcile engine (reconcile.ts) hands its parts (owned.ts, parents.ts, rowPlan.ts):
 * its input, a desired row made ready, a parent holding one of our rows, a change in words. Their
 * own module, so the parts import them without importing the engine that imports the parts.
 */
import type { DatabaseSchema } from '../ovsdb/schema';
import type { DesiredRow, ObservedRow } from './desired';
import type { LedgerState } from './ledger';
import type { DesiredTarget } from './references';

export interface ReconcileInput {
  /** The owner whose rows these are (`ovnk.io/owner`). */
  owner: string;
  /** Column types, roots and references (our generated metadata, or the server's). */
  schema: DatabaseSchema;
  desired: DesiredRow[];
  /** The rows observed carrying our marker. Rows without it are treated as foreign. */
  observed: ObservedRow[];
  /** Observed rows of others that references or `parents` may name (and rows of ledger tables). */
  foreign?: ObservedRow[];
  /** The owner's ledger as observed (default: none stored, home row present). */
  ledger?: LedgerState;
  /** Uuids of observed rows without our marker that are taken over as ours (upstreamRows.ts). */
  adopted?: ReadonlySet<string>;
}

export interface RowChange {
  action: 'create' | 'update' | 'delete' | 'attach' | 'detach';
  table: string;
  identity?: string;
  /** `column: old -> new`, `ports + X`, ... */
  details: string[];
  /** For `create`: the uuid-name of its insert (its uuid is in that operation's result). */
  namedUuid?: string;
}

/** A desired row made ready: identity, match, target, resolved columns. */
export interface Entry {
  row: DesiredRow;
  identity: string;
  observed?: ObservedRow;
  target: DesiredTarget;
  columns: Record<string, unknown>;
  /** The foreign rows named by `row.parents`, once found, with the column to hold this row. */
  parentRows: Holder[];
  /** Rows of others that hold this row in a declared parent column but are no longer its parents. */
  detachFrom: Holder[];
}

/** A foreign row and the reference column of it that holds (or should hold) one of our rows. */
export interface Holder {
  row: ObservedRow;
  column: string;
}
