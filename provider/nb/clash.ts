/**
 * A unique index violated by a row someone else holds (a Logical_Router_Port of another owner, or
 * of no owner, with the name one of ours must have): the server refuses the commit with a
 * "constraint violation" whose details name the table, the values and the uuid of the row that
 * "existed in the database before this transaction". That row is read back and named, with its
 * owner, in a refusal: ours is never created beside it and theirs is never touched.
 */
import type { OvsdbDatabase } from '../ovsdb/client';
import { ConstraintViolation } from '../ovsdb/errors';
import { OWNER_KEY } from './ownership';

/** Our row cannot be written because a row that is not ours holds the same unique value. */
export class ForeignRowClash extends Error {
  override name = 'ForeignRowClash';
  constructor(
    readonly table: string,
    readonly values: string,
    readonly uuid: string,
    /** The owner marker of the row in the way; undefined when it has none. */
    readonly holder: string | undefined,
    index: string,
  ) {
    const whose = holder === undefined ? 'a row without an ovnk owner marker' : `a row of owner "${holder}"`;
    super(
      `nb: ${table} ${values} already exists as ${whose} (${uuid}), with the same ${index}: it is not ours, so it is left alone and ours cannot be written beside it; nothing was written`,
    );
  }
}

const UNIQUE =
  /multiple rows in "([^"]+)" table to have identical values \((.*)\) for index on columns? (.+?)\.\s+First row, with UUID ([0-9a-f-]+), (.+?)\.\s+Second row, with UUID ([0-9a-f-]+), (.+?)\.$/s;

/** The row that existed before the transaction, when `error` is a unique-index violation. */
export function clashOf(error: unknown): { table: string; values: string; index: string; uuid: string } | undefined {
  if (!(error instanceof ConstraintViolation)) return undefined;
  const match = UNIQUE.exec(error.details ?? '');
  if (match === null) return undefined;
  const [, table, values, index, first, firstWas, second] = match as unknown as string[];
  const uuid = /existed in the database before/.test(firstWas!) ? first! : second!;
  return { table: table!, values: `(${values})`, index: index!.replace(/"/g, ''), uuid };
}

/** The refusal for a clash, naming the row in the way and its owner (read back here). */
export async function foreignRowClash(db: OvsdbDatabase, database: string, error: unknown): Promise<Error> {
  const clash = clashOf(error);
  if (clash === undefined) return error as Error;
  let holder: string | undefined;
  try {
    const [found] = await db.transact(database, [
      { op: 'select', table: clash.table, where: [['_uuid', '==', ['uuid', clash.uuid]]], columns: ['external_ids'] },
    ]);
    const ids = (found?.rows?.[0]?.external_ids ?? {}) as Record<string, string>;
    holder = ids[OWNER_KEY];
  } catch {
    // the table may have no external_ids (a ledger table): the row is then named without an owner
  }
  return new ForeignRowClash(clash.table, clash.values, clash.uuid, holder, `${clash.index} (a unique index)`);
}
