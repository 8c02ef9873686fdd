/**
 * A node's static FDB entries over SSH (provider/uplink/staticFdb.ts says which and why): each
 * bridge that carries an entry this owner wants or recorded is read with `ovs-appctl fdb/show`
 * and compared (fdbPlan.ts). On apply, the record grows first (so an entry pinned by a run that
 * then dies is still known as ours), the entries are pinned (`fdb/add`, upstream's
 * SetStaticFDBEntry) or removed (`fdb/del`), the bridge is read again for the report, and the
 * record is left holding what is ours. A bridge whose commands fail fails alone, its error naming
 * the command (the bridge among its words), the node and ovs-appctl's words; its recorded entries are kept.
 */
import { commandOutput, type HostRunner } from '../../host';
import type { OvsFacts } from '../../uplink/facts';
import {
  type BridgeFdbPlan,
  fdbReport,
  type BridgeFdbReport,
  type NodeFdbResult,
  planBridgeFdb,
} from '../../uplink/fdbPlan';
import type { NodeDiscovery, UplinkPlan } from '../../uplink/plan';
import {
  fdbEntryWords,
  fdbShowPort,
  formatFdbRecord,
  othersRecords,
  ownedFdbKey,
  parseFdbRecord,
  parseFdbShow,
  type StaticFdbEntry,
  wantedFdbEntries,
} from '../../uplink/staticFdb';
import type { UplinkSession } from './session';

const appctl = ['ovs-appctl', '-t', 'ovs-vswitchd'];
/** ovs-appctl's answer to `fdb/del` of an entry that is not there: already gone. */
const notThere = /could not find static mac entry/;

const appctlRun = (runner: HostRunner, args: string[], accepted?: RegExp): Promise<string> =>
  commandOutput(runner, [...appctl, ...args], { accepted });

/** Writes this owner's record (undefined removes it). */
export type FdbRecordWriter = (text: string | undefined) => Promise<void>;

interface BridgeWork {
  bridge: string;
  wanted: StaticFdbEntry[];
  plan?: BridgeFdbPlan;
  report: BridgeFdbReport;
}

async function planOf(
  runner: HostRunner,
  bridge: string,
  wanted: StaticFdbEntry[],
  mine: StaticFdbEntry[],
  others: StaticFdbEntry[],
  ovs: OvsFacts,
): Promise<BridgeFdbPlan> {
  const shown = parseFdbShow(await appctlRun(runner, ['fdb/show', bridge]));
  const onBridge = (list: StaticFdbEntry[]) => list.filter((e) => e.bridge === bridge);
  return planBridgeFdb({
    wanted,
    mine: onBridge(mine),
    others: onBridge(others),
    shown,
    showPort: (e) => fdbShowPort(e, ovs),
  });
}

async function carryOut(runner: HostRunner, work: BridgeWork): Promise<void> {
  for (const e of work.plan!.add) {
    await appctlRun(runner, ['fdb/add', e.bridge, e.port, String(e.vlan), e.mac]);
    work.report.added.push(fdbEntryWords(e));
  }
  for (const e of work.plan!.remove) {
    await appctlRun(runner, ['fdb/del', e.bridge, String(e.vlan), e.mac], notThere);
    work.report.removed.push(fdbEntryWords(e));
  }
}

/** Each bridge of `wanted` or `mine` the node still has, read and planned; a bridge that fails carries its error. */
function readBridges(runner: HostRunner, owned: Owned, ovs: OvsFacts): Promise<BridgeWork[]> {
  const exists = (b: string) => ovs.bridges.some((x) => x.name === b);
  const bridges = [...new Set([...owned.wanted, ...owned.mine].map((e) => e.bridge))].filter(exists).sort();
  return Promise.all(
    bridges.map(async (bridge) => {
      const wanted = owned.wanted.filter((e) => e.bridge === bridge);
      try {
        const plan = await planOf(runner, bridge, wanted, owned.mine, owned.others, ovs);
        return { bridge, wanted, plan, report: fdbReport(bridge, wanted, plan) };
      } catch (error) {
        return { bridge, wanted, report: { ...fdbReport(bridge, wanted, noPlan), error: messageOf(error) } };
      }
    }),
  );
}

/** What this owner wants, what its record holds, and what the other owners' records hold. */
interface Owned {
  wanted: StaticFdbEntry[];
  mine: StaticFdbEntry[];
  others: StaticFdbEntry[];
}

/**
 * Observe (write false) or make (write true) `owner`'s static FDB entries on the node: `wanted`
 * (wantedFdbEntries) and what its record holds on the bridges the node still has.
 */
export async function syncNodeFdb(
  runner: HostRunner,
  owner: string,
  wanted: StaticFdbEntry[],
  ovs: OvsFacts,
  write: boolean,
  writeRecord: FdbRecordWriter,
): Promise<NodeFdbResult> {
  const owned = {
    wanted,
    mine: parseFdbRecord(ovs.externalIds[ownedFdbKey(owner)]),
    others: othersRecords(ovs.externalIds, owner),
  };
  const works = await readBridges(runner, owned, ovs);
  try {
    if (write) await writeBridges(runner, works, owned, ovs, writeRecord);
  } catch (error) {
    return { ok: false, message: `static FDB entries on ${runner.describe}: ${messageOf(error)}` };
  }
  return { ok: true, bridges: works.map((w) => w.report) };
}

/** The record grows by what is to be pinned, the bridges' plans are carried out, the record ends as they leave it. */
async function writeBridges(
  runner: HostRunner,
  works: BridgeWork[],
  owned: Owned,
  ovs: OvsFacts,
  writeRecord: FdbRecordWriter,
): Promise<void> {
  const { mine, others } = owned;
  // a bridge not read keeps its recorded entries; a bridge gone takes its own with it
  const unread = mine.filter((e) => works.some((w) => w.bridge === e.bridge && !w.plan));
  const before = formatFdbRecord([...mine, ...works.flatMap((w) => w.plan?.add ?? [])]);
  if (before !== formatFdbRecord(mine)) await writeRecord(before);
  await Promise.all(works.filter((w) => w.plan).map((w) => afterWrite(runner, w, mine, others, ovs)));
  const after = formatFdbRecord([...unread, ...works.flatMap((w) => w.plan?.record ?? [])]);
  if (after !== before) await writeRecord(after);
}

const noPlan: BridgeFdbPlan = { add: [], remove: [], record: [] };
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Carry out the bridge's plan, then read it again: the report says what is there now. */
async function afterWrite(
  runner: HostRunner,
  work: BridgeWork,
  mine: StaticFdbEntry[],
  others: StaticFdbEntry[],
  ovs: OvsFacts,
): Promise<void> {
  const planned = work.plan!;
  if (planned.add.length + planned.remove.length === 0) return;
  try {
    await carryOut(runner, work);
    const now = await planOf(runner, work.bridge, work.wanted, [...mine, ...planned.add], others, ovs);
    const { added, removed } = work.report;
    work.report = { ...fdbReport(work.bridge, work.wanted, now), added, removed };
  } catch (error) {
    work.report = { ...work.report, error: messageOf(error) };
    // what was to go stays recorded, so the next run removes it (fdb/del of an entry gone is fine)
    work.plan = { ...planned, record: [...planned.record, ...planned.remove] };
  }
}

/**
 * Observe or make `owner`'s static FDB entries on every discovered node: those its plan's steps
 * want, and those its record holds.
 */
export async function fdbOnNodes(
  session: UplinkSession,
  discovery: ReadonlyMap<string, NodeDiscovery>,
  plan: UplinkPlan,
  owner: string,
  write: boolean,
): Promise<Map<string, NodeFdbResult>> {
  const nodes = plan.nodes.flatMap((step) => {
    const found = discovery.get(step.node);
    return found?.ok ? [{ step, ovs: found.value.ovs }] : [];
  });
  const results = await Promise.all(
    nodes.map(({ step, ovs }) =>
      syncNodeFdb(
        session.runner(step.node),
        owner,
        wantedFdbEntries(step, plan.uplinkStates, ovs),
        ovs,
        write,
        (text) => session.writeOwnKeys(step.node, { [ownedFdbKey(owner)]: text }),
      ),
    ),
  );
  return new Map(nodes.map(({ step }, i) => [step.node, results[i]!]));
}
