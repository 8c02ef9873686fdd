/**
 * Builders over the desired-row format of provider/nb/desired.ts (the contract with the
 * reconcile engine): plain rows, rows keyed with `ovnk.io/key` where upstream has no id, and
 * identities. The kinds of keyed rows this renderer makes are registered here, once.
 */
import { rowIdentity, type DesiredRow } from '../nb/desired';
import { KEY_KEY, rowKey, rowKinds, type RowKind } from '../nb/ownership';

export type { DesiredRow };

export type Columns = Record<string, unknown>;
export type StringMap = Record<string, string>;

/** Kinds of rows upstream gives no id; the key values are listed in order. */
export const KINDS = {
  route: rowKinds.register({
    table: 'Logical_Router_Static_Route',
    ownerType: 'udn-route',
    keys: ['router', 'policy', 'prefix', 'nexthop'],
  }),
  policy: rowKinds.register({
    table: 'Logical_Router_Policy',
    ownerType: 'udn-policy',
    keys: ['router', 'priority', 'match'],
  }),
  nat: rowKinds.register({ table: 'NAT', ownerType: 'udn-nat', keys: ['router', 'type', 'external_ip', 'logical_ip'] }),
  allowedNat: rowKinds.register({
    table: 'NAT',
    ownerType: 'udn-nat-allowed',
    keys: ['router', 'type', 'external_ip', 'logical_ip', 'allowed_ext_ips'],
  }),
  meterBand: rowKinds.register({ table: 'Meter_Band', ownerType: 'meter-band', keys: ['meter'] }),
} satisfies Record<string, RowKind>;

export function row(table: string, columns: Columns): DesiredRow {
  return { table, columns };
}

/** A row upstream gives no id: `ovnk.io/key` joins upstream's external_ids. */
export function keyedRow(kind: RowKind, values: StringMap, externalIds: StringMap, columns: Columns): DesiredRow {
  return {
    table: kind.table,
    columns: { ...columns, external_ids: { ...externalIds, [KEY_KEY]: rowKey(kind, values) } },
  };
}

/**
 * The identity of a row within its table (nb/desired.ts `rowIdentity`; Static_MAC_Binding's is
 * its index `<logical_port>/<ip>`).
 */
export function identityOf(desired: DesiredRow): string {
  const id = rowIdentity(desired.table, desired.columns);
  if (id === undefined) throw new Error(`internal: a ${desired.table} row has no identity`);
  return id;
}

/** Identities of rows, for a parent's reference column (`ports`, `static_routes`, ...). */
export function refs(rows: readonly DesiredRow[]): string[] {
  return rows.map(identityOf);
}

/** Rows sorted by table then identity: the renderer's output order, independent of input order. */
export function sortRows(rows: DesiredRow[]): DesiredRow[] {
  const keyed = rows.map((r) => ({ r, k: `${r.table}\u0000${identityOf(r)}` }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.r);
}
