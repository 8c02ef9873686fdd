/**
 * Host subnets of one Layer3 network: upstream's next-fit SubnetAllocator over the network's
 * subnets split at `hostSubnet`, one child per family per node, nodes in node-id order.
 * Inventory pins are marked first, then the previous plan's subnets; when nothing changed the
 * previous state is returned untouched (the fast path that keeps re-planning cheap).
 */
import { formatCidr, mustParseCidr } from '../model/cidr';
import type { Network } from '../model/network';
import { configPath } from '../model/networkRules';
import { type AllocationReason, type Problem, problem } from '../model/problem';
import { type AllocatorState, type MarkFailure, SubnetAllocator } from './subnetAllocator';

export interface HostNode {
  name: string;
  id: number;
}

/** A node's pinned host subnets for the network, if any. */
export type PinsOf = (node: string) => string[] | undefined;

/** A pin another node holds, or one outside the network's subnets, can never be this node's. */
const pinReason: Record<MarkFailure['reason'], AllocationReason> = {
  taken: 'HostSubnetConflict',
  outsideRanges: 'HostSubnetConflict',
};

/** `nodes` must be in node-id order. */
export function allocateHostSubnets(
  network: Network,
  nodes: HostNode[],
  pinsOf: PinsOf,
  previous?: AllocatorState,
): { state: AllocatorState; problems: Problem[] } {
  if (previous && unchanged(network, nodes, pinsOf, previous)) return { state: previous, problems: [] };
  const allocator = new SubnetAllocator();
  for (const subnet of network.subnets) {
    const range = allocator.addRange(mustParseCidr(subnet.cidr), subnet.hostSubnet!);
    const old = previous?.ranges.find((r) => r.cidr === formatCidr(range.cidr) && r.prefix === range.childPrefix);
    if (old) range.next = old.next;
  }
  const problems: Problem[] = [];
  for (const node of nodes) {
    const pins = pinsOf(node.name);
    if (!pins) continue;
    const marked = allocator.mark(node.name, pins.map(mustParseCidr));
    if (!marked.ok)
      problems.push(
        problem(
          pinReason[marked.reason],
          'Inventory',
          `spec.nodes[${node.name}].hostSubnets.${network.name}`,
          `host subnet pin of node ${node.name} for network ${network.name}: ${marked.why}`,
        ),
      );
  }
  for (const node of nodes) {
    const old = previous?.owners[node.name];
    if (old && !pinsOf(node.name) && !allocator.has(node.name)) allocator.mark(node.name, old.map(mustParseCidr));
  }
  for (const node of nodes) {
    if (allocator.has(node.name)) continue;
    const result = allocator.allocate(node.name);
    if (!result.ok)
      problems.push(
        problem(
          'HostSubnetsExhausted',
          network.ref,
          `${configPath(network)}subnets`,
          `no host subnet left for node ${node.name} in network ${network.name}: ${result.why}`,
        ),
      );
  }
  return { state: allocator.toState(), problems };
}

function unchanged(network: Network, nodes: HostNode[], pinsOf: PinsOf, previous: AllocatorState): boolean {
  if (previous.ranges.length !== network.subnets.length) return false;
  const sameRanges = network.subnets.every(
    (s, i) => previous.ranges[i]!.cidr === s.cidr && previous.ranges[i]!.prefix === s.hostSubnet,
  );
  if (!sameRanges || Object.keys(previous.owners).length !== nodes.length) return false;
  return nodes.every((n) => {
    const held = previous.owners[n.name];
    const pins = pinsOf(n.name);
    return held !== undefined && (!pins || sameList(pins, held));
  });
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
