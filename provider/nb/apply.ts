/**
 * Applying one owner's desired rows to a live database: observe (observe.ts: a few rounds of
 * selects that find our rows, their children, the rows they name and their parents, and the
 * ledger, without reading the rest of the database) -> adapt to the server's schema -> reconcile
 * -> one transaction, sent only when there is something to do.
 * provider/nb/'s I/O is here and in observe.ts, holders.ts, readRound.ts, transact.ts and clash.ts,
 * through an OvsdbDatabase (nb -> ovsdb is an allowed arrow).
 */
import type { OvsdbDatabase } from '../ovsdb/client';
import { adaptRows, compareSchemas, type SchemaMismatch } from './adapt';
import { withHungRecord } from './hung';
import type { ApplyRequest, Observation } from './observation';
import { observe } from './observe';
import { reconcile, type Plan } from './reconcile';
import { transactPlan } from './transact';
import { adoption } from './upstreamRows';

export { ConcurrentChangeError, transactPlan } from './transact';
export { observe } from './observe';
export type { ApplyRequest, Observation } from './observation';

export interface ApplyResult {
  plan: Plan;
  /** Differences between our schema and the server's (informational; refusals are thrown). */
  mismatches: SchemaMismatch[];
  /** Whether a transaction was sent (false when nothing changed). */
  sent: boolean;
  /** Uuids of the rows this apply created, by `Table/identity`. */
  created: Record<string, string>;
}

/**
 * The plan for an observation (pure): desired rows adapted to the server's schema, then
 * reconciled (taking over the rows of `upstream` found, upstreamRows.ts), with the owner's record
 * of where its rows hang from others' (hung.ts).
 */
export function planApply(
  request: ApplyRequest,
  observation: Observation,
): { plan: Plan; mismatches: SchemaMismatch[] } {
  const desired = adaptRows(request.desired, request.schema, observation.server);
  const plan = reconcile({
    owner: request.owner,
    schema: observation.server,
    desired,
    observed: observation.owned,
    foreign: observation.foreign,
    ...adoption(observation),
  });
  return {
    plan: withHungRecord(plan, request, observation),
    mismatches: compareSchemas(request.schema, observation.server),
  };
}

/** observe -> adapt -> reconcile -> one transaction. */
export async function apply(db: OvsdbDatabase, request: ApplyRequest): Promise<ApplyResult> {
  const observation = await observe(db, request);
  const { plan, mismatches } = planApply(request, observation);
  const { sent, created } = await transactPlan(db, request.schema.name, plan);
  return { plan, mismatches, sent, created };
}
