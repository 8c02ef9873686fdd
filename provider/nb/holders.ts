/**
 * The rows of others whose declared parent columns hold one of our observed rows (desired rows
 * with `parents`, matched by identity): the engine detaches ours from those no longer parents.
 * The server finds them: one select per child and parent column, `<column> includes <uuid>`,
 * answered with uuids only (a connect router's 600 ports once each, not the router 600 times);
 * then the holders observe does not hold yet are read whole, by uuid. Nothing else of the parent
 * tables is sent.
 */
import type { OvsdbDatabase } from '../ovsdb/client';
import type { DatabaseSchema } from '../ovsdb/schema';
import { desiredIdentity, rowIdentity, type ObservedRow } from './desired';
import type { ApplyRequest } from './observation';
import { uuidSelect } from './observeSelects';
import { runReads, uuidOf } from './readRound';

/** `{table, column, child}` for each declared parent column of each observed child. */
function heldChildren(
  request: ApplyRequest,
  server: DatabaseSchema,
  observed: ObservedRow[],
): { table: string; column: string; child: string }[] {
  const withParents = request.desired.filter((r) => r.parents !== undefined && r.parents.length > 0);
  if (withParents.length === 0) return [];
  // only the tables of rows with parents are looked up: not every observed row keyed
  const tables = new Set(withParents.map((r) => r.table));
  const byKey = new Map<string, ObservedRow>();
  for (const row of observed)
    if (tables.has(row.table)) byKey.set(`${row.table}/${rowIdentity(row.table, row.columns)}`, row);
  const held = new Map<string, { table: string; column: string; child: string }>();
  for (const row of withParents) {
    const match = byKey.get(`${row.table}/${desiredIdentity(row)}`);
    if (match === undefined) continue;
    for (const p of row.parents!.filter((p) => server.tables[p.table]?.columns[p.column] !== undefined))
      held.set(`${p.table}\u0000${p.column}\u0000${match.uuid}`, {
        table: p.table,
        column: p.column,
        child: match.uuid,
      });
  }
  return [...held.values()];
}

/** The holders (see the header) that are not among `observed`, read whole. */
export async function holders(
  db: OvsdbDatabase,
  request: ApplyRequest,
  server: DatabaseSchema,
  observed: ObservedRow[],
): Promise<ObservedRow[]> {
  const held = heldChildren(request, server, observed);
  const unread = new Map<string, string>();
  const seen = new Set(observed.map((row) => row.uuid));
  await runReads(
    db,
    request.schema.name,
    held.map(({ table, column, child }) => ({
      op: { op: 'select', table, where: [[column, 'includes', ['uuid', child]]], columns: ['_uuid'] },
      read: (rows) => {
        for (const uuid of rows.map(uuidOf)) if (!seen.has(uuid)) unread.set(uuid, table);
      },
    })),
  );
  const rows: ObservedRow[] = [];
  await runReads(
    db,
    request.schema.name,
    [...unread].map(([uuid, table]) => ({
      op: uuidSelect(table, uuid),
      read: (found) => found.forEach((row) => rows.push({ table, uuid: uuidOf(row), columns: row })),
    })),
  );
  return rows;
}
