/**
 * Plain-data fixtures for the reconcile tests: desired rows, and the observed state those rows
 * describe once written (uuids assigned, references resolved, our marker added).
 */
import type { DesiredRow, ObservedRow } from '../../../provider/nb/desired';
import { rowIdentity } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import { OWNER_KEY } from '../../../provider/nb/ownership';
import { referencedTable } from '../../../provider/nb/references';

export const owner = 'stack-a';

export function uuidFor(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export function router(name: string, columns: Record<string, unknown> = {}): DesiredRow {
  return { table: 'Logical_Router', columns: { name, ...columns } };
}

export function port(name: string, mac = '0a:58:64:40:00:01', networks = ['100.64.0.1/31']): DesiredRow {
  return { table: 'Logical_Router_Port', columns: { name, mac, networks } };
}

export function route(
  key: string,
  prefix: string,
  nexthop: string,
  parent?: NonNullable<DesiredRow['parents']>[number],
): DesiredRow {
  const row: DesiredRow = {
    table: 'Logical_Router_Static_Route',
    columns: { ip_prefix: prefix, nexthop, external_ids: { 'ovnk.io/key': key } },
  };
  if (parent) row.parents = [parent];
  return row;
}

/**
 * The rows the server would hold after the desired rows were written for `who`: each desired row
 * gets a uuid, references become `{ uuid }`, external_ids get the marker; children named through
 * `parents` are added to each foreign parent's column (a copy of `foreign` is returned). Rows of
 * tables without external_ids get no marker (the ledger owns them).
 */
export function materialize(desired: DesiredRow[], foreign: ObservedRow[] = [], who = owner, firstUuid = 1000) {
  const uuids = new Map<string, string>();
  desired.forEach((row, i) => uuids.set(`${row.table}/${rowIdentity(row.table, row.columns)}`, uuidFor(firstUuid + i)));
  const lookup = (table: string, identity: string) =>
    uuids.get(`${table}/${identity}`) ??
    foreign.find((f) => f.table === table && rowIdentity(table, f.columns) === identity)!.uuid;
  const observed: ObservedRow[] = desired.map((row) => {
    const uuid = lookup(row.table, rowIdentity(row.table, row.columns)!);
    const columns: Record<string, unknown> = { _uuid: { uuid } };
    for (const [column, value] of Object.entries(row.columns)) {
      const refTable = referencedTable(nbSchema.tables[row.table].columns[column].type);
      const toRef = (id: string) => ({ uuid: lookup(refTable!, id) });
      columns[column] =
        refTable === undefined ? value : Array.isArray(value) ? value.map(toRef) : toRef(value as string);
    }
    if (nbSchema.tables[row.table].columns.external_ids)
      columns.external_ids = { ...((row.columns.external_ids as object) ?? {}), [OWNER_KEY]: who };
    return { table: row.table, uuid, columns };
  });
  const parents = structuredClone(foreign);
  for (const row of desired) {
    for (const ref of row.parents ?? []) {
      const parent = parents.find((p) => p.table === ref.table && rowIdentity(p.table, p.columns) === ref.identity);
      if (parent === undefined) continue;
      const list = (parent.columns[ref.column] as unknown[] | undefined) ?? [];
      parent.columns[ref.column] = [...list, { uuid: lookup(row.table, rowIdentity(row.table, row.columns)!) }];
    }
  }
  return { observed, foreign: parents };
}
