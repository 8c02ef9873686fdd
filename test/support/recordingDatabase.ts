/**
 * A real client's database, recording every transaction sent through it, so tests can assert
 * "exactly one transaction" or "a second apply sends nothing" against a real server.
 */
import type { OvsdbClient, OvsdbDatabase } from '../../provider/ovsdb/client';
import type { Operation } from '../../provider/ovsdb/notation';

export type RecordingDatabase = OvsdbDatabase & { sent: Operation[][] };

export function recording(client: OvsdbClient): RecordingDatabase {
  const sent: Operation[][] = [];
  return {
    sent,
    endpoint: client.endpoint,
    listDbs: () => client.listDbs(),
    getSchema: (db) => client.getSchema(db),
    transact: (db, ops, options) => (sent.push(ops), client.transact(db, ops, options)),
    close: () => undefined,
  };
}

/** The transactions that write (anything but selects). */
export const writes = (db: { sent: Operation[][] }): Operation[][] =>
  db.sent.filter((ops) => ops.some((op) => op.op !== 'select'));
