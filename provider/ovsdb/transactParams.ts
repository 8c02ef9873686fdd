/**
 * The params of a `transact` request, [db, operation...], as JSON text made a few hundred
 * operations at a time (rpc.ts ParamsText), so that a large transaction is written while it is
 * serialized (outbox.ts). When uuids were chosen for its new rows (rowUuids.ts), each operation is
 * resolved as its piece is made: no rewritten copy of the whole transaction is ever built.
 */
import type { Operation } from './notation';
import { type RowUuids, withRowUuid } from './rowUuids';
import type { ParamsText } from './rpc';

/** Operations per piece: tens of kilobytes of JSON for typical rows. */
const PIECE_OPERATIONS = 256;

export function transactParams(db: string, operations: readonly Operation[], uuids?: RowUuids): ParamsText {
  return { pieces: pieces(db, operations, uuids) };
}

function* pieces(db: string, operations: readonly Operation[], uuids: RowUuids | undefined): Generator<string> {
  yield JSON.stringify(db);
  for (let from = 0; from < operations.length; from += PIECE_OPERATIONS) {
    const slice = operations.slice(from, from + PIECE_OPERATIONS);
    const sent = uuids === undefined ? slice : slice.map((op, i) => withRowUuid(op, from + i, uuids));
    const text = JSON.stringify(sent);
    yield text.slice(1, -1); // the operations without the brackets of their array
  }
}
