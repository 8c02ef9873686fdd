/**
 * A committed dump: upstream's Northbound for one topology file and zone, in scope only
 * (scope.ts), under natural keys (provider/nb/natural.ts), with what produced it: the upstream
 * commit, the harness settings and any errors the harness recorded.
 */
import { naturalTables, type IdRow, type NaturalTables } from '../provider/nb/natural';
import type { HarnessSettings } from './input';
import { upstreamScope } from './scope';

export interface HarnessOutput {
  zone: string;
  tables: Record<string, Record<string, unknown>[]> | null;
  errors: string[];
  controllerErrors?: string[];
  millis: number;
}

/** A dump row: its natural key and its columns (references as `Table:key`). */
export type DumpRow = { key: string; columns: Record<string, unknown> };

export interface OracleDump {
  /** The topology file, relative to the repository. */
  source: string;
  zone: string;
  upstream: { repository: string; commit: string; harness: string };
  settings: HarnessSettings;
  errors: string[];
  /** What upstream's controllers logged at error level (retries included): it explains rows they did not write. */
  controllerErrors: string[];
  tables: Record<string, DumpRow[]>;
}

/** The harness's rows (`_uuid` and reference columns as UUIDs) as IdRows. */
export function idRows(output: HarnessOutput): Record<string, IdRow[]> {
  const tables: Record<string, IdRow[]> = {};
  for (const [table, rows] of Object.entries(output.tables ?? {}))
    tables[table] = rows.map((columns) => ({ id: String(columns._uuid), columns }));
  return tables;
}

export function oracleDump(
  output: HarnessOutput,
  about: Omit<OracleDump, 'tables' | 'errors' | 'controllerErrors' | 'zone'>,
  networks: string[],
): OracleDump {
  const rows = idRows(output);
  const scope = upstreamScope(rows, networks, output.zone);
  const natural = naturalTables(rows, (table, row) => scope.has(`${table}\0${row.id}`));
  const tables = Object.fromEntries(
    Object.entries(natural).map(([table, list]) => [table, list.map(({ key, columns }) => ({ key, columns }))]),
  );
  const controllerErrors = (output.controllerErrors ?? []).map((e) => e.slice(0, 500));
  return { ...about, zone: output.zone, errors: output.errors, controllerErrors, tables };
}

/** The dump's tables as natural tables again. */
export function dumpTables(dump: OracleDump): NaturalTables {
  return Object.fromEntries(
    Object.entries(dump.tables).map(([table, rows]) => [table, rows.map((r) => ({ table, ...r }))]),
  );
}

/** JSON with one line per row: small, and a changed row is a one-line diff. */
export function dumpText(dump: OracleDump): string {
  const { tables, ...about } = dump;
  const head = JSON.stringify(about, null, 1).replace(/\n}$/, '');
  const body = Object.entries(tables)
    .map(
      ([table, rows]) => ` ${JSON.stringify(table)}: [\n${rows.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n ]`,
    )
    .join(',\n');
  return `${head},\n "tables": {\n${body}\n }\n}\n`;
}
