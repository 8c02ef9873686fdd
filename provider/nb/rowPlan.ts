/**
 * The operations for one row, used by reconcile.ts: insert of a new row, update of changed columns
 * with a `wait` guard, `mutate` of reference sets (our rows only), attaching a child to each
 * foreign parent (and detaching it from foreign rows that are no longer its parents), and deleting
 * a row we no longer want (detaching it from every strong reference set first; the server drops
 * weak references by itself). Rows of ledger tables have no
 * external_ids: their guards compare their index columns (updates) or every column (deletes). Pure.
 */
import type { Condition, Operation } from '../ovsdb/notation';
import {
  columnTypeOf,
  type ColumnType,
  type DatabaseSchema,
  normalizeColumnType,
  tableOf,
  type TableSchema,
} from '../ovsdb/schema';
import { describeRow, rowIdentity, type ObservedRow } from './desired';
import {
  deleteOp,
  insertOp,
  mutateAtomsOp,
  mutateRefsOp,
  byUuid,
  updateOp,
  waitExistsOp,
  waitUnchangedOp,
} from './ops';
import type { Entry, Holder, RowChange } from './reconcileTypes';
import { isReferenceSet, parentColumns, referencedTable, type DesiredTarget, type ReferenceScope } from './references';
import { usersOf } from './shared';
import { releasedPart } from './sharedParts';
import { canonical, describeValue, sameValue } from './values';

export interface RowPlanContext {
  schema: DatabaseSchema;
  scope: ReferenceScope;
  /** A uuid or named uuid in words (`Logical_Router "lr1"`). */
  label: (id: string) => string;
  /** Uuids of all our observed rows: only these may be removed from a reference set. */
  ours: Set<string>;
  /** Uuids of our rows being deleted (their references go with them). */
  stale: Set<string>;
  /** Who we are (a released shared row loses our part, sharedParts.ts). */
  owner: string;
}

/** Operations by kind, in row order; reconcile.ts assembles them into one transaction. */
export interface PlannedRow {
  waits: Operation[];
  /** What each wait guards, in words (parallel to `waits`). */
  guards: string[];
  inserts: Operation[];
  updates: Operation[];
  mutates: Operation[];
  deletes: Operation[];
  /** Deleted rows leaving the reference sets of rows that stay: sent after every delete (planDeletion). */
  detaches: Operation[];
  changes: RowChange[];
  /** Uuids of the rows some wait already guards (one guard per row is enough). */
  guarded: Set<string>;
}

export function emptyPlan(): PlannedRow {
  return {
    waits: [],
    guards: [],
    inserts: [],
    updates: [],
    mutates: [],
    deletes: [],
    detaches: [],
    changes: [],
    guarded: new Set(),
  };
}

type Ref = DesiredTarget;

function refId(ref: Ref): string {
  return 'uuid' in ref ? ref.uuid : ref.namedUuid;
}

function refList(value: unknown): Ref[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]) as Ref[];
}

/** The operations for one desired row, added to `plan` (one plan collects every row's). */
export function planRow(context: RowPlanContext, entry: Entry, plan: PlannedRow): void {
  if (entry.observed === undefined) planInsert(context, entry, plan);
  else planUpdate(context, entry, entry.observed, plan);
  for (const parent of entry.parentRows) planAttach(entry, parent, plan);
  for (const holder of entry.detachFrom) planDetach(entry, holder, plan);
}

function planInsert(context: RowPlanContext, entry: Entry, plan: PlannedRow): void {
  const table = tableOf(context.schema, entry.row.table);
  const named = (entry.target as { namedUuid: string }).namedUuid;
  for (const column in entry.columns)
    guardReferenced(context, plan, columnTypeOf(table, entry.row.table, column), entry.columns[column]);
  plan.inserts.push(insertOp(entry.row.table, table, named, entry.columns));
  plan.changes.push({
    action: 'create',
    table: entry.row.table,
    identity: entry.identity,
    details: [],
    namedUuid: named,
  });
}

function planUpdate(context: RowPlanContext, entry: Entry, observed: ObservedRow, plan: PlannedRow): void {
  const table = tableOf(context.schema, entry.row.table);
  const changed: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  const details: string[] = [];
  let adds = false;
  for (const column in entry.columns) {
    const value = entry.columns[column];
    const type = columnTypeOf(table, entry.row.table, column);
    if (isReferenceSet(type)) {
      const set = planReferenceSet(
        context,
        entry.row.table,
        observed.uuid,
        column,
        value,
        observed.columns[column],
        plan,
      );
      adds ||= set.adds;
      details.push(...set.details);
    } else if (!sameValue(value, observed.columns[column], type)) {
      guardReferenced(context, plan, type, value);
      changed[column] = canonical(value, type);
      before[column] = canonical(observed.columns[column], type);
      details.push(
        `${column}: ${describeValue(before[column], context.label)} -> ${describeValue(changed[column], context.label)}`,
      );
    }
  }
  if (Object.keys(changed).length > 0) {
    for (const column of guardColumns(table)) before[column] = observed.columns[column];
    plan.waits.push(waitUnchangedOp(entry.row.table, table, observed.uuid, before));
    plan.guards.push(
      `${describeRow(entry.row.table, entry.identity)} (${Object.keys(before).sort().join(', ')}) is unchanged`,
    );
    plan.guarded.add(observed.uuid);
    plan.updates.push(updateOp(entry.row.table, table, observed.uuid, changed));
  } else if (adds) guardExists(plan, entry.row.table, observed.uuid, describeRow(entry.row.table, entry.identity));
  if (details.length > 0)
    plan.changes.push({ action: 'update', table: entry.row.table, identity: entry.identity, details });
}

/**
 * A row whose reference set gets new children must still exist when the transaction runs: a
 * `mutate` of a row another writer deleted matches nothing, the new children are then left
 * unreferenced and the server drops them, yet the transaction succeeds. The wait makes it fail.
 */
function guardExists(plan: PlannedRow, table: string, uuid: string, row: string): void {
  if (plan.guarded.has(uuid)) return;
  plan.guarded.add(uuid);
  plan.waits.push(waitExistsOp(table, uuid));
  plan.guards.push(`${row} (${uuid}) still exists`);
}

/**
 * Existing rows a written value references must still exist too: a strong reference to a row
 * deleted meanwhile fails the commit with a bare integrity error, a weak one (a router's Copp) is
 * dropped without a word. Rows inserted in the same transaction need no guard.
 */
function guardReferenced(context: RowPlanContext, plan: PlannedRow, type: ColumnType, value: unknown): void {
  const refTable = referencedTable(type);
  if (refTable === undefined || value === undefined || value === null) return;
  const refs =
    normalizeColumnType(type).value !== undefined && !Array.isArray(value) && typeof value === 'object'
      ? Object.values(value as Record<string, unknown>)
      : refList(value);
  for (const ref of refs as Ref[]) if ('uuid' in ref) guardExists(plan, refTable, ref.uuid, context.label(ref.uuid));
}

/** Adds missing references; removes only references to our own rows that are no longer wanted. */
function planReferenceSet(
  context: RowPlanContext,
  table: string,
  uuid: string,
  column: string,
  desiredValue: unknown,
  observedValue: unknown,
  plan: PlannedRow,
): { details: string[]; adds: boolean } {
  const desired = refList(desiredValue);
  const present = refList(observedValue);
  const wanted = new Set(desired.map(refId));
  const have = new Set(present.map(refId));
  const add = desired.filter((ref) => !have.has(refId(ref)));
  const remove = present.filter(
    (ref) => context.ours.has(refId(ref)) && !context.stale.has(refId(ref)) && !wanted.has(refId(ref)),
  );
  const details: string[] = [];
  if (add.length > 0) {
    guardReferenced(context, plan, columnTypeOf(tableOf(context.schema, table), table, column), add);
    plan.mutates.push(mutateRefsOp(table, byUuid(uuid), column, 'insert', add));
    details.push(`${column} + ${add.map((r) => context.label(refId(r))).join(', ')}`);
  }
  if (remove.length > 0) {
    plan.mutates.push(mutateRefsOp(table, byUuid(uuid), column, 'delete', remove));
    details.push(`${column} - ${remove.map((r) => context.label(refId(r))).join(', ')}`);
  }
  return { details, adds: add.length > 0 };
}

/** Columns whose observed values guard an update: the owner marker, or a ledger row's index. */
function guardColumns(table: TableSchema): string[] {
  return table.columns.external_ids !== undefined ? ['external_ids'] : [...new Set((table.indexes ?? []).flat())];
}

/** A child of a parent another owner made: referenced through a mutate, guarded by the parent existing. */
function planAttach(entry: Entry, { row: parent, column }: Holder, plan: PlannedRow): void {
  if (
    entry.observed !== undefined &&
    refList(parent.columns[column]).some((ref) => refId(ref) === entry.observed!.uuid)
  )
    return;
  guardExists(plan, parent.table, parent.uuid, describeRow(parent.table, rowIdentity(parent.table, parent.columns)));
  plan.mutates.push(mutateRefsOp(parent.table, byUuid(parent.uuid), column, 'insert', [entry.target]));
  const to = `${describeRow(parent.table, rowIdentity(parent.table, parent.columns))} ${column}`;
  plan.changes.push({ action: 'attach', table: entry.row.table, identity: entry.identity, details: [`to ${to}`] });
}

/** Our row leaves a foreign row that is no longer one of its parents (only our reference goes). */
function planDetach(entry: Entry, { row, column }: Holder, plan: PlannedRow): void {
  plan.mutates.push(mutateRefsOp(row.table, byUuid(row.uuid), column, 'delete', [{ uuid: entry.observed!.uuid }]));
  const from = `${describeRow(row.table, rowIdentity(row.table, row.columns))} ${column}`;
  plan.changes.push({ action: 'detach', table: entry.row.table, identity: entry.identity, details: [`from ${from}`] });
}

/**
 * A shared row (shared.ts) this owner no longer wants but others still use: only our user key
 * leaves its external_ids, guarded by the value read (a concurrent claim or release fails us).
 */
export function planRelease(
  context: RowPlanContext,
  row: ObservedRow,
  ids: Record<string, string>,
  plan: PlannedRow,
): void {
  const table = tableOf(context.schema, row.table);
  const identity = rowIdentity(row.table, row.columns);
  plan.waits.push(waitUnchangedOp(row.table, table, row.uuid, { external_ids: row.columns.external_ids }));
  plan.guards.push(`${describeRow(row.table, identity)} (external_ids) is unchanged`);
  plan.guarded.add(row.uuid);
  plan.updates.push(updateOp(row.table, table, row.uuid, { external_ids: ids }));
  const part = releasedPart(row.table, row.columns.external_ids as Record<string, unknown>, context.owner);
  if (part) plan.mutates.push(mutateAtomsOp(row.table, byUuid(row.uuid), part.column, 'delete', part.values));
  const users = usersOf(ids).join(', ');
  plan.changes.push({ action: 'update', table: row.table, identity, details: [`released, still used by ${users}`] });
}

/**
 * Deleting one of our rows. It is also removed from every strong reference set that may hold it
 * (matched with `includes`, so holders need not be observed), in the same transaction: a non-root
 * row's parents, and also a root row's holders (NB 7.0.0's Logical_Switch.load_balancer_group is
 * strong, so a referenced group cannot be deleted). Weak references the server drops itself.
 * Those detaches go after every delete of the transaction (`detaches`), where rows deleted in it
 * no longer match: a parent that goes with its child is not mutated at all, so a column with a
 * minimum (Meter.bands needs one band) is never emptied on its way out. The server checks
 * references only at commit, so the order of the delete and the detach does not matter otherwise;
 * a parent that stays and would be left below its minimum still fails the commit, loudly.
 */
export function planDeletion(context: RowPlanContext, row: ObservedRow, plan: PlannedRow): void {
  const table = tableOf(context.schema, row.table);
  const guarded =
    table.columns.external_ids !== undefined
      ? ['external_ids']
      : Object.keys(table.columns).filter((c) => c in row.columns);
  plan.waits.push(
    waitUnchangedOp(row.table, table, row.uuid, Object.fromEntries(guarded.map((c) => [c, row.columns[c]]))),
  );
  plan.guards.push(
    `${describeRow(row.table, rowIdentity(row.table, row.columns))} (${guarded.join(', ')}) is unchanged`,
  );
  for (const parent of parentColumns(context.schema, row.table)) {
    const where: Condition[] = [[parent.column, 'includes', ['uuid', row.uuid]]];
    plan.detaches.push(mutateRefsOp(parent.table, where, parent.column, 'delete', [{ uuid: row.uuid }]));
  }
  plan.deletes.push(deleteOp(row.table, row.uuid));
  plan.changes.push({
    action: 'delete',
    table: row.table,
    identity: rowIdentity(row.table, row.columns) ?? row.uuid,
    details: [],
  });
}
