/**
 * A real client's database, recording every transaction sent through it, so tests can assert
 * "exactly one transaction" or "a second apply sends nothing" against a real server. A
 * `beforeWrite` hook runs before each transaction that writes is forwarded: another writer acting
 * between our observe and our transact, deterministically, with no hook in the code under test.
 */
import type { OvsdbClient, OvsdbDatabase } from '../../provider/ovsdb/client';
import type { Operation } from '../../provider/ovsdb/notation';

export type RecordingDatabase = OvsdbDatabase & { sent: Operation[][] };

export interface RecordingOptions {
  /** Runs before a writing transaction is sent; `attempt` counts writing transactions from 1. */
  beforeWrite?: (operations: Operation[], attempt: number) => Promise<void>;
}

export function recording(client: OvsdbClient, options: RecordingOptions = {}): RecordingDatabase {
  const sent: Operation[][] = [];
  let attempt = 0;
  return {
    sent,
    endpoint: client.endpoint,
    listDbs: () => client.listDbs(),
    getSchema: (db) => client.getSchema(db),
    transact: async (db, ops, transactOptions) => {
      if (options.beforeWrite && isWrite(ops)) await options.beforeWrite(ops, ++attempt);
      sent.push(ops);
      return client.transact(db, ops, transactOptions);
    },
    close: () => undefined,
  };
}

const isWrite = (ops: Operation[]) => ops.some((op) => op.op !== 'select');

/** The transactions that write (anything but selects). */
export const writes = (db: { sent: Operation[][] }): Operation[][] => db.sent.filter(isWrite);
