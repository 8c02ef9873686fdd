/**
 * One owner's change to a gateway bridge that other owners' networks may share (issue 25): the
 * owner replaces and removes only flows with its cookie, and the flows every network of the
 * bridge needs (shared cookie, provider/uplink/flows.ts) are counted by the networks the flow
 * table itself holds. Each network's patch port has one priority-9 drop flow with its owner's
 * cookie, so those flows are the ledger: the shared MAC's fan-out goes to every port they name,
 * the shared flows stay while any owner's network does, and the last owner to leave takes them.
 * The change is one `ovs-ofctl --bundle` (atomic), so nobody sees a bridge half changed. Pure.
 */
import { type BridgeFlowInput, bridgeSharedFlows, networkFlows, ownerCookie, sharedCookie } from './flows';
import { canonicalFlows, type DumpedFlow } from './flowText';

export interface BridgeChange {
  /** Flows (of this owner, and shared) the bridge lacks, and ones it has that should go. */
  missing: number;
  unexpected: number;
  /** The `ovs-ofctl --bundle add-flows` lines that make it so (empty when nothing differs). */
  bundle: string[];
  /** Owners' networks' patch ports of other owners on the bridge (their drop flows). */
  otherPorts: string[];
  /** Why nothing may be written: the shared flows other owners need say another service network. */
  conflict?: string;
}

const dropFlow = /^in_port=(\w+),priority=9 actions=drop$/;

const byPort = (a: string, b: string) => Number(a) - Number(b) || a.localeCompare(b);

function portsOf(flows: DumpedFlow[]): string[] {
  return [...new Set(flows.flatMap((f) => dropFlow.exec(f.flow)?.[1] ?? []))].sort(byPort);
}

function difference(want: string[], have: string[]): { missing: number; unexpected: number } {
  const w = new Set(want);
  const h = new Set(have);
  return { missing: want.filter((f) => !h.has(f)).length, unexpected: have.filter((f) => !w.has(f)).length };
}

/**
 * A shared flow of ours with `ports`' outputs taken out of its actions (the text is ovs-ofctl's,
 * without the cookie).
 */
function withoutOutputs(flow: string, ports: readonly string[]): string {
  const [match, actions] = flow.split(' actions=') as [string, string];
  const kept = actions.split(',').filter((a) => !ports.some((p) => a === `output:${p}`));
  return `${match} actions=${kept.join(',')}`;
}

/**
 * The shared flows wanted, and whether they are rendered whole. An owner with no network left on
 * the bridge while others have theirs cannot render them (the bridge's ports and addresses are the
 * others'): it takes its own patch ports out of the fan-outs and leaves the rest as they are.
 */
function wantedShared(
  input: BridgeFlowInput | undefined,
  haveShared: DumpedFlow[],
  mine: string[],
  others: string[],
): { flows: string[]; whole: boolean; canonical: string[] } {
  if (input && input.networks.length > 0) {
    const flows = bridgeSharedFlows(input, [...new Set([...mine, ...others])].sort(byPort));
    return { flows, whole: true, canonical: canonicalFlows(flows) };
  }
  if (others.length === 0) return { flows: [], whole: true, canonical: [] };
  const stripped = haveShared.map((f) => ({ was: f.flow, now: withoutOutputs(f.flow, mine) }));
  const flows = stripped.filter((f) => f.now !== f.was).map((f) => `cookie=${sharedCookie}, ${f.now}`);
  return { flows, whole: false, canonical: canonicalFlows(stripped.map((f) => f.now)) };
}

/** The service CIDRs of breth0's shared masquerade-subnet entries (priority 550, serviceFlows.ts). */
const serviceEntry = /^in_port=\w+,ipv?6?,(?:nw|ipv6)_dst=([^,]+),(?:nw|ipv6)_src=[^,]+,priority=550 /;
const servicesOf = (flows: readonly string[]): string[] => flows.flatMap((f) => serviceEntry.exec(f)?.[1] ?? []);

/**
 * A node has one service network, so every owner's networks on a bridge share its entries. When
 * other owners' networks are there and theirs name service CIDRs this owner's do not, rewriting
 * them would cut those networks off their services (issue 25 point 1): the two Inventories disagree.
 */
function serviceConflict(wanted: string[], haveShared: DumpedFlow[], others: string[]): string | undefined {
  if (others.length === 0) return undefined;
  const ours = servicesOf(wanted);
  const theirs = servicesOf(haveShared.map((f) => f.flow)).filter((c) => !ours.includes(c));
  if (theirs.length === 0) return undefined;
  return (
    `serviceCIDRs: other owners' networks on the bridge (patch ports ${others.join(', ')}) use service CIDR ` +
    `${theirs.join(', ')}, which this owner's Inventory spec.serviceCIDRs (${ours.join(', ') || 'none'}) does not ` +
    `name: a node has one service network, so every owner must give the same`
  );
}

/**
 * What `owner` must change on a bridge whose flows of ours are `dumped`, to carry `input`'s
 * networks (none: leave it).
 */
export function bridgeChange(owner: string, input: BridgeFlowInput | undefined, dumped: DumpedFlow[]): BridgeChange {
  const cookie = ownerCookie(owner);
  const haveMine = dumped.filter((f) => f.cookie === cookie);
  const haveShared = dumped.filter((f) => f.cookie === sharedCookie);
  const otherPorts = portsOf(dumped.filter((f) => f.cookie !== cookie && f.cookie !== sharedCookie));
  const mine = input ? networkFlows(owner, input) : [];
  const myPorts = input ? input.networks.map((n) => n.patchPort) : portsOf(haveMine);
  const shared = wantedShared(input, haveShared, myPorts, otherPorts);
  const conflict = input ? serviceConflict(shared.canonical, haveShared, otherPorts) : undefined;
  if (conflict) return { missing: 0, unexpected: 0, bundle: [], otherPorts, conflict };
  const diff = difference(
    [...canonicalFlows(mine), ...shared.canonical],
    [...haveMine, ...haveShared].map((f) => f.flow),
  );
  if (diff.missing + diff.unexpected === 0) return { ...diff, bundle: [], otherPorts };
  const bundle = [
    `delete cookie=${cookie}/-1`,
    ...(shared.whole ? [`delete cookie=${sharedCookie}/-1`] : []),
    ...[...shared.flows, ...mine].map((f) => `add ${f}`),
  ];
  return { ...diff, bundle, otherPorts };
}
