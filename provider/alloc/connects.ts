/**
 * One ClusterNetworkConnect's subnets, as upstream's cluster manager reconciles it: adopt the
 * annotation when there is no previous state (cursor 0, as after a restart); allocate nothing
 * when validation failed (the previous allocation stays, as upstream returns early); otherwise
 * keep existing owners, allocate new networks in ascending network id, release the vanished
 * ones, and check the ports every zone will derive. Changed connectSubnets (immutable upstream,
 * so the object is recreated there) are a replacement: the previous allocation and the
 * annotation are dropped and every network gets a fresh slice of the new subnets (cursor 0).
 */
import { type Cidr, type Family, familyName, formatCidr, mustParseCidr, parseCidr } from '../model/cidr';
import { connectSubnetAnnotation } from '../model/cnc';
import { failure, type Outcome, success } from '../model/outcome';
import { type Problem, problem } from '../model/problem';
import type { Warning } from '../model/warnings';
import { ConnectSubnetAllocator, type ConnectSubnet, ownerKey, ownerTopology, type Topology } from './connectSubnets';
import { checkPorts } from './portChecks';
import type { ConnectState } from './state';

export interface ConnectRequest {
  name: string;
  ref: string;
  /** The connect subnets that passed validation (empty when the spec is unusable). */
  connectSubnets: { cidr: string; networkPrefix: number }[];
  /** OVN names of the networks the connect selects and may connect. */
  networks: string[];
  /** Problems found before allocation: any of them means nothing new is allocated. */
  problems: Problem[];
  /** Said but not refused (InsufficientNetworks): the connect is allocated and rendered. */
  warnings?: Warning[];
  subnetAnnotation?: string;
  tunnelKeyAnnotation?: string;
}

export interface ConnectContext {
  families: Family[];
  networkIds: Record<string, number>;
  topologyOf(network: string): Topology;
  nodes: { name: string; id: number }[];
}

export interface ConnectNetworkAllocation {
  network?: string;
  networkId: number;
  topology: Topology;
  subnets: { ipv4?: string; ipv6?: string };
  /** Layer2 only: the borrowed /networkPrefix blocks holding the /31 (/127). */
  blocks?: { ipv4?: string; ipv6?: string };
}

export type SubnetList = { cidr: string; networkPrefix: number }[];

/** A connect whose connectSubnets changed: it is replaced (deleted, then made again from `to`). */
export interface ConnectReplacement {
  from: SubnetList;
  to: SubnetList;
  message: string;
}

export interface ConnectSubnets {
  problems: Problem[];
  /** By owner key (`layer3_1`). */
  networks: Record<string, ConnectNetworkAllocation>;
  state?: ConnectState;
  replaced?: ConnectReplacement;
}

export function allocateConnectSubnets(
  request: ConnectRequest,
  context: ConnectContext,
  previous?: ConnectState,
): ConnectSubnets {
  const problems: Problem[] = [];
  const subnets = request.connectSubnets.map((s) => ({ cidr: mustParseCidr(s.cidr), networkPrefix: s.networkPrefix }));
  const replaced =
    previous && subnets.length > 0 && !sameSubnets(previous.connectSubnets, request.connectSubnets)
      ? replacement(request, previous.connectSubnets)
      : undefined;
  const kept = replaced ? undefined : previous;
  const allocator = kept
    ? ConnectSubnetAllocator.fromState(kept)
    : replaced
      ? ConnectSubnetAllocator.create(subnets, context.families)
      : subnets.length > 0
        ? adopted(request, subnets, context.families, problems)
        : undefined;
  if (!allocator) return { problems, networks: {} };
  if (request.problems.length === 0 && problems.length === 0)
    allocateNetworks(request, context, allocator, subnets, problems);
  const connectSubnets = kept?.connectSubnets ?? request.connectSubnets;
  const state = { connectSubnets, ...allocator.toState() };
  return { problems, networks: describe(allocator, context), state, ...(replaced ? { replaced } : {}) };
}

function replacement(request: ConnectRequest, from: SubnetList): ConnectReplacement {
  const show = (list: SubnetList) => `[${list.map((s) => `${s.cidr}/p${s.networkPrefix}`).join(', ')}]`;
  const to = request.connectSubnets;
  return {
    from,
    to,
    message: `${request.ref}: spec.connectSubnets changed from ${show(from)} to ${show(to)}; upstream refuses this update (connectSubnets is immutable) and needs the ClusterNetworkConnect recreated, so this is a replacement: the connect router and its links are deleted and made again, every network with a fresh subnet of the new connectSubnets`,
  };
}

function sameSubnets(a: ConnectState['connectSubnets'], b: ConnectState['connectSubnets']): boolean {
  return a.length === b.length && a.every((s, i) => s.cidr === b[i]!.cidr && s.networkPrefix === b[i]!.networkPrefix);
}

function allocateNetworks(
  request: ConnectRequest,
  context: ConnectContext,
  allocator: ConnectSubnetAllocator,
  subnets: ConnectSubnet[],
  problems: Problem[],
): void {
  const wanted = request.networks
    .filter((n) => context.networkIds[n] !== undefined)
    .map((n) => ({
      network: n,
      id: context.networkIds[n]!,
      owner: ownerKey(context.topologyOf(n), context.networkIds[n]!),
    }))
    .sort((a, b) => a.id - b.id);
  for (const w of wanted) {
    const result = allocator.allocate(w.owner);
    if (!result.ok) {
      const kind = ownerTopology(w.owner) === 'layer3' ? 'Layer3' : 'Layer2';
      problems.push(
        problem(
          'ConnectSubnetExhausted',
          request.ref,
          'spec.connectSubnets',
          `failed to allocate subnets for CNC ${request.name}: failed to allocate ${kind} subnet for network ${w.network}: ${result.why}`,
        ),
      );
      continue;
    }
    problems.push(
      ...checkPorts({
        ref: request.ref,
        network: w.network,
        topology: ownerTopology(w.owner)!,
        subnets: result.value,
        connectSubnets: subnets,
        nodes: context.nodes,
      }),
    );
  }
  const keep = new Set(wanted.map((w) => w.owner));
  for (const owner of allocator.owners()) if (!keep.has(owner)) allocator.release(owner);
}

/** A fresh allocator holding what upstream's annotation records. */
function adopted(
  request: ConnectRequest,
  subnets: ConnectSubnet[],
  families: Family[],
  problems: Problem[],
): ConnectSubnetAllocator {
  const allocator = ConnectSubnetAllocator.create(subnets, families);
  if (request.subnetAnnotation === undefined) return allocator;
  const field = `metadata.annotations["${connectSubnetAnnotation}"]`;
  const entries = parseAnnotation(request.subnetAnnotation);
  if (!entries.ok) {
    problems.push(problem('InvalidSpec', request.ref, field, `${field} ${entries.why}`));
    return allocator;
  }
  for (const [owner, cidrs] of entries.value) {
    const adoptedHere = allocator.adopt(owner, cidrs);
    if (!adoptedHere.ok)
      problems.push(
        problem('InvalidSpec', request.ref, field, `${field} cannot be adopted: ${owner}: ${adoptedHere.why}`),
      );
  }
  return allocator;
}

/** Owner -> subnets; owners whose key does not parse are skipped, as upstream does. */
function parseAnnotation(text: string): Outcome<[string, Cidr[]][]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return failure('is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return failure('is not a JSON object of owner -> {ipv4, ipv6}');
  const entries: [string, Cidr[]][] = [];
  for (const [owner, families] of Object.entries(value as Record<string, Record<string, unknown>>)) {
    if (!ownerTopology(owner)) continue;
    const cidrs = ['ipv4', 'ipv6'].flatMap((f) =>
      typeof families?.[f] === 'string' ? [parseCidr(families[f] as string)] : [],
    );
    const bad = cidrs.find((c) => !c.ok);
    if (bad !== undefined && !bad.ok) return failure(`has an invalid subnet for ${owner}: ${bad.why}`);
    entries.push([owner, cidrs.flatMap((c) => (c.ok ? [c.value] : []))]);
  }
  return success(entries);
}

function describe(
  allocator: ConnectSubnetAllocator,
  context: ConnectContext,
): Record<string, ConnectNetworkAllocation> {
  const byId = new Map(Object.entries(context.networkIds).map(([name, id]) => [id, name]));
  const out: Record<string, ConnectNetworkAllocation> = {};
  for (const owner of allocator.owners().sort()) {
    const topology = ownerTopology(owner)!;
    const networkId = Number(owner.split('_')[1]);
    const subnets = allocator.subnetsOf(owner);
    out[owner] = { network: byId.get(networkId), networkId, topology, subnets: byFamily(subnets) };
    if (topology === 'layer2') out[owner]!.blocks = byFamily(subnets.map((s) => allocator.blockOf(s)));
  }
  return out;
}

function byFamily(cidrs: Cidr[]): { ipv4?: string; ipv6?: string } {
  const out: { ipv4?: string; ipv6?: string } = {};
  for (const c of cidrs) out[familyName(c.family)] = formatCidr(c);
  return out;
}

/** Upstream's `k8s.ovn.org/network-connect-subnet` text: owner keys sorted, ipv4 before ipv6. */
export function subnetAnnotationText(networks: Record<string, ConnectNetworkAllocation>): string {
  const sorted: Record<string, { ipv4?: string; ipv6?: string }> = {};
  for (const owner of Object.keys(networks).sort()) sorted[owner] = networks[owner]!.subnets;
  return JSON.stringify(sorted);
}
