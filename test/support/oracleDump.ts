/**
 * Writes one of the oracle's committed dumps (test/oracle/<source>/<zone>.json: upstream's own
 * Northbound for a zone, rows under natural keys, references as `Table:key`) into a real
 * ovsdb-server, one transaction: each row an insert named after its key, each reference to a row
 * of the dump a named uuid. A reference to a row the dump does not hold (out of the oracle's
 * scope) is an error naming it, not a silent drop.
 */
import type { OracleDump } from '../../oracle/dump';
import { referencedTable } from '../../provider/nb/references';
import type { OvsdbDatabase } from '../../provider/ovsdb/client';
import { encodeRow, type PlainAtom, type PlainRow } from '../../provider/ovsdb/codec';
import type { Operation } from '../../provider/ovsdb/notation';

const NB = 'OVN_Northbound';

/** Inserts every row of `dump` into `db`; returns how many rows were inserted. */
export async function loadOracleDump(db: OvsdbDatabase, dump: OracleDump): Promise<number> {
  const schema = await db.getSchema(NB);
  const names = new Map<string, string>();
  for (const [table, rows] of Object.entries(dump.tables))
    for (const row of rows) names.set(`${table}:${row.key}`, `row${names.size}`);
  const operations: Operation[] = [];
  for (const [table, rows] of Object.entries(dump.tables)) {
    const tableSchema = schema.tables[table];
    if (!tableSchema) throw new Error(`${dump.source} ${dump.zone}: the server has no table ${table}`);
    for (const row of rows) {
      const plain: PlainRow = {};
      for (const [column, value] of Object.entries(row.columns)) {
        const type = tableSchema.columns[column]?.type;
        const target = type && referencedTable(type);
        if (!target) {
          plain[column] = value as PlainRow[string];
          continue;
        }
        const named = (ref: unknown): PlainAtom => {
          const name = names.get(String(ref));
          if (!name)
            throw new Error(`${dump.source} ${dump.zone}: ${table} ${row.key}.${column} names ${ref}, not in the dump`);
          return { namedUuid: name };
        };
        plain[column] = Array.isArray(value) ? value.map(named) : named(value);
      }
      const wire = encodeRow(plain, tableSchema, table);
      operations.push({ op: 'insert', table, row: wire, 'uuid-name': names.get(`${table}:${row.key}`)! });
    }
  }
  await db.transact(NB, operations);
  return operations.length;
}
