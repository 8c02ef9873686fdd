/**
 * The capacity forecast of a plan: how far each cluster-wide allocation can grow before the
 * planner refuses, computed with the allocators' own code and formulas, never a second model of
 * them. Growing by nodes: node ids (2..5000, new nodes take the lowest free ids), each Layer3
 * network's free host subnets (a new node runs every network), and each connect's Layer3 slices
 * (a node id must fit the slice's /31 pairs, and its port key `index * maxNodes + id + 1` must
 * stay within OVN's 32,767). Growing by networks: network ids (1..4095), and per connect the next
 * slices and Layer2 /31s the connect's own allocator would hand out (a copy of it is stepped
 * forward), each checked by portChecks.ts as the planner checks it. Each limit says how many more
 * fit, and the planner's reason and object when one more is refused. Pure.
 */
import { familyName, formatCidr } from '../model/cidr';
import { maxNodeId, minNodeId } from '../model/inventoryNode';
import type { ClusterAllocation } from './cluster';
import { type ConnectCapacity, connectCapacity, type ConnectCapacityInput, type Limit } from './connectCapacity';
import { dynamicKeyStart, maxDatapathKey } from './datapathKeys';
import { maxNetworkId } from './ids';
import { SubnetAllocator } from './subnetAllocator';

export type { BlockUse, ConnectCapacity, ConnectCapacityInput, Limit, SliceUse } from './connectCapacity';
export { freeNodeIdsUpTo } from './connectCapacity';

export interface RangeUse {
  first: number;
  last: number;
  used: number;
  free: number;
}

export interface HostSubnetUse {
  family: 'ipv4' | 'ipv6';
  cidr: string;
  /** The prefix length of each node's host subnet. */
  hostSubnet: number;
  total: number;
  used: number;
  free: number;
}

export interface NetworkCapacity {
  name: string;
  ref: string;
  topology: string;
  /** Layer3 only: per range of the network's subnets. */
  hostSubnets: HostSubnetUse[];
  /** Layer3 only: how many more nodes get a host subnet. */
  moreNodes?: Limit;
}

export interface Growth {
  more: number;
  /** Every limit reached first (several when they tie). */
  limits: Limit[];
}

export interface CapacityForecast {
  ranges: { nodeIds: RangeUse; networkIds: RangeUse; datapathKeys: RangeUse };
  networks: NetworkCapacity[];
  connects: ConnectCapacity[];
  /**
   * Growing by nodes, by Layer3 networks, by Layer2 networks (connects take the two kinds from
   * different pools), and `networks`: whichever network kind is refused first.
   */
  growth: { nodes: Growth; layer3Networks: Growth; layer2Networks: Growth; networks: Growth };
}

export interface CapacityInput {
  allocation: ClusterAllocation;
  /** The networks in use with their object references and topologies. */
  networks: { name: string; ref: string; topology: string }[];
  /** The accepted connects (a refused one has nothing to grow). */
  connects: ConnectCapacityInput[];
}

export function forecastCapacity(input: CapacityInput): CapacityForecast {
  const { allocation } = input;
  const nodeIds = Object.values(allocation.nodeIds);
  const ranges = {
    nodeIds: rangeUse(minNodeId, maxNodeId, nodeIds.length),
    networkIds: rangeUse(1, maxNetworkId, Object.keys(allocation.networkIds).length),
    datapathKeys: rangeUse(dynamicKeyStart, maxDatapathKey, Object.keys(allocation.state.tunnelKeys.keys).length),
  };
  const nodes = nodesOf(allocation);
  const networks = input.networks.map((n) => networkCapacity(n, allocation));
  const freeIds = freeNetworkIds(Object.values(allocation.networkIds));
  const connects = input.connects.map((c) => connectCapacity(c, nodes, freeIds));
  const nodeLimits = [
    idLimit('node', ranges.nodeIds.free, 'Inventory'),
    ...networks.flatMap((n) => (n.moreNodes ? [n.moreNodes] : [])),
    ...connects.flatMap((c) => (c.moreNodes ? [c.moreNodes] : [])),
  ];
  // A connect bound only by the network ids adds nothing to the id limit itself: said once.
  const own = (l: Limit) => (l.reason === 'IdsExhausted' ? [] : [l]);
  const ids = idLimit('network', ranges.networkIds.free);
  const layer3Networks = first([ids, ...connects.flatMap((c) => own(c.moreLayer3Networks))]);
  const layer2Networks = first([ids, ...connects.flatMap((c) => own(c.moreLayer2Networks))]);
  const growth = {
    nodes: first(nodeLimits),
    layer3Networks,
    layer2Networks,
    networks: first([...layer3Networks.limits, ...layer2Networks.limits]),
  };
  return { ranges, networks, connects, growth };
}

/** The network ids new networks take, lowest first (as the planner assigns unpinned ids). */
function freeNetworkIds(used: number[]): number[] {
  const taken = new Set(used);
  const free: number[] = [];
  for (let id = 1; id <= maxNetworkId; id++) if (!taken.has(id)) free.push(id);
  return free;
}

function rangeUse(firstId: number, last: number, used: number): RangeUse {
  return { first: firstId, last, used, free: Math.max(0, last - firstId + 1 - used) };
}

function idLimit(what: 'node' | 'network', free: number, ref?: string): Limit {
  const range = what === 'node' ? `${minNodeId}..${maxNodeId}` : `1..${maxNetworkId}`;
  const message = `${free} ${what} ids of ${range} are free; one more ${what} is refused: no ${what} id is left`;
  return { more: free, reason: 'IdsExhausted', ...(ref ? { ref } : {}), message };
}

function first(limits: Limit[]): Growth {
  const more = Math.min(...limits.map((l) => l.more));
  return { more, limits: limits.filter((l) => l.more === more) };
}

/** Nodes in id order. */
function nodesOf(allocation: ClusterAllocation): { name: string; id: number }[] {
  return Object.entries(allocation.nodeIds)
    .map(([name, id]) => ({ name, id }))
    .sort((a, b) => a.id - b.id);
}

function networkCapacity(network: CapacityInput['networks'][number], allocation: ClusterAllocation): NetworkCapacity {
  const state = allocation.state.hostSubnets[network.name];
  const base = { name: network.name, ref: network.ref, topology: network.topology };
  if (network.topology !== 'Layer3' || !state) return { ...base, hostSubnets: [] };
  const allocator = SubnetAllocator.fromState(state);
  const hostSubnets = allocator.ranges.map((r) => ({
    family: familyName(r.cidr.family),
    cidr: formatCidr(r.cidr),
    hostSubnet: r.childPrefix,
    total: r.capacity,
    used: r.used,
    free: r.capacity - r.used,
  }));
  // a node takes one host subnet of every family the network has, from any range of that family
  const families = [...new Set(hostSubnets.map((h) => h.family))];
  const free = Math.min(
    ...families.map((f) => hostSubnets.filter((h) => h.family === f).reduce((sum, h) => sum + h.free, 0)),
  );
  const message = `network ${network.name} has ${free} free host subnets (${hostSubnets.map((h) => `/${h.hostSubnet} of ${h.cidr}: ${h.free} of ${h.total}`).join(', ')}); one more node gets none`;
  return { ...base, hostSubnets, moreNodes: { more: free, reason: 'HostSubnetsExhausted', ref: network.ref, message } };
}
