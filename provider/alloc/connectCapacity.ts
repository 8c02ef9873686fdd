/**
 * A connect's part of the capacity forecast (capacity.ts): the slices and Layer2 blocks its own
 * allocator handed out, the highest port key, and how many more nodes and networks of each kind
 * it takes before the planner refuses: a copy of its allocator stepped forward, each step checked
 * by portChecks.ts as the planner checks it. Also the one Limit shape both parts report. Pure.
 */
import { addressBits, type Cidr, cidrSize, familyName, formatCidr, mustParseCidr } from '../model/cidr';
import { maxNodeId, minNodeId } from '../model/inventoryNode';
import type { Reason } from '../model/problem';
import { ConnectSubnetAllocator, type ConnectSubnet, ownerKey, ownerTopology, type Topology } from './connectSubnets';
import { layer2PortKey, layer3PortKey, maxNodes } from './p2p';
import { checkPorts, maxPortKey } from './portChecks';
import type { ConnectState } from './state';

/** One ceiling: `more` fit, the next one is refused with `reason` naming `ref` (when known). */
export interface Limit {
  more: number;
  reason: Reason;
  /** The object the planner's refusal names; absent when it is the new object itself. */
  ref?: string;
  message: string;
}

/** How many free node ids there are from 2 up to `ceiling`: new nodes take the lowest first. */
export function freeNodeIdsUpTo(ceiling: number, used: number[]): number {
  const top = Math.min(ceiling, maxNodeId);
  if (top < minNodeId) return 0;
  return top - minNodeId + 1 - used.filter((id) => id >= minNodeId && id <= top).length;
}

export interface SliceUse {
  family: 'ipv4' | 'ipv6';
  cidr: string;
  networkPrefix: number;
  total: number;
  /** Slices held by Layer3 networks and by Layer2 blocks. */
  used: number;
  free: number;
  layer3: number;
  layer2Blocks: number;
}

export interface BlockUse {
  block: string;
  /** /31 (/127) slots of the block, used and free. */
  size: number;
  used: number;
  free: number;
}

export interface ConnectCapacityInput {
  name: string;
  ref: string;
  state: ConnectState;
}

export interface ConnectCapacity {
  name: string;
  ref: string;
  slices: SliceUse[];
  layer2Blocks: BlockUse[];
  /**
   * The port keys each slice index reserves: min(2^(bits - networkPrefix), 5000). Not how many
   * nodes a slice holds; that is `nodeIdsPerSlice`.
   */
  maxNodes: number;
  /** A Layer3 slice holds node ids below this: its /31 (/127) pairs, the fewest of its families. */
  nodeIdsPerSlice: number;
  highestPortKey?: { key: number; network: string; node?: string; limit: number };
  /**
   * How many more nodes this connect's Layer3 slices take (pairs and port keys); absent when only
   * node ids bound them.
   */
  moreNodes?: Limit;
  moreLayer3Networks: Limit;
  moreLayer2Networks: Limit;
}

export function connectCapacity(
  input: ConnectCapacityInput,
  nodes: { name: string; id: number }[],
  freeIds: number[],
): ConnectCapacity {
  const allocator = ConnectSubnetAllocator.fromState(input.state);
  const subnets = connectSubnetsOf(input.state);
  const highest = nodes[nodes.length - 1];
  return {
    name: input.name,
    ref: input.ref,
    slices: sliceUse(allocator),
    layer2Blocks: blockUse(allocator),
    maxNodes: subnets[0] ? Number(maxNodes(subnets[0])) : 0,
    nodeIdsPerSlice: Math.min(
      ...subnets.map((s) => Number(1n << BigInt(addressBits(s.cidr.family) - s.networkPrefix - 1))),
    ),
    highestPortKey: highestPortKey(allocator, subnets, highest),
    moreNodes: connectNodeLimit(input, allocator, subnets, nodes),
    moreLayer3Networks: moreNetworks(input, 'layer3', subnets, highest, freeIds),
    moreLayer2Networks: moreNetworks(input, 'layer2', subnets, highest, freeIds),
  };
}

function connectSubnetsOf(state: ConnectState): ConnectSubnet[] {
  return state.connectSubnets.map((s) => ({ cidr: mustParseCidr(s.cidr), networkPrefix: s.networkPrefix }));
}

const subnetFor = (subnets: ConnectSubnet[], cidr: Cidr) => subnets.find((s) => s.cidr.family === cidr.family);

function sliceUse(allocator: ConnectSubnetAllocator): SliceUse[] {
  return allocator.l3.ranges.map((r) => {
    const owners = r.entries().map(([, owner]) => owner);
    const layer3 = owners.filter((o) => ownerTopology(o) === 'layer3').length;
    return {
      family: familyName(r.cidr.family),
      cidr: formatCidr(r.cidr),
      networkPrefix: r.childPrefix,
      total: r.capacity,
      used: r.used,
      free: r.capacity - r.used,
      layer3,
      layer2Blocks: r.used - layer3,
    };
  });
}

function blockUse(allocator: ConnectSubnetAllocator): BlockUse[] {
  return allocator.l2.ranges.map((r) => ({
    block: formatCidr(r.cidr),
    size: r.capacity,
    used: r.used,
    free: r.capacity - r.used,
  }));
}

/** The largest port key the connect router gets today: Layer3 at the highest node id, Layer2 at its /31. */
function highestPortKey(
  allocator: ConnectSubnetAllocator,
  subnets: ConnectSubnet[],
  highest: { name: string; id: number } | undefined,
): ConnectCapacity['highestPortKey'] {
  let best: ConnectCapacity['highestPortKey'];
  for (const owner of allocator.owners()) {
    const slice = allocator.subnetsOf(owner)[0];
    const connect = slice && subnetFor(subnets, slice);
    if (!slice || !connect) continue;
    const layer3 = ownerTopology(owner) === 'layer3';
    if (layer3 && !highest) continue;
    const key = Number(layer3 ? layer3PortKey(slice, connect, highest!.id) : layer2PortKey(slice, connect));
    if (!best || key > best.key)
      best = { key, network: owner, ...(layer3 ? { node: highest!.name } : {}), limit: Number(maxPortKey) };
  }
  return best;
}

/**
 * The highest node id every Layer3 slice of the connect still takes: below its /31 pair count,
 * and with `index * maxNodes + id + 1` within OVN's limit. Undefined when it is 5000 or more.
 */
function connectNodeLimit(
  input: ConnectCapacityInput,
  allocator: ConnectSubnetAllocator,
  subnets: ConnectSubnet[],
  nodes: { id: number }[],
): Limit | undefined {
  let ceiling: { id: number; why: string } | undefined;
  for (const owner of allocator.owners().filter((o) => ownerTopology(o) === 'layer3')) {
    const slices = allocator.subnetsOf(owner);
    const connect = slices[0] && subnetFor(subnets, slices[0]);
    if (!connect) continue;
    const pairs = Math.min(...slices.map((s) => Number(cidrSize(s) >> 1n)));
    const byKey = Number(maxPortKey - layer3PortKey(slices[0]!, connect, 0));
    const slice = formatCidr(slices[0]!);
    const id = Math.min(pairs - 1, byKey);
    const why =
      pairs - 1 <= byKey
        ? `the slice ${slice} of ${owner} holds node ids below ${pairs}`
        : `node id ${byKey + 1} would give ${owner} (slice ${slice}) port key ${maxPortKey + 1n}, above OVN's limit of ${maxPortKey}`;
    if (!ceiling || id < ceiling.id) ceiling = { id, why };
  }
  if (!ceiling || ceiling.id >= maxNodeId) return undefined;
  const more = freeNodeIdsUpTo(
    ceiling.id,
    nodes.map((n) => n.id),
  );
  const message = `connect ${input.name}: ${ceiling.why}; ${more} more nodes fit (new nodes take the lowest free node ids)`;
  return { more, reason: 'ConnectSubnetExhausted', ref: input.ref, message };
}

/**
 * Step a copy of the connect's allocator forward, one new network of `topology` at a time, as
 * the planner allocates a network the connect newly joins (next-fit from the stored cursor,
 * Layer2 blocks borrowed when full), each checked as the planner checks it.
 */
function moreNetworks(
  input: ConnectCapacityInput,
  topology: Topology,
  subnets: ConnectSubnet[],
  highest: { name: string; id: number } | undefined,
  freeIds: number[],
): Limit {
  const allocator = ConnectSubnetAllocator.fromState(input.state);
  const kind = topology === 'layer3' ? 'Layer3' : 'Layer2';
  const freeNetworkIds = freeIds.length;
  for (let more = 0; more < freeNetworkIds; more++) {
    // the slice owner the new network would be, named by the id it would get
    const owner = ownerKey(topology, freeIds[more]!);
    const result = allocator.allocate(owner);
    const refusal = !result.ok
      ? result.why
      : checkPorts({
          ref: input.ref,
          network: `${owner} (new ${kind} network number ${more + 1})`,
          topology,
          subnets: result.value,
          connectSubnets: subnets,
          nodes: highest ? [highest] : [],
        })[0]?.message;
    if (refusal !== undefined) {
      const message = `connect ${input.name} takes ${more} more ${kind} networks; the next is refused: ${refusal}`;
      return { more, reason: 'ConnectSubnetExhausted', ref: input.ref, message };
    }
  }
  const message = `connect ${input.name} takes ${kind} networks until the network ids run out (${freeNetworkIds} more)`;
  return { more: freeNetworkIds, reason: 'IdsExhausted', message };
}
