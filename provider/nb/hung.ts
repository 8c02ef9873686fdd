/**
 * The record of where rows of ours hang from rows that are not ours. observe (observe.ts) reads
 * our rows of the crowded tables (observeSelects.ts CROWDED_TABLES: ACL, Logical_Switch_Port)
 * by uuid from our own rows' references, without scanning those tables; a row of ours there
 * whose only parent is someone else's switch is found by no reference of ours. While desired rows
 * hang so, the table is scanned anyway; once the last of them is dropped from the desired rows,
 * only this record says where to look. Each owner keeps, in the database's home row (ledger.ts),
 * `external_ids["ovnk.io/hung/<owner>"]` = JSON list of those tables (sorted; absent when none),
 * written in the same transaction as the rows, so it always describes the rows committed with it;
 * observe scans the tables it lists. Pure.
 */
import { HUNG_PREFIX } from '../model/externalIds';
import { writeHomeKey } from './homeKey';
import { ledgerHome } from './ledger';
import type { ApplyRequest, Observation } from './observation';
import { crowdedTables, foreignParentedTables } from './observeSelects';
import { checkOwner } from './ownership';
import type { Plan } from './reconcile';

export const hungKey = (owner: string): string => `${HUNG_PREFIX}${checkOwner(owner)}`;

/** The crowded tables where a desired row hangs from a row outside the desired set, as the record's text. */
function recordOf(request: ApplyRequest, database: string): string | undefined {
  const crowded = crowdedTables(database);
  if (crowded.length === 0) return undefined;
  const tables = [...foreignParentedTables(request)].filter((t) => crowded.includes(t)).sort();
  return tables.length === 0 ? undefined : JSON.stringify(tables);
}

/**
 * The tables a stored record lists (see the header). A record that cannot be read lists every
 * crowded table: scanning them costs time, guessing could leave a row of ours behind.
 */
export function hungTables(home: Observation['home'], owner: string, database: string): string[] {
  const text = home?.map[hungKey(owner)];
  if (text === undefined) return [];
  try {
    const tables: unknown = JSON.parse(text);
    if (Array.isArray(tables) && tables.every((t) => typeof t === 'string')) return tables as string[];
  } catch {
    // below
  }
  return crowdedTables(database);
}

/** `plan` with the record rewritten after its rows, when what the desired rows need differs from what is stored. */
export function withHungRecord(plan: Plan, request: ApplyRequest, observation: Observation): Plan {
  const database = observation.server.name;
  const home = ledgerHome(database);
  if (home === undefined || observation.home === undefined) return plan;
  const key = hungKey(request.owner);
  const before = observation.home.map[key];
  const after = recordOf(request, database);
  if (before === after) return plan;
  // the ledger may insert the home row in this transaction: then the key is set there
  const inserted = plan.operations.some((op) => op.op === 'insert' && op.table === home.table);
  const write = writeHomeKey(home, key, before, after, observation.home.exists || inserted);
  // bookkeeping, like the commit marker: not a change of a row, so not in the summary or a diff
  return { ...plan, operations: [...plan.operations, ...write.operations], guards: [...plan.guards, ...write.guards] };
}
