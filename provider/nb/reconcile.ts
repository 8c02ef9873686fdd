/**
 * The reconcile engine (pure): one owner's desired rows (desired.ts) and the rows observed on the
 * server -> the operations of ONE transaction plus a summary in words. Inserts use named uuids;
 * updates carry changed columns only; reference sets of parents are mutated (insert/delete of our
 * rows), never overwritten; rows we update or delete are guarded with `wait` so a concurrent
 * writer makes the transaction fail rather than be clobbered. Only rows carrying our marker, or
 * (tables without external_ids) listed in our ledger (ledger.ts), are ever changed; the ledger is
 * rewritten in the same transaction when the set of such rows changes. Reconciling the applied
 * state again gives no operations.
 */
import type { Operation } from '../ovsdb/notation';
import { columnTypeOf, type DatabaseSchema, tableOf } from '../ovsdb/schema';
import { describeChange } from './changeWords';
import { describeRow, rowIdentity, type ObservedRow } from './desired';
import { checkDesired, type Identified } from './desiredChecks';
import type { KeyWrite } from './homeKey';
import { isLedgerTable, planLedger } from './ledger';
import { checkForeignTwins, splitObserved, storedLedger, type Split } from './owned';
import { withOwner } from './ownership';
import { checkParentColumns, formerParents, inlineParents } from './parents';
import type { Entry, ReconcileInput, RowChange } from './reconcileTypes';
import {
  referencedTable,
  referenceSetColumns,
  RowIndex,
  resolveColumn,
  type DesiredTarget,
  type ReferenceScope,
} from './references';
import { keepResolved, resolvedBefore } from './rowMemo';
import { emptyPlan, planDeletion, planRelease, planRow, type PlannedRow, type RowPlanContext } from './rowPlan';
import { type ReconcileReason, type RowProblem, rowProblem } from './rowProblems';
import { claimedIds, releasedIds } from './shared';
import { claimedPart } from './sharedParts';

type ExternalIds = Record<string, unknown> | undefined;

export { describeChange } from './changeWords';
export type { ReconcileInput, RowChange } from './reconcileTypes';

export interface Plan {
  operations: Operation[];
  changes: RowChange[];
  /** One line per change, in words. */
  summary: string[];
  /** For each `wait` in `operations`, in order: what it guards, in words. */
  guards: string[];
}

type Problems = RowProblem<ReconcileReason>[];

export class ReconcileError extends Error {
  override name = 'ReconcileError';
  /** @param problems every problem: its row, its reason and its sentence */
  constructor(readonly problems: Problems) {
    super(`nb: cannot reconcile the desired rows:\n  - ${problems.map((p) => p.message).join('\n  - ')}`);
  }

  /**
   * How many desired ledger rows found a row that is not ours with their identity: what a lost
   * ledger looks like (`ovnk repair` rebuilds it).
   */
  get foreignTwins(): number {
    return this.problems.filter((p) => p.reason === 'foreignTwin').length;
  }
}

export function reconcile(input: ReconcileInput): Plan {
  const problems: Problems = [];
  const ledger = storedLedger(input);
  const desired = withParentsInlined(checkDesired(input, problems), input.schema, problems);
  const split = splitObserved(input, ledger);
  const entries = match(desired, split.owned);
  checkForeignTwins(input, entries, split.foreign, problems);
  const stale = staleRows(split, entries);
  // shared rows other owners still use are released, not deleted
  const released = stale.filter((row) => releasedIds(row.columns.external_ids as ExternalIds, input.owner));
  const deleted = stale.filter((row) => !released.includes(row));
  const scope = buildScope(entries, split.foreign);
  for (const entry of entries) entry.columns = resolveEntry(input, scope, entry, problems);
  checkParents(input.schema, scope, entries, problems);
  for (const entry of entries) entry.detachFrom = formerParents(entry, split.others);
  if (problems.length > 0) throw new ReconcileError(problems);
  const context: RowPlanContext = {
    schema: input.schema,
    scope,
    label: labeller(entries, () => [...input.observed, ...(input.foreign ?? [])]),
    ours: new Set(split.mine.map((r) => r.uuid)),
    stale: new Set(deleted.map((r) => r.uuid)),
    owner: input.owner,
  };
  const planned = emptyPlan();
  for (const entry of entries) planRow(context, entry, planned);
  for (const row of released)
    planRelease(context, row, releasedIds(row.columns.external_ids as ExternalIds, input.owner)!, planned);
  for (const row of deleted) planDeletion(context, row, planned);
  const owned = entries
    .filter((e) => isLedgerTable(input.schema, e.row.table))
    .map((e) => ({ table: e.row.table, identity: e.identity }));
  const write = planLedger(input.schema, input.owner, input.ledger ?? { homeExists: true }, ledger, owned);
  if (write.detail) planned.changes.push({ action: 'update', table: write.detail.table, details: [write.detail.text] });
  return assemble(planned, input.schema, write);
}

function compareKeys(tableA: string, idA: string, tableB: string, idB: string): number {
  if (tableA !== tableB) return tableA < tableB ? -1 : 1;
  return idA < idB ? -1 : idA > idB ? 1 : 0;
}

/** Parent columns checked; children written into the columns of parents in the desired set (parents.ts). */
function withParentsInlined(rows: Identified[], schema: DatabaseSchema, problems: Problems): Identified[] {
  for (const r of rows.filter((r) => r.row.parents !== undefined))
    for (const message of checkParentColumns(schema, r.row, r.identity))
      problems.push(rowProblem('badParentColumn', r.row.table, r.identity, message));
  const inlined = inlineParents(rows.map((r) => r.row));
  for (let i = 0; i < rows.length; i++) if (inlined[i] !== rows[i]!.row) rows[i] = { ...rows[i]!, row: inlined[i]! };
  return rows;
}

function match(desired: Identified[], owned: RowIndex<ObservedRow>): Entry[] {
  return desired.map(({ row, identity }, index) => {
    const observed = owned.get(row.table, identity)[0];
    const target: DesiredTarget = observed ? { uuid: observed.uuid } : { namedUuid: `new_${index}` };
    return { row, identity, observed, target, columns: row.columns, parentRows: [], detachFrom: [] };
  });
}

/** Our observed rows no entry claims, in a stable order: these are deleted. */
function staleRows(split: Split, entries: Entry[]): ObservedRow[] {
  const claimed = new Set(entries.map((e) => e.observed?.uuid));
  return split.mine
    .filter((row) => !claimed.has(row.uuid))
    .sort((a, b) => compareKeys(a.table, a.uuid, b.table, b.uuid));
}

function buildScope(entries: Entry[], foreign: RowIndex<ObservedRow>): ReferenceScope {
  const desired = new RowIndex<DesiredTarget>();
  for (const entry of entries) desired.add(entry.row.table, entry.identity, entry.target);
  return { desired, foreign };
}

function resolveEntry(
  input: ReconcileInput,
  scope: ReferenceScope,
  entry: Entry,
  problems: Problems,
): Record<string, unknown> {
  const table = tableOf(input.schema, entry.row.table);
  const { row, identity } = entry;
  const known = row.shared ? undefined : resolvedBefore(row, input.schema, input.owner);
  if (known !== undefined) return known;
  const resolved: Record<string, unknown> = {};
  let column = '';
  let references = false;
  const problem = (message: string) =>
    problems.push(
      rowProblem(
        'unresolvedReference',
        row.table,
        identity,
        `${describeRow(row.table, identity)} column ${column}: ${message}`,
      ),
    );
  for (column in row.columns) {
    const type = columnTypeOf(table, row.table, column);
    const value = row.columns[column];
    references ||= value !== undefined && referencedTable(type) !== undefined;
    resolved[column] = resolveColumn(scope, type, value, problem);
  }
  if (!row.shared) {
    if (table.columns.external_ids !== undefined)
      resolved.external_ids = withOwner(resolved.external_ids as ExternalIds, input.owner);
    // without references the row resolves alike in every zone
    if (!references) keepResolved(row, input.schema, input.owner, resolved);
    return resolved;
  }
  if (table.columns.external_ids === undefined) return resolved;
  const observed = entry.observed?.columns;
  const ids = claimedIds(resolved.external_ids as ExternalIds, observed?.external_ids as ExternalIds, input.owner);
  const part = claimedPart(row.table, resolved, observed, input.owner);
  if (part) {
    resolved[part.column] = part.value;
    ids[part.key] = part.part;
  }
  resolved.external_ids = ids;
  return resolved;
}

/** Every non-root row needs a parent in the same transaction, or the server drops it. */
function checkParents(schema: DatabaseSchema, scope: ReferenceScope, entries: Entry[], problems: Problems): void {
  const referenced = referencedTargets(schema, entries);
  for (const entry of entries) {
    const refuse = (reason: ReconcileReason, why: string) =>
      problems.push(
        rowProblem(reason, entry.row.table, entry.identity, `${describeRow(entry.row.table, entry.identity)}: ${why}`),
      );
    for (const parent of entry.row.parents ?? []) {
      const rows = scope.foreign.get(parent.table, parent.identity);
      if (rows.length === 1) entry.parentRows.push({ row: rows[0]!, column: parent.column });
      else
        refuse(
          'unresolvedParent',
          `parent ${describeRow(parent.table, parent.identity)} ${rows.length === 0 ? 'is neither desired nor observed' : `is ambiguous (${rows.length} rows)`}`,
        );
    }
    const target = entry.target;
    const held =
      entry.parentRows.length > 0 || referenced.has(target) || ('uuid' in target && referenced.has(target.uuid));
    if (tableOf(schema, entry.row.table).isRoot !== true && !held)
      refuse('unparented', `${entry.row.table} is not a root table and no desired row references it (give it parents)`);
  }
}

/**
 * What the desired reference sets hold: the targets themselves (a reference to a desired row
 * resolves to that row's own target object) and the uuids of references given as `{ uuid }`.
 */
function referencedTargets(schema: DatabaseSchema, entries: Entry[]): Set<unknown> {
  const referenced = new Set<unknown>();
  for (const entry of entries) {
    for (const column of referenceSetColumns(schema.tables[entry.row.table]!)) {
      const value = entry.columns[column];
      if (value === undefined) continue;
      for (const ref of (Array.isArray(value) ? value : [value]) as DesiredTarget[]) {
        referenced.add(ref);
        if ('uuid' in ref) referenced.add(ref.uuid);
      }
    }
  }
  return referenced;
}

/** Labels are needed only for the few rows a plan changes, so each is worded when asked for. */
function labeller(entries: Entry[], observed: () => ObservedRow[]): (id: string) => string {
  let rows: Map<string, ObservedRow | Entry> | undefined;
  const index = () => {
    const made = new Map<string, ObservedRow | Entry>();
    for (const row of observed()) made.set(row.uuid, row);
    for (const entry of entries) made.set('uuid' in entry.target ? entry.target.uuid : entry.target.namedUuid, entry);
    return made;
  };
  return (id) => {
    const row = (rows ??= index()).get(id);
    if (row === undefined) return id;
    return 'row' in row
      ? describeRow(row.row.table, row.identity)
      : describeRow(row.table, rowIdentity(row.table, row.columns));
  };
}

/**
 * One transaction: guards first, then inserts (children before the roots that reference them),
 * updates, mutates, deletes, the deleted rows' detaches from the rows that stay, and last the
 * ledger key with its own guard (homeKey.ts).
 */
function assemble(planned: PlannedRow, schema: DatabaseSchema, ledger: KeyWrite): Plan {
  const isRoot = (op: Operation) => 'table' in op && tableOf(schema, op.table).isRoot === true;
  const operations = [
    ...planned.waits,
    ...planned.inserts.filter((op) => !isRoot(op)),
    ...planned.inserts.filter(isRoot),
    ...planned.updates,
    ...planned.mutates,
    ...planned.deletes,
    ...planned.detaches,
    ...ledger.operations,
  ];
  const guards = [...planned.guards, ...ledger.guards];
  return { operations, changes: planned.changes, summary: planned.changes.map((c) => describeChange(c)), guards };
}
