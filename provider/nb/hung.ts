/**
 * The record of where rows of ours in the crowded tables (observeSelects.ts CROWDED_TABLES: ACL,
 * Address_Set, Load_Balancer, Logical_Switch_Port, Port_Group) are found by no reference of
 * ours. observe (observe.ts) reads a non-root row of ours there by uuid from our own rows'
 * references, and scans such a table only while desired rows need it: a root row there, or one
 * whose only parent is someone else's row (observeSelects.ts unreachedTables). Once the last of
 * them is dropped from the desired rows, only this record says where to look. Each owner keeps,
 * in the database's home row (ledger.ts), `external_ids["ovnk.io/hung/<owner>"]` = JSON list of
 * those tables (sorted, `[]` when none; absent when the owner has no rows), written in the same
 * transaction as the rows, so it always describes the rows committed with it; observe scans the
 * tables it lists; without the key (rows written before the record was always kept) it scans
 * the crowded root tables, until the owner's next apply writes the record. Pure.
 */
import { HUNG_PREFIX } from '../model/externalIds';
import type { DatabaseSchema } from '../ovsdb/schema';
import { writeHomeKey } from './homeKey';
import { ledgerHome } from './ledger';
import type { ApplyRequest, Observation } from './observation';
import { crowdedTables, unreachedTables } from './observeSelects';
import { checkOwner } from './ownership';
import type { Plan } from './reconcile';

export const hungKey = (owner: string): string => `${HUNG_PREFIX}${checkOwner(owner)}`;

/** The record's text for the desired rows (none for no rows, or a database upstream does not crowd). */
function recordOf(request: ApplyRequest, server: DatabaseSchema): string | undefined {
  if (crowdedTables(server.name).length === 0 || request.desired.length === 0) return undefined;
  return JSON.stringify(unreachedTables(request, server).sort());
}

const crowdedRoots = (server: DatabaseSchema) =>
  crowdedTables(server.name).filter((t) => server.tables[t]?.isRoot === true);

/**
 * The tables a stored record lists (see the header). A record that cannot be read lists every
 * crowded table: scanning them costs time, guessing could leave a row of ours behind.
 */
export function hungTables(home: Observation['home'], owner: string, server: DatabaseSchema): string[] {
  const text = home?.map[hungKey(owner)];
  if (text === undefined) return crowdedRoots(server);
  try {
    const tables: unknown = JSON.parse(text);
    if (Array.isArray(tables) && tables.every((t) => typeof t === 'string')) return tables as string[];
  } catch {
    // below
  }
  return crowdedTables(server.name);
}

/** `plan` with the record rewritten after its rows, when what the desired rows need differs from what is stored. */
export function withHungRecord(plan: Plan, request: ApplyRequest, observation: Observation): Plan {
  const database = observation.server.name;
  const home = ledgerHome(database);
  if (home === undefined || observation.home === undefined) return plan;
  const key = hungKey(request.owner);
  const before = observation.home.map[key];
  const after = recordOf(request, observation.server);
  if (before === after) return plan;
  // the ledger may insert the home row in this transaction: then the key is set there
  const inserted = plan.operations.some((op) => op.op === 'insert' && op.table === home.table);
  const write = writeHomeKey(home, key, before, after, observation.home.exists || inserted);
  // bookkeeping, like the commit marker: not a change of a row, so not in the summary or a diff
  return { ...plan, operations: [...plan.operations, ...write.operations], guards: [...plan.guards, ...write.guards] };
}
