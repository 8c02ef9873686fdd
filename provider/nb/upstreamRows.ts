/**
 * Rows another writer made for what we plan, without our marker (ovn-kubernetes' own rows of a
 * network we now render: OKEP-5094's rolling upgrade, runtime/adoptUpstream.ts says whose and
 * when). observe (observe.ts) finds them in its own rounds, by server-side conditions only:
 * 1. every apply: the probe tables' rows without our marker carrying one of the probe's `by`
 *    pairs (upstream's switches and routers of any network, a few selects whatever the number of
 *    networks), of which those carrying a probe tag and no owner marker show upstream wrote for
 *    what we plan; none, nothing more is read;
 * 2. else, in every table we plan or whose leftovers are taken (minus `keep`), the rows carrying
 *    one of `tags` without an owner marker: a twin when we plan its identity, or when its table's
 *    leftovers are taken over (the plan then deletes it);
 * 3. then, by name, the planned rows still missing: a row there without any external_ids is a
 *    twin too (upstream writes some rows bare). Rows of ledger tables (ledger.ts) that observe
 *    found by identity and our ledger does not list are twins as well.
 * Twins are observed as ours (their children followed); reconcile takes them over in the apply's
 * own transaction (`adoption`): updated to the plan (our marker added), or deleted.
 */
import type { Condition } from '../ovsdb/notation';
import type { DatabaseSchema } from '../ovsdb/schema';
import { rowIdentity, type ObservedRow } from './desired';
import { isLedgerTable, parseLedger, type Ledger, type LedgerState } from './ledger';
import type { ApplyRequest, Observation, Twin, Upstream } from './observation';
import { desiredKeys } from './observeSelects';
import { OWNER_KEY } from './ownership';
import { toRow, type Read } from './readRound';
import { isSharedRow } from './shared';

type Pair = Upstream['tags'][number];

/** What observe's Found offers the search. */
interface Found {
  owned: ObservedRow[];
  addOwned(row: ObservedRow): void;
  foreign: Map<string, ObservedRow>;
}

const idsOf = (row: ObservedRow) => (row.columns.external_ids ?? {}) as Record<string, string>;
const includes = ([key, value]: Pair): Condition => ['external_ids', 'includes', ['map', [[key, value]]]];
const unowned = (row: ObservedRow) => idsOf(row)[OWNER_KEY] === undefined && !isSharedRow(idsOf(row));

/** The search of one observe, stepped once per round (see the header). */
export class UpstreamSearch {
  private step = 0;
  private readonly planned: ReadonlySet<string>;
  private readonly twins = new Map<string, Twin>();
  private probed = false;

  constructor(
    private readonly request: ApplyRequest & { upstream: Upstream },
    private readonly server: DatabaseSchema,
    private readonly columnsOf: (table: string) => string[],
  ) {
    this.planned = desiredKeys(request);
  }

  /** This round's reads (none once the search is done). */
  reads(found: Found): Read[] {
    const step = this.step++;
    if (step === 0) return this.probeReads();
    if (step === 1 && this.probed) return this.tagReads(found);
    if (step === 2 && this.twins.size > 0) return this.nameReads(found);
    return [];
  }

  /** The twins found, with the ledger rows of theirs (none when no tagged row was found). */
  found(found: Found, ledger: LedgerState | undefined): Twin[] {
    const listed = readLedger(ledger);
    if (this.twins.size === 0) return [];
    for (const row of found.foreign.values()) {
      const identity = rowIdentity(row.table, row.columns);
      if (listed === undefined || !isLedgerTable(this.server, row.table) || identity === undefined) continue;
      if (this.planned.has(`${row.table}/${identity}`) && !(listed[row.table] ?? []).includes(identity))
        this.twins.set(row.uuid, { table: row.table, uuid: row.uuid, identity, tagged: false });
    }
    return [...this.twins.values()];
  }

  private probeReads(): Read[] {
    const { tables, tags, by } = this.request.upstream.probe;
    const tagged = (row: ObservedRow) => tags.some(([key, value]) => idsOf(row)[key] === value);
    const notOurs: Condition = ['external_ids', 'excludes', ['map', [[OWNER_KEY, this.request.owner]]]];
    return this.tables(tables).flatMap((table) =>
      by.map((pair) => ({
        op: { op: 'select', table, where: [includes(pair), notOurs], columns: ['_uuid', 'external_ids'] },
        read: (rows) => (this.probed ||= rows.map(toRow(table)).some((row) => unowned(row) && tagged(row))),
      })),
    );
  }

  private tagReads(found: Found): Read[] {
    const { tags, leftovers } = this.request.upstream;
    const candidates = this.tables([...new Set(this.request.desired.map((r) => r.table)), ...leftovers]);
    return candidates.flatMap((table) =>
      tags.map((tag) => ({
        op: { op: 'select', table, where: [includes(tag)], columns: this.columnsOf(table) },
        read: (rows) => {
          for (const row of rows.map(toRow(table)).filter(unowned)) {
            const identity = rowIdentity(table, row.columns);
            const planned = identity !== undefined && this.planned.has(`${table}/${identity}`);
            if (planned || leftovers.includes(table)) this.take(found, row, identity ?? row.uuid, true);
          }
        },
      })),
    );
  }

  private nameReads(found: Found): Read[] {
    const have = new Set(found.owned.map((row) => `${row.table}/${rowIdentity(row.table, row.columns)}`));
    const candidates = new Set(this.tables(this.request.desired.map((r) => r.table)));
    return this.request.desired.flatMap((desired) => {
      const { table } = desired;
      const name = desired.columns.name;
      if (!candidates.has(table) || typeof name !== 'string' || name === '' || have.has(`${table}/${name}`)) return [];
      return [
        {
          op: { op: 'select', table, where: [['name', '==', name]], columns: this.columnsOf(table) },
          read: (rows) => {
            for (const row of rows.map(toRow(table)))
              if (Object.keys(idsOf(row)).length === 0) this.take(found, row, name, false);
          },
        },
      ];
    });
  }

  private take(found: Found, row: ObservedRow, identity: string, tagged: boolean): void {
    if (this.twins.has(row.uuid)) return;
    this.twins.set(row.uuid, { table: row.table, uuid: row.uuid, identity, tagged });
    found.addOwned(row);
  }

  /** Of `tables`, those the server has with external_ids, not kept and not ledger tables, once each. */
  private tables(tables: string[]): string[] {
    const keep = this.request.upstream.keep;
    return [...new Set(tables)]
      .filter((t) => this.server.tables[t]?.columns.external_ids !== undefined && !keep.includes(t))
      .sort();
  }
}

/** The ledger as stored, or undefined when it cannot be read (reconcile refuses it, naming it). */
function readLedger(ledger: LedgerState | undefined): Ledger | undefined {
  try {
    return ledger?.recovered ?? parseLedger(ledger?.text, 'ledger');
  } catch {
    return undefined;
  }
}

/**
 * What reconcile takes over (see the header): the twins' uuids, and the ledger with the ledger
 * twins' identities added (its stored text still guards the rewrite).
 */
export function adoption(observation: Observation): { adopted?: Set<string>; ledger?: LedgerState } {
  const twins = observation.upstream ?? [];
  if (twins.length === 0) return { ledger: observation.ledger };
  const server = observation.server;
  const adopted = new Set(twins.filter((t) => !isLedgerTable(server, t.table)).map((t) => t.uuid));
  const ledgered = twins.filter((t) => isLedgerTable(server, t.table));
  const stored = readLedger(observation.ledger);
  if (ledgered.length === 0 || stored === undefined || observation.ledger === undefined)
    return { adopted, ledger: observation.ledger };
  const merged: Ledger = { ...stored };
  for (const t of ledgered) merged[t.table] = [...(merged[t.table] ?? []), t.identity];
  return { adopted, ledger: { ...observation.ledger, recovered: merged } };
}
