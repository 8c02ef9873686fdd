/**
 * A Northbound holding rows as upstream writes them: the rows of an ovnk plan with every trace of
 * ovnk taken out (each `ovnk.io/` external_ids key: the owner marker, our row keys, the state,
 * ledger and commit keys on NB_Global), so no row says who wrote it. Done over OVSDB on a real
 * server, one transaction.
 */
import { OvsdbClient } from '../../provider/ovsdb/client';
import type { Operation } from '../../provider/ovsdb/notation';

const NB = 'OVN_Northbound';
const OURS = 'ovnk.io/';

/** Removes every `ovnk.io/` key from every row's external_ids; returns how many rows changed. */
export async function stripOurMarks(endpoint: string): Promise<number> {
  const client = await OvsdbClient.connect(endpoint);
  try {
    const schema = await client.getSchema(NB);
    const tables = Object.keys(schema.tables).filter((t) => schema.tables[t]!.columns.external_ids !== undefined);
    const selects: Operation[] = tables.map((table) => ({
      op: 'select',
      table,
      where: [],
      columns: ['_uuid', 'external_ids'],
    }));
    const results = await client.transact(NB, selects);
    const mutations: Operation[] = [];
    results.forEach((result, i) => {
      for (const row of result.rows ?? []) {
        const keys = Object.keys((row.external_ids ?? {}) as Record<string, string>).filter((k) => k.startsWith(OURS));
        if (keys.length === 0) continue;
        mutations.push({
          op: 'mutate',
          table: tables[i]!,
          where: [['_uuid', '==', ['uuid', (row._uuid as { uuid: string }).uuid]]],
          mutations: [['external_ids', 'delete', ['set', keys]]],
        });
      }
    });
    if (mutations.length > 0) await client.transact(NB, mutations);
    return mutations.length;
  } finally {
    client.close();
  }
}
