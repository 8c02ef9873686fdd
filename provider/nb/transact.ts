/**
 * Sending a reconciled plan as one transaction, and what its failures mean: a failed `wait` is
 * another writer's change (ConcurrentChangeError, naming the guard), a unique value held by a row
 * that is not ours is a ForeignRowClash (clash.ts). Nothing is sent for an empty plan.
 */
import type { OvsdbDatabase } from '../ovsdb/client';
import { DuplicateUuid, type OvsdbOperationError, TimedOut } from '../ovsdb/errors';
import type { Operation } from '../ovsdb/notation';
import { chooseRowUuids } from '../ovsdb/rowUuids';
import { clashOf, foreignRowClash } from './clash';
import type { Plan } from './reconcile';

/** A `wait` guard failed: someone changed a row between our read and our write; nothing was written. */
export class ConcurrentChangeError extends Error {
  override name = 'ConcurrentChangeError';
  constructor(
    readonly guard: string,
    override readonly cause: OvsdbOperationError,
  ) {
    super(
      `nb: another writer changed the database since it was read: expected ${guard}; nothing was written (apply again to re-read)`,
    );
  }
}

/**
 * Sends a plan as one transaction (nothing when it is empty), its new rows' uuids chosen by us
 * (rowUuids.ts: cheaper for the server than its uuid-names; the same rows either way). A failed
 * guard is a ConcurrentChangeError; a unique value held by a row that is not ours is a
 * ForeignRowClash.
 */
export async function transactPlan(
  db: OvsdbDatabase,
  database: string,
  plan: Plan,
): Promise<{ sent: boolean; created: Record<string, string> }> {
  if (plan.operations.length === 0) return { sent: false, created: {} };
  try {
    // uuids in place of names as the operations are written: results and error indexes still match
    const results = await db.transact(database, plan.operations, { rowUuids: chooseRowUuids(plan.operations) });
    return { sent: true, created: createdUuids(plan, results) };
  } catch (error) {
    if (error instanceof TimedOut && plan.operations[error.index]?.op === 'wait')
      throw new ConcurrentChangeError(plan.guards[waitsBefore(plan.operations, error.index)] ?? 'a guarded row', error);
    // a row already under a uuid we just chose at random: this very transaction committed before
    // (resent after a failover, provider/ovsdb/cluster.ts); the caller reads back what it wrote
    if (error instanceof DuplicateUuid && plan.operations[error.index]?.op === 'insert')
      throw new ConcurrentChangeError('no row under the uuids chosen for the new rows', error);
    if (clashOf(error)) throw await foreignRowClash(db, database, error);
    throw error;
  }
}

/** The position of operation `index` among the waits (plan.guards is parallel to them). */
function waitsBefore(operations: Operation[], index: number): number {
  return operations.slice(0, index).filter((op) => op.op === 'wait').length;
}

function createdUuids(plan: Plan, results: { uuid?: string }[]): Record<string, string> {
  const byName = new Map<string, string>();
  plan.operations.forEach((op, i) => {
    const uuid = results[i]?.uuid;
    if (op.op === 'insert' && op['uuid-name'] !== undefined && uuid !== undefined) byName.set(op['uuid-name'], uuid);
  });
  const created: Record<string, string> = {};
  for (const change of plan.changes) {
    const uuid = change.namedUuid === undefined ? undefined : byName.get(change.namedUuid);
    if (uuid !== undefined) created[`${change.table}/${change.identity}`] = uuid;
  }
  return created;
}
