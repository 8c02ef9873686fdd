/**
 * The rows of the audited networks in one Northbound, read without reading the whole database
 * (RFC 7047 `select` with `where` conditions, all of a round in one read-only transaction):
 *
 * 1. rows tagged with an audited network (`k8s.ovn.org/network`) or one of its controllers
 *    (`k8s.ovn.org/owner-controller`: ACLs, port groups, address sets);
 * 2. rows the plan expects, by name (or Static_MAC_Binding's index, or `k8s.ovn.org/id`), so a row
 *    whose tags were edited away is still found;
 * 3. every row those rows reference, by uuid, until none is left unread (the ports of an audited
 *    switch, the routes and NATs of an audited router, the bands of a meter...), so a row added by
 *    hand to an audited router is in scope although it carries no tag.
 *
 * Rows of other networks are never selected (except where an audited row points at them).
 */
import { NETWORK_KEY, OWNER_CONTROLLER_KEY, UPSTREAM_ID_KEY } from '../../model/externalIds';
import { type DesiredRow, INDEX_IDENTITY, type ObservedRow, rowIdentity } from '../../nb/desired';
import { referencedTable } from '../../nb/references';
import type { OvsdbDatabase } from '../../ovsdb/client';
import type { Condition, Operation } from '../../ovsdb/notation';
import type { DatabaseSchema } from '../../ovsdb/schema';
import { NB_DATABASE } from '../connections';

/** Tables whose rows upstream tags with `k8s.ovn.org/network`. */
const NETWORK_TABLES = [
  'Logical_Switch',
  'Logical_Router',
  'Logical_Switch_Port',
  'Logical_Router_Port',
  'Logical_Router_Static_Route',
  'Logical_Router_Policy',
  'NAT',
  'Load_Balancer',
];
/** Tables whose rows upstream tags with its network controller's name. */
const CONTROLLER_TABLES = ['ACL', 'Port_Group', 'Address_Set'];
/** Reference rounds before giving up (routers -> ports -> gateway chassis is three). */
const MAX_ROUNDS = 8;

export interface AuditScope {
  /** OVN network names. */
  networks: string[];
  /** Their controllers' names (`<network>-network-controller`). */
  controllers: string[];
}

export interface ScopedRead {
  rows: ObservedRow[];
  /** Select operations sent (the cost of the read). */
  selects: number;
}

const mapCondition = (key: string, value: string): Condition => ['external_ids', 'includes', ['map', [[key, value]]]];

/** Round 1: what the scope's tags select. */
export function taggedSelects(scope: AuditScope, schema: DatabaseSchema): Operation[] {
  const has = (table: string) => schema.tables[table]?.columns.external_ids !== undefined;
  const ops: Operation[] = [];
  for (const table of NETWORK_TABLES.filter(has))
    for (const network of scope.networks)
      ops.push({ op: 'select', table, where: [mapCondition(NETWORK_KEY, network)] });
  for (const table of CONTROLLER_TABLES.filter(has))
    for (const controller of scope.controllers)
      ops.push({ op: 'select', table, where: [mapCondition(OWNER_CONTROLLER_KEY, controller)] });
  return ops;
}

/** Round 2: each expected row by its identity, where that identity is something the server can select on. */
export function expectedSelects(rows: readonly DesiredRow[], schema: DatabaseSchema): Operation[] {
  const ops: Operation[] = [];
  for (const row of rows) {
    const table = schema.tables[row.table];
    if (table === undefined) continue;
    const index = INDEX_IDENTITY[row.table];
    const name = row.columns.name;
    const id = (row.columns.external_ids as Record<string, unknown> | undefined)?.[UPSTREAM_ID_KEY];
    if (index !== undefined)
      ops.push({ op: 'select', table: row.table, where: index.map((c) => [c, '==', String(row.columns[c])]) });
    else if (typeof name === 'string' && name !== '' && table.columns.name !== undefined)
      ops.push({ op: 'select', table: row.table, where: [['name', '==', name]] });
    else if (typeof id === 'string' && rowIdentity(row.table, row.columns) === id)
      ops.push({ op: 'select', table: row.table, where: [mapCondition(UPSTREAM_ID_KEY, id)] });
  }
  return ops;
}

/** Reads the scope's rows (see the header); `expected` adds the plan's rows by identity. */
export async function readScoped(
  db: OvsdbDatabase,
  schema: DatabaseSchema,
  scope: AuditScope,
  expected: readonly DesiredRow[] = [],
  already: readonly ObservedRow[] = [],
): Promise<ScopedRead> {
  const rows = new Map(already.map((row) => [row.uuid, row]));
  const asked = new Set(rows.keys());
  let selects = 0;
  const run = async (ops: Operation[]) => {
    if (ops.length === 0) return;
    selects += ops.length;
    // decoded by the schema the selects were built from: the zone's, fetched once per command
    const results = await db.transact(NB_DATABASE, ops, { schema });
    results.forEach((result, i) => {
      const table = (ops[i] as { table: string }).table;
      for (const row of result.rows ?? []) {
        const uuid = (row._uuid as { uuid: string }).uuid;
        asked.add(uuid);
        if (!rows.has(uuid)) rows.set(uuid, { table, uuid, columns: row });
      }
    });
  };
  if (already.length === 0) await run(taggedSelects(scope, schema));
  await run(expectedSelects(expected, schema));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const ops = referenceSelects([...rows.values()], schema, asked);
    if (ops.length === 0) break;
    await run(ops);
  }
  return { rows: [...rows.values()], selects };
}

/** One select by uuid for every referenced row not read yet. */
function referenceSelects(rows: readonly ObservedRow[], schema: DatabaseSchema, asked: Set<string>): Operation[] {
  const wanted = new Map<string, string>();
  for (const row of rows) {
    const table = schema.tables[row.table];
    if (table === undefined) continue;
    for (const [column, value] of Object.entries(row.columns)) {
      const spec = table.columns[column];
      const refTable = spec === undefined ? undefined : referencedTable(spec.type);
      if (refTable === undefined) continue;
      for (const uuid of uuidsIn(value)) if (!asked.has(uuid)) wanted.set(uuid, refTable);
    }
  }
  for (const uuid of wanted.keys()) asked.add(uuid);
  return [...wanted].map(([uuid, table]) => ({ op: 'select', table, where: [['_uuid', '==', ['uuid', uuid]]] }));
}

function uuidsIn(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(uuidsIn);
  if (typeof value !== 'object') return [];
  const uuid = (value as { uuid?: unknown }).uuid;
  if (typeof uuid === 'string') return [uuid];
  return Object.values(value).flatMap(uuidsIn);
}
