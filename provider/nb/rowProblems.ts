/**
 * RowProblem: one reason desired rows are refused before anything is sent, by the server's schema
 * (adapt.ts) or by the reconcile engine (reconcile.ts). It names the row by table and identity
 * and says why as a typed reason beside the sentence people read, so callers (the CLI's and the
 * Pulumi kinds' refusals, runtime/refusals.ts) read fields, never the sentence. Pure.
 */
import { describeRow } from './desired';

/** Why the reconcile engine refuses desired rows. */
export type ReconcileReason =
  | 'unknownTable'
  /** No external_ids for our marker and no unique index to keep the row in a ledger by. */
  | 'unownable'
  | 'notShareable'
  | 'unknownColumns'
  | 'noIdentity'
  | 'duplicateIdentity'
  | 'badParentColumn'
  | 'unresolvedReference'
  | 'unresolvedParent'
  /** A non-root row nothing holds: the server would drop it. */
  | 'unparented'
  /** A row of someone else has the identity of a desired ledger row: what a lost ledger looks like. */
  | 'foreignTwin';

/** Why the server's schema cannot take desired rows. */
export type AdaptReason = 'missingTable' | 'missingColumn' | 'valueRefused';

export interface RowProblem<R extends string = ReconcileReason | AdaptReason> {
  reason: R;
  table: string;
  /** The row's identity (desired.ts), when it has one. */
  identity?: string;
  /** One sentence naming the row and saying why. */
  message: string;
}

export function rowProblem<R extends string>(
  reason: R,
  table: string,
  identity: string | undefined,
  message: string,
): RowProblem<R> {
  return identity === undefined ? { reason, table, message } : { reason, table, identity, message };
}

/** The row a problem is about as errors name rows: `Table "identity"`, or the table alone. */
export const problemRow = (problem: RowProblem): string => describeRow(problem.table, problem.identity);
