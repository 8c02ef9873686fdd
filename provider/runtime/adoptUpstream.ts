/**
 * Taking over the rows upstream wrote, for OKEP-5094's rolling upgrade of a cluster ovn-kubernetes
 * ran until now: its zones' Northbounds hold the old Layer2 topology without our owner marker.
 * Such rows are ours only when the user says so (the Inventory's `spec.adoptUpstreamRows: true`):
 * an apply then first marks them ours in one transaction (owner marker on rows with external_ids,
 * their identities in our ledger for Static_MAC_Binding), and the apply's own transaction then
 * updates them to the plan and removes what the plan no longer holds. Without it, an apply that
 * finds them refuses, naming them, before anything changes.
 *
 * Upstream's rows are recognised as those carrying `k8s.ovn.org/network` of a network the zone
 * renders (or `k8s.ovn.org/owner-controller` its network controller), no `ovnk.io/owner`, and an
 * identity (name, upstream id or index) among the zone's planned rows. Taken over with them: rows
 * without any external_ids key whose identity we plan (upstream's Gateway_Chassis, its `-upgrade`
 * router port), and upstream's ports, routes, policies and NATs of those networks that the plan
 * does not hold (the old topology's, which the apply then removes). Upstream's other rows the plan
 * does not hold (ACLs, port groups, address sets, load balancers of what is not modelled) stay
 * upstream's. Rows of another ovnk owner are never touched.
 */
import { NETWORK_KEY, OWNER_KEY } from '../model/externalIds';
import { describeRow, rowIdentity } from '../nb/desired';
import { isLedgerTable, ledgerHome, ledgerKey, parseLedger, serializeLedger } from '../nb/ledger';
import { isSharedRow } from '../nb/shared';
import type { OvsdbDatabase } from '../ovsdb/client';
import type { Operation } from '../ovsdb/notation';
import { networkControllerName } from '../topology/names';
import type { DesiredRow } from '../topology/rows';
import { NB_DATABASE } from './connections';

const OWNER_CONTROLLER_KEY = 'k8s.ovn.org/owner-controller';

/**
 * Where the rows of the old Layer2 topology that the plan no longer holds live (OKEP-5094 "After
 * upgrade cleanups": ports, routes, policies and NATs of the gateway routers and the layer2 switch).
 */
const OLD_TOPOLOGY_TABLES = [
  'Logical_Switch_Port',
  'Logical_Router_Port',
  'Logical_Router_Static_Route',
  'Logical_Router_Policy',
  'NAT',
];

/** A row upstream wrote that the zone's plan renders under the same identity, or an old-topology row it drops. */
interface Twin {
  table: string;
  uuid: string;
  identity: string;
  /** Carries `k8s.ovn.org/network` of a rendered network: upstream's own. */
  tagged: boolean;
}

/** Refusal: the zone's Northbound holds upstream's rows of our networks, and the user did not ask to take them over. */
export class UpstreamRowsError extends Error {
  override name = 'UpstreamRowsError';
  constructor(
    readonly endpoint: string,
    readonly rows: string[],
  ) {
    const shown = rows.slice(0, 8).join(', ');
    const more = rows.length > 8 ? ` and ${rows.length - 8} more` : '';
    super(
      `${endpoint}: ${rows.length} rows of the planned networks exist without an ovnk owner marker (written by ovn-kubernetes?): ${shown}${more}; they are left alone and nothing was written. To take them over (e.g. to upgrade a Layer2 network ovn-kubernetes rendered), set spec.adoptUpstreamRows: true in the Inventory`,
    );
  }
}

type Row = Record<string, unknown>;
const uuidOf = (row: Row) => (row._uuid as { uuid: string }).uuid;
const idsOf = (row: Row) => (row.external_ids ?? {}) as Record<string, string>;

function planned(rows: readonly DesiredRow[]): { identities: Map<string, Set<string>>; networks: Set<string> } {
  const identities = new Map<string, Set<string>>();
  const networks = new Set<string>();
  for (const row of rows) {
    const identity = rowIdentity(row.table, row.columns);
    if (identity !== undefined)
      (identities.get(row.table) ?? identities.set(row.table, new Set()).get(row.table)!).add(identity);
    const network = (row.columns.external_ids as Record<string, string> | undefined)?.[NETWORK_KEY];
    if (network !== undefined) networks.add(network);
  }
  return { identities, networks };
}

/** The zone's planned identities that rows nobody owns already hold. */
export async function upstreamTwins(db: OvsdbDatabase, rows: readonly DesiredRow[], owner: string): Promise<Twin[]> {
  const { identities, networks } = planned(rows);
  if (networks.size === 0 || !(await anyUpstreamDatapath(db, networks))) return [];
  const schema = await db.getSchema(NB_DATABASE);
  // Copp and meters upstream wrote stay theirs (zone.ts leaves them out of the desired rows)
  const shared = new Set(['Copp', 'Meter', 'Meter_Band']);
  const wanted = new Set([...identities.keys(), ...OLD_TOPOLOGY_TABLES]);
  const tables = [...wanted].filter((t) => schema.tables[t] !== undefined && !shared.has(t)).sort();
  const results = await db.transact(
    NB_DATABASE,
    tables.map((table): Operation => ({ op: 'select', table, where: [] })),
  );
  const ledger = ownLedger(await db.transact(NB_DATABASE, ledgerRead()), owner);
  const twins: Twin[] = [];
  results.forEach((result, i) => {
    const table = tables[i]!;
    const ledgerTable = isLedgerTable(schema, table);
    for (const row of result.rows ?? []) {
      const identity = rowIdentity(table, row);
      if (identity === undefined || !identities.get(table)?.has(identity)) {
        const ids = idsOf(row);
        // the old topology's ports, routes, policies and NATs the plan no longer holds: taken over to be removed
        if (OLD_TOPOLOGY_TABLES.includes(table) && ids[OWNER_KEY] === undefined && upstreamOf(ids, networks))
          twins.push({ table, uuid: uuidOf(row), identity: identity ?? uuidOf(row), tagged: true });
        continue;
      }
      if (ledgerTable) {
        if (!(ledger[table] ?? []).includes(identity))
          twins.push({ table, uuid: uuidOf(row), identity, tagged: false });
        continue;
      }
      const ids = idsOf(row);
      if (ids[OWNER_KEY] !== undefined || isSharedRow(ids)) continue;
      const tagged = upstreamOf(ids, networks);
      if (tagged || Object.keys(ids).length === 0) twins.push({ table, uuid: uuidOf(row), identity, tagged });
    }
  });
  return twins;
}

/** Upstream's tag of a network's row: `k8s.ovn.org/network`, or its network controller as owner (ACLs, port groups). */
function upstreamOf(ids: Record<string, string>, networks: ReadonlySet<string>): boolean {
  const controller = ids[OWNER_CONTROLLER_KEY];
  return (
    networks.has(ids[NETWORK_KEY] ?? '') ||
    (controller !== undefined && [...networks].some((n) => controller === networkControllerName(n)))
  );
}

/** Upstream tags every switch and router of a network: none unowned, nothing of upstream's to find (a cheap read). */
async function anyUpstreamDatapath(db: OvsdbDatabase, networks: ReadonlySet<string>): Promise<boolean> {
  const results = await db.transact(
    NB_DATABASE,
    ['Logical_Switch', 'Logical_Router'].map((table): Operation => ({
      op: 'select',
      table,
      where: [],
      columns: ['external_ids'],
    })),
  );
  return results.some((r) =>
    (r.rows ?? []).some((row) => idsOf(row)[OWNER_KEY] === undefined && upstreamOf(idsOf(row), networks)),
  );
}

function ledgerRead(): Operation[] {
  const home = ledgerHome(NB_DATABASE)!;
  return [{ op: 'select', table: home.table, where: [], columns: [home.column] }];
}

function ownLedger(results: { rows?: Row[] }[], owner: string): Record<string, string[]> {
  const home = ledgerHome(NB_DATABASE)!;
  const column = (results[0]?.rows?.[0]?.[home.column] ?? {}) as Record<string, string>;
  return parseLedger(column[ledgerKey(owner)], `${home.table}.${home.column}["${ledgerKey(owner)}"]`);
}

/** Marks the twins ours in one transaction: the owner marker, and ledger identities for ledger tables. */
async function markOurs(db: OvsdbDatabase, twins: Twin[], owner: string): Promise<void> {
  const schema = await db.getSchema(NB_DATABASE);
  const operations: Operation[] = twins
    .filter((t) => !isLedgerTable(schema, t.table))
    .map((t) => ({
      op: 'mutate',
      table: t.table,
      where: [['_uuid', '==', ['uuid', t.uuid]]],
      mutations: [['external_ids', 'insert', ['map', [[OWNER_KEY, owner]]]]],
    }));
  const ledgered = twins.filter((t) => isLedgerTable(schema, t.table));
  const home = ledgerHome(NB_DATABASE)!;
  const found = await db.transact(NB_DATABASE, ledgerRead());
  if (ledgered.length > 0 && (found[0]?.rows ?? []).length > 0) {
    const ledger = ownLedger(found, owner);
    for (const t of ledgered) (ledger[t.table] ??= []).push(t.identity);
    const key = ledgerKey(owner);
    operations.push({
      op: 'mutate',
      table: home.table,
      where: [],
      mutations: [
        [home.column, 'delete', ['set', [key]]],
        [home.column, 'insert', ['map', [[key, serializeLedger(ledger)!]]]],
      ],
    });
  }
  if (operations.length > 0) await db.transact(NB_DATABASE, operations);
}

/**
 * Before an apply: upstream's rows of the zone's networks are refused (UpstreamRowsError) unless
 * `adopt`, in which case they are marked ours; returns what was taken over, in words.
 */
export async function takeOverUpstreamRows(
  db: OvsdbDatabase,
  rows: readonly DesiredRow[],
  owner: string,
  adopt: boolean,
): Promise<string[]> {
  const twins = await upstreamTwins(db, rows, owner);
  if (!twins.some((t) => t.tagged)) return [];
  const named = twins.map((t) => describeRow(t.table, t.identity));
  if (!adopt)
    throw new UpstreamRowsError(
      db.endpoint,
      named.filter((_, i) => twins[i]!.tagged),
    );
  await markOurs(db, twins, owner);
  return [`took over ${twins.length} rows written without an owner marker (spec.adoptUpstreamRows)`];
}
