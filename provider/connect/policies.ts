/**
 * Reroute policies on a locally active network router (upstream §3.3): one per destination
 * network and IP family, priority 9001, matching pod traffic from the source network's switch
 * port towards the destination's cluster subnets (several same-family subnets OR-ed in
 * parentheses), rerouted to the connect-router side of the source's local link.
 */
import { type Cidr, type Family, formatCidr } from '../model/cidr';
import type { DesiredRow } from '../nb/desired';
import { POLICY_PRIORITY, policyIds } from './ids';
import type { ConnectedNetwork } from './input';
import { type Link, sideOf } from './links';
import { networkRouter, podInport } from './networkNames';

/** `ip4.dst == A` or `(ip4.dst == A || ip4.dst == B)`, or undefined when the family has none. */
export function destinationMatch(subnets: Cidr[], family: Family): string | undefined {
  const terms = subnets.filter((s) => s.family === family).map((s) => `ip${family}.dst == ${formatCidr(s)}`);
  if (terms.length === 0) return undefined;
  return terms.length === 1 ? terms[0] : `(${terms.join(' || ')})`;
}

/**
 * The policies of `source` (the link of the local node, or the Layer2 link) towards every other
 * connected network. `centralNode` is set in the central layout for Layer3 sources, where one
 * policy per node lands on the same router: its id gets `:<node>` (ids.ts).
 */
export function policyRows(
  cnc: string,
  source: Link,
  networks: ConnectedNetwork[],
  centralNode?: string,
): DesiredRow[] {
  const router = networkRouter(source.network);
  const inport = podInport(source.network, source.node?.name ?? '');
  const rows: DesiredRow[] = [];
  for (const destination of networks) {
    if (destination.id === source.network.id) continue;
    for (const family of [4, 6] as const) {
      const nexthop = sideOf(source.connectSide, family);
      const dst = nexthop && destinationMatch(destination.subnets, family);
      if (!nexthop || !dst) continue;
      rows.push({
        table: 'Logical_Router_Policy',
        columns: {
          priority: POLICY_PRIORITY,
          action: 'reroute',
          match: `inport == "${inport}" && ${dst}`,
          nexthops: [nexthop.ip],
          external_ids: policyIds(cnc, source.network.id, destination.id, family, router, centralNode),
        },
        parents: [{ table: 'Logical_Router', identity: router, column: 'policies' }],
      });
    }
  }
  return rows;
}
