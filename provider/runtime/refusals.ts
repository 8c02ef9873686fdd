/**
 * Refusals of a zone's transaction before anything is sent: the server's schema cannot take the
 * rows (nb/adapt.ts) or the rows cannot be reconciled with what is there (nb/reconcile.ts). The
 * CLI reports them as refused (exit 1) with their problems.
 */
import { SchemaAdaptationError } from '../nb/adapt';
import { ReconcileError } from '../nb/reconcile';

/** The problems of a refused transaction, or undefined when `error` is no refusal. */
export function refusalProblems(error: unknown): string[] | undefined {
  return error instanceof SchemaAdaptationError || error instanceof ReconcileError ? error.problems : undefined;
}
