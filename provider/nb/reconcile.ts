/**
 * The reconcile engine (pure): one owner's desired rows (desired.ts) and the rows observed on the
 * server -> the operations of ONE transaction plus a summary in words. Inserts use named uuids;
 * updates carry changed columns only; reference sets of parents are mutated (insert/delete of our
 * rows), never overwritten; rows we update or delete are guarded with `wait` so a concurrent
 * writer makes the transaction fail rather than be clobbered. Only rows carrying our marker are
 * ever changed. Reconciling the applied state again gives no operations.
 */
import type { Operation } from '../ovsdb/notation';
import type { DatabaseSchema } from '../ovsdb/schema';
import { describeRow, rowIdentity, type DesiredRow, type ObservedRow } from './desired';
import { isOwnedBy, withOwner } from './ownership';
import { RowIndex, resolveColumn, type DesiredTarget, type ReferenceScope } from './references';
import { planDeletion, planRow, type PlannedRow, type RowPlanContext } from './rowPlan';
import { isReferenceSet, referencedTable } from './references';

export interface ReconcileInput {
  /** The owner whose rows these are (`ovnk.io/owner`). */
  owner: string;
  /** Column types, roots and references (our generated metadata, or the server's). */
  schema: DatabaseSchema;
  desired: DesiredRow[];
  /** The rows observed carrying our marker. Rows without it are treated as foreign. */
  observed: ObservedRow[];
  /** Observed rows of others that references or `parent` may name. */
  foreign?: ObservedRow[];
}

export interface RowChange {
  action: 'create' | 'update' | 'delete' | 'attach';
  table: string;
  identity?: string;
  /** `column: old -> new`, `ports + X`, ... */
  details: string[];
  /** For `create`: the uuid-name of its insert (its uuid is in that operation's result). */
  namedUuid?: string;
}

export interface Plan {
  operations: Operation[];
  changes: RowChange[];
  /** One line per change, in words. */
  summary: string[];
  /** For each `wait` (they come first in `operations`): what it guards, in words. */
  guards: string[];
}

export class ReconcileError extends Error {
  override name = 'ReconcileError';
  constructor(readonly problems: string[]) {
    super(`nb: cannot reconcile the desired rows:\n  - ${problems.join('\n  - ')}`);
  }
}

/** A desired row made ready: identity, match, target, resolved columns. */
export interface Entry {
  row: DesiredRow;
  identity: string;
  observed?: ObservedRow;
  target: DesiredTarget;
  columns: Record<string, unknown>;
  /** The foreign row named by `row.parent`, once found. */
  parentRow?: ObservedRow;
}

export function reconcile(input: ReconcileInput): Plan {
  const problems: string[] = [];
  const desired = mergeParents(checkDesired(input, problems), input.schema, problems);
  const split = splitObserved(input);
  const entries = match(desired, split.owned);
  const stale = staleRows(split, entries);
  const scope = buildScope(entries, split.foreign);
  for (const entry of entries) entry.columns = resolveEntry(input, scope, entry, problems);
  checkParents(input.schema, scope, entries, problems);
  if (problems.length > 0) throw new ReconcileError(problems);
  const context: RowPlanContext = {
    schema: input.schema,
    scope,
    label: labeller(entries, [...input.observed, ...(input.foreign ?? [])]),
    ours: new Set(split.mine.map((r) => r.uuid)),
    stale: new Set(stale.map((r) => r.uuid)),
  };
  const planned = [...entries.map((entry) => planRow(context, entry)), ...stale.map((row) => planDeletion(context, row))];
  return assemble(planned, input.schema);
}

type Identified = { row: DesiredRow; identity: string };

/** Every problem of the desired rows at once: unknown tables or columns, missing or duplicate identities. */
function checkDesired(input: ReconcileInput, problems: string[]): Identified[] {
  const seen = new Set<string>();
  const identified: Identified[] = [];
  input.desired.forEach((row, index) => {
    const table = input.schema.tables[row.table];
    const identity = rowIdentity(row.table, row.columns);
    const where = `desired row ${index} (${describeRow(row.table, identity)})`;
    if (table === undefined) return void problems.push(`${where}: table ${row.table} is not in ${input.schema.name} ${input.schema.version}`);
    if (table.columns.external_ids === undefined) return void problems.push(`${where}: ${row.table} has no external_ids column, so its rows cannot carry our owner marker`);
    const unknown = Object.keys(row.columns).filter((c) => table.columns[c] === undefined);
    if (unknown.length > 0) problems.push(`${where}: ${row.table} has no column(s) ${unknown.join(', ')}`);
    if (identity === undefined) return void problems.push(`${where}: has no identity (name, external_ids k8s.ovn.org/id or ovnk.io/key)`);
    const key = rowKeyOf(row.table, identity);
    if (seen.has(key)) return void problems.push(`${where}: another desired ${row.table} row has the same identity`);
    seen.add(key);
    if (unknown.length === 0) identified.push({ row, identity });
  });
  return identified.sort((a, b) => compareKeys(a.row.table, a.identity, b.row.table, b.identity));
}

function compareKeys(tableA: string, idA: string, tableB: string, idB: string): number {
  if (tableA !== tableB) return tableA < tableB ? -1 : 1;
  return idA < idB ? -1 : idA > idB ? 1 : 0;
}

const rowKeyOf = (table: string, identity: string) => `${table}\u0000${identity}`;

/** The parent column must exist and reference the child's table. */
function parentColumnOk(schema: DatabaseSchema, child: Identified, problems: string[]): boolean {
  const parent = child.row.parent!;
  const type = schema.tables[parent.table]?.columns[parent.column]?.type;
  if (type !== undefined && isReferenceSet(type) && referencedTable(type) === child.row.table) return true;
  problems.push(`${describeRow(child.row.table, child.identity)}: parent column ${parent.table}.${parent.column} is not a set of references to ${child.row.table}`);
  return false;
}

/** A child whose `parent` is in the desired set is listed in that parent's column instead. */
function mergeParents(rows: Identified[], schema: DatabaseSchema, problems: string[]): Identified[] {
  const byKey = new Map(rows.map((r) => [rowKeyOf(r.row.table, r.identity), r]));
  const children = new Map<Identified, Record<string, string[]>>();
  const merged = new Set<Identified>();
  for (const child of rows) {
    const ref = child.row.parent;
    if (ref === undefined || !parentColumnOk(schema, child, problems)) continue;
    const parent = byKey.get(rowKeyOf(ref.table, ref.identity));
    if (parent === undefined) continue;
    const columns = children.get(parent) ?? {};
    (columns[ref.column] ??= []).push(child.identity);
    children.set(parent, columns);
    merged.add(child);
  }
  return rows.map((r) => {
    const extra = children.get(r);
    if (extra === undefined && !merged.has(r)) return r;
    const columns = { ...r.row.columns };
    for (const [column, identities] of Object.entries(extra ?? {})) columns[column] = [...refsAsList(columns[column]), ...identities];
    return { identity: r.identity, row: { table: r.row.table, columns, parent: merged.has(r) ? undefined : r.row.parent } };
  });
}

function refsAsList(value: unknown): unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

interface Split {
  /** Our rows by identity; of several with one identity the lowest uuid is kept, the rest go stale. */
  owned: RowIndex<ObservedRow>;
  foreign: RowIndex<ObservedRow>;
  mine: ObservedRow[];
}

function splitObserved(input: ReconcileInput): Split {
  const owned = new RowIndex<ObservedRow>();
  const foreign = new RowIndex<ObservedRow>();
  const mine = input.observed.filter((row) => isOwnedBy(row.columns.external_ids as Record<string, unknown>, input.owner));
  const mineSet = new Set(mine);
  const others = [...(input.foreign ?? []), ...input.observed.filter((row) => !mineSet.has(row))];
  for (const row of [...mine].sort((a, b) => (a.uuid < b.uuid ? -1 : 1))) {
    const identity = rowIdentity(row.table, row.columns);
    if (identity !== undefined && owned.get(row.table, identity).length === 0) owned.add(row.table, identity, row);
  }
  for (const row of others) {
    const identity = rowIdentity(row.table, row.columns);
    if (identity !== undefined) foreign.add(row.table, identity, row);
  }
  return { owned, foreign, mine };
}

function match(desired: Identified[], owned: RowIndex<ObservedRow>): Entry[] {
  return desired.map(({ row, identity }, index) => {
    const observed = owned.get(row.table, identity)[0];
    const target: DesiredTarget = observed ? { uuid: observed.uuid } : { namedUuid: `new_${index}` };
    return { row, identity, observed, target, columns: row.columns };
  });
}

/** Our observed rows no entry claims, in a stable order: these are deleted. */
function staleRows(split: Split, entries: Entry[]): ObservedRow[] {
  const claimed = new Set(entries.map((e) => e.observed?.uuid));
  return split.mine.filter((row) => !claimed.has(row.uuid)).sort((a, b) => compareKeys(a.table, a.uuid, b.table, b.uuid));
}

function buildScope(entries: Entry[], foreign: RowIndex<ObservedRow>): ReferenceScope {
  const desired = new RowIndex<DesiredTarget>();
  for (const entry of entries) desired.add(entry.row.table, entry.identity, entry.target);
  return { desired, foreign };
}

function resolveEntry(input: ReconcileInput, scope: ReferenceScope, entry: Entry, problems: string[]): Record<string, unknown> {
  const table = input.schema.tables[entry.row.table];
  const resolved: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(entry.row.columns)) {
    const problem = (message: string) => problems.push(`${describeRow(entry.row.table, entry.identity)} column ${column}: ${message}`);
    resolved[column] = resolveColumn(scope, table.columns[column].type, value, problem);
  }
  resolved.external_ids = withOwner(resolved.external_ids as Record<string, unknown> | undefined, input.owner);
  return resolved;
}

function targetKey(target: DesiredTarget): string {
  return 'uuid' in target ? `u:${target.uuid}` : `n:${target.namedUuid}`;
}

/** Every non-root row needs a parent in the same transaction, or the server drops it. */
function checkParents(schema: DatabaseSchema, scope: ReferenceScope, entries: Entry[], problems: string[]): void {
  const referenced = new Set<string>();
  for (const entry of entries) {
    for (const [column, value] of Object.entries(entry.columns)) {
      const type = schema.tables[entry.row.table].columns[column].type;
      if (isReferenceSet(type) && value !== undefined) {
        for (const ref of (Array.isArray(value) ? value : [value]) as DesiredTarget[]) referenced.add(targetKey(ref));
      }
    }
  }
  for (const entry of entries) {
    const parent = entry.row.parent;
    const where = describeRow(entry.row.table, entry.identity);
    if (parent !== undefined) {
      const rows = scope.foreign.get(parent.table, parent.identity);
      if (rows.length === 1) entry.parentRow = rows[0];
      else problems.push(`${where}: parent ${describeRow(parent.table, parent.identity)} ${rows.length === 0 ? 'is neither desired nor observed' : `is ambiguous (${rows.length} rows)`}`);
    } else if (schema.tables[entry.row.table].isRoot !== true && !referenced.has(targetKey(entry.target))) {
      problems.push(`${where}: ${entry.row.table} is not a root table and no desired row references it (give it a parent)`);
    }
  }
}

function labeller(entries: Entry[], observed: ObservedRow[]): (id: string) => string {
  const labels = new Map<string, string>();
  for (const row of observed) labels.set(row.uuid, describeRow(row.table, rowIdentity(row.table, row.columns)));
  for (const entry of entries) {
    const id = 'uuid' in entry.target ? entry.target.uuid : entry.target.namedUuid;
    labels.set(id, describeRow(entry.row.table, entry.identity));
  }
  return (id) => labels.get(id) ?? id;
}

/** One transaction: guards first, then inserts (children before the roots that reference them), updates, mutates, deletes. */
function assemble(planned: PlannedRow[], schema: DatabaseSchema): Plan {
  const inserts = planned.flatMap((p) => p.inserts);
  const isRoot = (op: Operation) => 'table' in op && schema.tables[op.table].isRoot === true;
  const operations = [
    ...planned.flatMap((p) => p.waits),
    ...inserts.filter((op) => !isRoot(op)),
    ...inserts.filter(isRoot),
    ...planned.flatMap((p) => p.updates),
    ...planned.flatMap((p) => p.mutates),
    ...planned.flatMap((p) => p.deletes),
  ];
  const changes = planned.flatMap((p) => p.changes);
  return { operations, changes, summary: changes.map(describeChange), guards: planned.flatMap((p) => p.guards) };
}

export function describeChange(change: RowChange): string {
  const row = describeRow(change.table, change.identity);
  return change.details.length === 0 ? `${change.action} ${row}` : `${change.action} ${row}: ${change.details.join('; ')}`;
}
