/**
 * Transit subnets: the cluster default (100.88.0.0/16, fd97::/64) and, for a primary Layer2
 * network, upstream's shift to the next same-size subnet while the default overlaps the
 * network, join, masquerade or service subnets. Pure; the allocator may call it too.
 */
import { firstClearBlock, formatCidr, type Cidr } from '../model/cidr';
import { parseNetwork } from './addresses';
import { TopologyInputError } from './errors';

export const DEFAULT_TRANSIT_SWITCH_SUBNETS: readonly string[] = ['100.88.0.0/16', 'fd97::/64'];

export interface TransitAvoid {
  networkSubnets: string[];
  joinSubnets?: string[];
  masqueradeSubnets?: string[];
  serviceSubnets?: string[];
}

/** The first same-size subnet at or after `start` that overlaps none of `avoid`. */
export function shiftPastOverlaps(start: Cidr, avoid: readonly Cidr[]): Cidr {
  const block = firstClearBlock(start, avoid);
  if (!block)
    throw new TopologyInputError('network.transitSubnets', formatCidr(start), 'has no free same-size subnet after it');
  return block;
}

/**
 * Transit subnets of a primary Layer2 network: one per family of its subnets, the default
 * (or `defaults`) shifted past every overlapping subnet.
 */
export function layer2TransitSubnets(
  avoid: TransitAvoid,
  defaults: readonly string[] = DEFAULT_TRANSIT_SWITCH_SUBNETS,
): string[] {
  const parse = (list: string[] | undefined, field: string): Cidr[] =>
    (list ?? []).map((t, i) => parseNetwork(t, `${field}[${i}]`));
  const network = parse(avoid.networkSubnets, 'networkSubnets');
  const others = [
    ...network,
    ...parse(avoid.joinSubnets, 'joinSubnets'),
    ...parse(avoid.masqueradeSubnets, 'masqueradeSubnets'),
    ...parse(avoid.serviceSubnets, 'serviceSubnets'),
  ];
  const families = [...new Set(network.map((c) => c.family))].sort();
  return families.map((family) => {
    const start = parse([...defaults], 'defaults').find((c) => c.family === family);
    if (!start) throw new TopologyInputError('defaults', defaults, `has no IPv${family} transit subnet`);
    return formatCidr(shiftPastOverlaps(start, others));
  });
}
