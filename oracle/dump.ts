/**
 * A committed dump: upstream's Northbound for one topology file and zone, in scope only
 * (scope.ts), under natural keys (provider/nb/naturalKeys.ts), with what produced it: the upstream
 * commit, the harness settings and any errors the harness recorded.
 */
import type { ObservedRow } from '../provider/nb/desired';
import { nbSchema } from '../provider/nb/generated/nb';
import { canonicalText, naturalRows, type NaturalRow } from '../provider/nb/naturalKeys';
import type { ClusterAnnotations } from './clusterManager';
import type { HarnessSettings } from './input';
import { upstreamScope } from './scope';

export interface HarnessOutput {
  zone: string;
  tables: Record<string, Record<string, unknown>[]> | null;
  errors: string[];
  controllerErrors?: string[];
  millis: number;
  /** Mode `clustermanager`: the annotations upstream's cluster manager wrote (clusterManager.ts). */
  annotations?: ClusterAnnotations;
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

/** The harness's rows (`_uuid` and reference columns as UUIDs). */
export function observedRows(output: HarnessOutput): ObservedRow[] {
  return Object.entries(output.tables ?? {}).flatMap(([table, rows]) =>
    rows.map((columns) => ({ table, uuid: String(columns._uuid), columns })),
  );
}

export function oracleDump(
  output: HarnessOutput,
  about: Omit<OracleDump, 'tables' | 'errors' | 'controllerErrors' | 'zone'>,
  networks: string[],
): OracleDump {
  const rows = observedRows(output);
  const scope = upstreamScope(rows, networks, output.zone);
  const tables = dumpRows(rows, (uuid) => scope.has(uuid));
  const controllerErrors = (output.controllerErrors ?? []).map((e) => e.slice(0, 500));
  return { ...about, zone: output.zone, errors: output.errors, controllerErrors, tables };
}

/**
 * The rows `keep` chooses, under natural keys, references as `Table:key` (keys computed over all
 * rows). Rows that share a natural key (a NAT per allowed_ext_ips set) get ` #2`, ` #3`... in the
 * order of their columns, so that every row of a dump has its own key and references stay exact.
 */
export function dumpRows(rows: readonly ObservedRow[], keep: (uuid: string) => boolean): Record<string, DumpRow[]> {
  const natural = naturalRows(rows, nbSchema);
  const keyOf = uniqueKeys(natural);
  const raw = new Map(rows.map((r) => [r.uuid, r.columns]));
  const tables: Record<string, DumpRow[]> = {};
  for (const row of natural.filter((r) => keep(r.source))) {
    const columns = { ...row.columns };
    for (const [column, target] of Object.entries(row.references)) {
      const value = raw.get(row.source)?.[column];
      const ref = (uuid: unknown) => `${target}:${keyOf.get(String(uuid)) ?? String(uuid)}`;
      if (columns[column] !== undefined) columns[column] = Array.isArray(value) ? value.map(ref).sort() : ref(value);
    }
    (tables[row.table] ??= []).push({ key: keyOf.get(row.source)!, columns });
  }
  for (const list of Object.values(tables)) list.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return tables;
}

/** uuid -> the row's key within its table, numbered where several rows share one. */
function uniqueKeys(natural: readonly NaturalRow[]): Map<string, string> {
  const groups = new Map<string, NaturalRow[]>();
  for (const row of natural)
    groups.set(`${row.table}\0${row.key}`, [...(groups.get(`${row.table}\0${row.key}`) ?? []), row]);
  const out = new Map<string, string>();
  for (const group of groups.values()) {
    group.sort((a, b) => (canonicalText(a.columns) < canonicalText(b.columns) ? -1 : 1));
    group.forEach((row, i) => out.set(row.source, i === 0 ? row.key : `${row.key} #${i + 1}`));
  }
  return out;
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
