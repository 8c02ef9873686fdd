/**
 * The checks reconcile (reconcile.ts) makes of the desired rows before planning: every problem at
 * once (unknown tables or columns, rows we cannot own, missing or duplicate identities), and the
 * rows with their identities in (table, identity) order. A row found without problems is kept
 * per row object (rowMemo.ts): the zones of a per-node plan share most rows. Pure.
 */
import { describeRow, desiredIdentity, type DesiredRow } from './desired';
import { isLedgerTable } from './ledger';
import type { ReconcileInput } from './reconcileTypes';
import { checkedBefore, keepChecked } from './rowMemo';
import { type ReconcileReason, type RowProblem, rowProblem } from './rowProblems';
import { sharedTables } from './shared';

type Problems = RowProblem<ReconcileReason>[];

/** A row's identity and sort key; `complete: false` when a column is unknown (the row is left out). */
type Checked = { identity: string; key: string; complete?: boolean };

const rowKeyOf = (table: string, identity: string) => `${table}\u0000${identity}`;

export type Identified = { row: DesiredRow; identity: string };

/** Every problem of the desired rows at once: unknown tables or columns, missing or duplicate identities. */
export function checkDesired(input: ReconcileInput, problems: Problems): Identified[] {
  const seen = new Set<string>();
  const identified: (Identified & { key: string })[] = [];
  input.desired.forEach((row, index) => {
    const checked: Checked | undefined = checkedBefore(row, input.schema) ?? checkRow(input, row, index, problems);
    if (checked === undefined) return;
    const { identity, key } = checked;
    if (seen.has(key))
      return void problems.push(
        rowProblem(
          'duplicateIdentity',
          row.table,
          identity,
          `desired row ${index} (${describeRow(row.table, identity)}): another desired ${row.table} row has the same identity`,
        ),
      );
    seen.add(key);
    if (checked.complete !== false) identified.push({ row, identity, key });
  });
  // `<table>\0<identity>` orders as (table, identity) does
  return identified
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ row, identity }) => ({ row, identity }));
}

/**
 * What one row alone may be refused for; its identity and key when it has one (`complete`: every
 * column is known). A row without problems is kept (rowMemo.ts): the zones share most rows.
 */
function checkRow(input: ReconcileInput, row: DesiredRow, index: number, problems: Problems): Checked | undefined {
  const before = problems.length;
  const table = input.schema.tables[row.table];
  const identity = desiredIdentity(row);
  const refuse = (reason: ReconcileReason, why: string) =>
    void problems.push(
      rowProblem(reason, row.table, identity, `desired row ${index} (${describeRow(row.table, identity)}): ${why}`),
    );
  if (table === undefined)
    return refuse('unknownTable', `table ${row.table} is not in ${input.schema.name} ${input.schema.version}`);
  if (table.columns.external_ids === undefined && !isLedgerTable(input.schema, row.table)) {
    return refuse(
      'unownable',
      `${row.table} has no external_ids column to carry our owner marker, and no unique index to record its rows by in a ledger`,
    );
  }
  if (row.shared && !sharedTables(input.schema.name).includes(row.table))
    refuse('notShareable', `${row.table} is not a table of ${input.schema.name} that may hold shared rows`);
  const unknown = Object.keys(row.columns).filter((c) => table.columns[c] === undefined);
  if (unknown.length > 0) refuse('unknownColumns', `${row.table} has no column(s) ${unknown.join(', ')}`);
  if (identity === undefined)
    return refuse('noIdentity', 'has no identity (name, external_ids k8s.ovn.org/id or ovnk.io/key)');
  const key = rowKeyOf(row.table, identity);
  if (problems.length === before) keepChecked(row, input.schema, identity, key);
  return { identity, key, complete: unknown.length === 0 };
}
