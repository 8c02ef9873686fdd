/**
 * Refusals of a zone's transaction before anything is sent: the server's schema cannot take the
 * rows (nb/adapt.ts) or the rows cannot be reconciled with what is there (nb/reconcile.ts). The
 * CLI reports them as refused (exit 1), each problem with a reason and the row it names as path.
 */
import { SchemaAdaptationError } from '../nb/adapt';
import { ReconcileError } from '../nb/reconcile';
import { problemRow } from '../nb/rowProblems';

export interface RefusalProblem {
  reason: 'SchemaMismatch' | 'CannotReconcile';
  /** The row the problem is about, as nb/desired.ts describes rows: `Table "identity"` (its fields, not its words). */
  path: string;
  message: string;
}

/** The problems of a refused transaction, or undefined when `error` is no refusal. */
export function refusalProblems(error: unknown): RefusalProblem[] | undefined {
  const reason =
    error instanceof SchemaAdaptationError
      ? 'SchemaMismatch'
      : error instanceof ReconcileError
        ? 'CannotReconcile'
        : undefined;
  if (reason === undefined) return undefined;
  return (error as SchemaAdaptationError | ReconcileError).problems.map((problem) => ({
    reason,
    path: problemRow(problem),
    message: problem.message,
  }));
}

/** A refusal that found rows of ours' identities not in our ledger: what a lost ledger looks like. */
export function suggestsLostLedger(error: unknown): boolean {
  return error instanceof ReconcileError && error.foreignTwins > 0;
}
