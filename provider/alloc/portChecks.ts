/**
 * Checks on a connect's allocation that upstream does not make (its known defects, fixed here as
 * validations): a node id too large for its network's slice (upstream then fails the whole
 * network; we name that node only), Layer2 port keys that collide past the 5000 cap, and port
 * tunnel keys above 32767, which make northd's Southbound commit fail for the whole zone.
 */
import type { Cidr } from '../model/cidr';
import { cidrSize, formatCidr } from '../model/cidr';
import { type Problem, problem } from '../model/problem';
import type { ConnectSubnet } from './connectSubnets';
import { layer2PortKey, layer2SubIndex, layer3PortKey, maxNodes, p2pPair } from './p2p';

/** OVN's per-datapath port key limit (northd refuses larger requested-tnl-key values). */
export const maxPortKey = 32767n;

export interface PortCheckInput {
  /** The connect's object reference, for paths. */
  ref: string;
  network: string;
  topology: 'layer3' | 'layer2';
  /** The network's allocation, IPv4 first. */
  subnets: Cidr[];
  connectSubnets: ConnectSubnet[];
  /** Nodes with ids, in id order. */
  nodes: { name: string; id: number }[];
}

export function checkPorts(input: PortCheckInput): Problem[] {
  const first = input.subnets[0];
  const connect = first && input.connectSubnets.find((c) => c.cidr.family === first.family);
  if (!first || !connect) return [];
  return input.topology === 'layer3' ? checkLayer3(input, first, connect) : checkLayer2(input, first, connect);
}

function checkLayer3(input: PortCheckInput, first: Cidr, connect: ConnectSubnet): Problem[] {
  const problems: Problem[] = [];
  // Pairs per slice, computed once: this runs for every network of every plan.
  const pairs = Math.min(...input.subnets.map((s) => Number(cidrSize(s) >> 1n)));
  let highest: { id: number; node: string } | undefined;
  for (const node of input.nodes) {
    if (node.id >= pairs) {
      const misfit = input.subnets.map((s) => p2pPair(s, node.id)).find((p) => !p.ok)?.why;
      problems.push(
        exhausted(
          input,
          `node ${node.name} (id ${node.id}) does not fit the slice ${formatCidr(first)} of network ${input.network}: ${misfit}; use a shorter networkPrefix`,
        ),
      );
    } else if (!highest || node.id > highest.id) highest = { id: node.id, node: node.name };
  }
  const key = highest && layer3PortKey(first, connect, highest.id);
  if (highest && key! > maxPortKey) {
    problems.push(
      exhausted(
        input,
        `port tunnel key ${key} of network ${input.network} on node ${highest.node} exceeds OVN's limit of ${maxPortKey} per router (slice ${formatCidr(first)}); use fewer, larger slices (a longer connect CIDR prefix or a shorter networkPrefix)`,
      ),
    );
  }
  return problems;
}

function checkLayer2(input: PortCheckInput, first: Cidr, connect: ConnectSubnet): Problem[] {
  const problems: Problem[] = [];
  const sub = layer2SubIndex(first, connect);
  if (sub >= maxNodes(connect)) {
    problems.push(
      exhausted(
        input,
        `port tunnel key of network ${input.network} (${formatCidr(first)}, /31 number ${sub} of its block) collides with the next block's keys because upstream caps each block's key window at 5000; use a longer networkPrefix`,
      ),
    );
  }
  const key = layer2PortKey(first, connect);
  if (key > maxPortKey) {
    problems.push(
      exhausted(
        input,
        `port tunnel key ${key} of network ${input.network} (${formatCidr(first)}) exceeds OVN's limit of ${maxPortKey} per router`,
      ),
    );
  }
  return problems;
}

function exhausted(input: PortCheckInput, message: string): Problem {
  return problem('ConnectSubnetExhausted', input.ref, 'spec.connectSubnets', message);
}
