/**
 * One bridge's static FDB entries (staticFdb.ts) compared with what ovs-vswitchd shows: which
 * wanted entries to pin (`fdb/add`), which of ours to remove (`fdb/del`), and what this owner's
 * record holds afterwards; and the report of a node's entries, with the phase it gives a CUDN's
 * gateway (a failed pin is upstream's UplinkBridgeMappingFailed: ensureUplinkGateway wraps
 * configureUplinkStaticFDBEntry's error so). Pure.
 */
import type { GatewayPhase } from './gateway';
import { fdbEntryText, fdbEntryWords, fdbSlot, type ShownFdbEntry, type StaticFdbEntry } from './staticFdb';

export interface BridgeFdbInput {
  /** Entries this owner wants on the bridge. */
  wanted: StaticFdbEntry[];
  /** This owner's recorded entries on the bridge. */
  mine: StaticFdbEntry[];
  /** Other owners' recorded entries on the node. */
  others: StaticFdbEntry[];
  /** The bridge's static entries as `fdb/show` prints them. */
  shown: ShownFdbEntry[];
  /** How `fdb/show` names an entry's port (undefined: the port has no ofport). */
  showPort: (e: StaticFdbEntry) => string | undefined;
}

export interface BridgeFdbPlan {
  /** Wanted, not shown as static on its port. */
  add: StaticFdbEntry[];
  /** Ours, no longer wanted by this owner, recorded by no other, still shown on its port. */
  remove: StaticFdbEntry[];
  /** This owner's record on the bridge once the plan is carried out. */
  record: StaticFdbEntry[];
}

const isShown = (input: BridgeFdbInput, e: StaticFdbEntry): boolean => {
  const port = input.showPort(e);
  return input.shown.some((s) => s.vlan === e.vlan && s.mac === e.mac && s.port === port);
};

export function planBridgeFdb(input: BridgeFdbInput): BridgeFdbPlan {
  const recorded = (list: StaticFdbEntry[], e: StaticFdbEntry) => list.some((x) => fdbEntryText(x) === fdbEntryText(e));
  const add = input.wanted.filter((e) => !isShown(input, e));
  // an entry there before any owner of ours pinned it is someone else's: not recorded, never removed
  const kept = input.wanted.filter((e) => !add.includes(e) && (recorded(input.mine, e) || recorded(input.others, e)));
  const wantedSlots = new Set(input.wanted.map(fdbSlot));
  const othersSlots = new Set(input.others.map(fdbSlot));
  const remove = input.mine.filter(
    (e) => !wantedSlots.has(fdbSlot(e)) && !othersSlots.has(fdbSlot(e)) && isShown(input, e),
  );
  return { add, remove, record: [...add, ...kept] };
}

export interface BridgeFdbReport {
  bridge: string;
  /** Wanted entries in words (fdbEntryWords). */
  wanted: string[];
  /** Wanted entries not pinned, and ours that should be gone but are still there, in words. */
  missing: string[];
  unexpected: string[];
  /** Entries pinned and removed by this run (apply). */
  added: string[];
  removed: string[];
  /** Why the bridge's entries could not be read or made (the command and its error). */
  error?: string;
}

export type NodeFdbResult = { ok: true; bridges: BridgeFdbReport[] } | { ok: false; message: string };

/** A bridge's report from its plan (observe), or from the plan made after this run's writes. */
export function fdbReport(bridge: string, wanted: StaticFdbEntry[], plan: BridgeFdbPlan): BridgeFdbReport {
  return {
    bridge,
    wanted: wanted.map(fdbEntryWords),
    missing: plan.add.map(fdbEntryWords),
    unexpected: plan.remove.map(fdbEntryWords),
    added: [],
    removed: [],
  };
}

export const fdbInSync = (b: BridgeFdbReport): boolean =>
  b.error === undefined && b.missing.length + b.unexpected.length === 0;

/** The phase the static entry gives a CUDN on `bridge` of the node; undefined when the run did not look. */
export function fdbPhase(result: NodeFdbResult | undefined, bridge: string | undefined): GatewayPhase | undefined {
  if (!result || bridge === undefined) return undefined;
  if (!result.ok) return { phase: 'failed', reason: 'UplinkBridgeMappingFailed', message: result.message };
  const report = result.bridges.find((b) => b.bridge === bridge);
  if (!report || report.wanted.length === 0) return undefined;
  if (report.error !== undefined)
    return { phase: 'failed', reason: 'UplinkBridgeMappingFailed', message: report.error };
  return report.missing.length === 0 ? { phase: 'ready' } : { phase: 'pending' };
}
