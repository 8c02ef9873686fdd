/**
 * The ledger: how an owner owns rows of tables that have no external_ids (so cannot carry the
 * `ovnk.io/owner` marker) but do have a unique index (OVN_Northbound's Load_Balancer_Group [name]
 * and Static_MAC_Binding [logical_port, ip]). Each owner keeps, in the database's root singleton,
 * `external_ids["ovnk.io/owned/<owner>"]` = JSON `{ "<table>": ["<identity>", ...] }` (tables and
 * identities sorted; identities per desired.ts `rowIdentity`), written in the same transaction as
 * the rows. A row of such a table is ours only when its identity is in our ledger; a row of the
 * same identity that is not is someone else's and is never touched.
 * The ledger's home is a property of the database: OVN_Northbound keeps it in
 * NB_Global.external_ids, Open_vSwitch in Open_vSwitch.external_ids. Other databases have none,
 * and their tables without external_ids cannot be owned. Pure.
 */
import { LEDGER_PREFIX } from '../model/externalIds';
import type { Operation } from '../ovsdb/notation';
import type { DatabaseSchema } from '../ovsdb/schema';
import { type Home, writeHomeKey } from './homeKey';
import { checkOwner } from './ownership';

export { LEDGER_PREFIX };

/** Where a database keeps its ledgers: a root singleton table and its string map column. */
export type LedgerHome = Home;

const HOMES: Readonly<Record<string, LedgerHome>> = {
  OVN_Northbound: { table: 'NB_Global', column: 'external_ids' },
  Open_vSwitch: { table: 'Open_vSwitch', column: 'external_ids' },
};

/** Table -> identities of the rows an owner owns there. */
export type Ledger = Record<string, string[]>;

/** What observe found of an owner's ledger. */
export interface LedgerState {
  /** Whether the home row (NB_Global, Open_vSwitch) exists. */
  homeExists: boolean;
  /** The stored JSON text, if the owner has a ledger. */
  text?: string;
  /**
   * A ledger rebuilt from the owner's rows (ledgerRecovery.ts), used instead of `text` (which still
   * guards its rewrite).
   */
  recovered?: Ledger;
}

export class LedgerError extends Error {
  override name = 'LedgerError';
}

export function ledgerHome(database: string): LedgerHome | undefined {
  return HOMES[database];
}

export function ledgerKey(owner: string): string {
  return `${LEDGER_PREFIX}${checkOwner(owner)}`;
}

/** A table whose rows are owned through the ledger: no external_ids, a unique index, a home. */
export function isLedgerTable(schema: DatabaseSchema, table: string): boolean {
  const spec = schema.tables[table];
  return (
    spec !== undefined &&
    spec.columns.external_ids === undefined &&
    (spec.indexes?.length ?? 0) > 0 &&
    ledgerHome(schema.name) !== undefined
  );
}

/** The stored text as a ledger; `where` names the key in errors. */
export function parseLedger(text: string | undefined, where: string): Ledger {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LedgerError(
      `nb: ${where} is not JSON (${(error as Error).message}); refusing to guess which rows are ours`,
    );
  }
  const ok =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((ids) => Array.isArray(ids) && ids.every((id) => typeof id === 'string'));
  if (!ok) throw new LedgerError(`nb: ${where} = ${text} is not an object of table -> list of identity strings`);
  return value as Ledger;
}

/** The canonical text (tables and identities sorted), or undefined for an empty ledger. */
export function serializeLedger(ledger: Ledger): string | undefined {
  const tables = Object.keys(ledger)
    .filter((t) => ledger[t]!.length > 0)
    .sort();
  if (tables.length === 0) return undefined;
  return JSON.stringify(Object.fromEntries(tables.map((t) => [t, [...new Set(ledger[t])].sort()])));
}

/** Selects the home row's ledger column (one row, or none). */
export function ledgerSelect(home: LedgerHome): Operation {
  return { op: 'select', table: home.table, where: [], columns: [home.column] };
}

/** The ledger operations and their line in words, when the owner's ledger must change; else nothing. */
export function planLedger(
  schema: DatabaseSchema,
  owner: string,
  state: LedgerState,
  stored: Ledger,
  owned: { table: string; identity: string }[],
): { operations: Operation[]; guards: string[]; detail?: { table: string; text: string } } {
  const home = ledgerHome(schema.name);
  if (home === undefined) return { operations: [], guards: [] };
  const next: Ledger = {};
  for (const row of owned) (next[row.table] ??= []).push(row.identity);
  const before = serializeLedger(stored);
  const after = serializeLedger(next);
  // compared with the text as stored: an unreadable or rebuilt ledger is rewritten (or removed) too
  if (state.text === after) return { operations: [], guards: [] };
  const text = `${home.column}["${ledgerKey(owner)}"]: ${before ?? 'absent'} -> ${after ?? 'absent'}`;
  // guarded against the text as stored (another writer of this owner's ledger fails the commit)
  const write = writeHomeKey(home, ledgerKey(owner), state.text, after, state.homeExists);
  return { ...write, detail: { table: home.table, text } };
}
