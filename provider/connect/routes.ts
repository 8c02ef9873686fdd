/**
 * Static routes on the connect router (upstream §3.4): towards each node's host subnets of a
 * Layer3 network via that node's network-router side, and towards a Layer2 network's cluster
 * subnets via its /31 (/127). Plain destination routing: no policy, output port or table.
 */
import { type Cidr, formatCidr } from '../model/cidr';
import { own } from '../model/dict';
import type { DesiredRow } from '../nb/desired';
import { routeIds } from './ids';
import { type Link, sideOf } from './links';

/** The routes of a link: host subnets of its node (Layer3) or the network's subnets (Layer2). */
export function routeRows(cnc: string, link: Link): DesiredRow[] {
  const prefixes = link.node ? (own(link.network.hostSubnets, link.node.name) ?? []) : link.network.subnets;
  const seen = new Set<number>();
  const rows: DesiredRow[] = [];
  for (const prefix of prefixes) {
    const nexthop = sideOf(link.networkSide, prefix.family);
    if (!nexthop) continue;
    // Upstream's id has no prefix, and it needs none: a node holds one host subnet per family even
    // in a Layer3 network of several subnets (the first range with room), and a Layer2 network has
    // one subnet per family (its CRD). Were a second one ever to come, it would get its prefix
    // appended rather than overwrite the first (upstream's defect 11).
    const extra = seen.has(prefix.family) ? formatCidr(prefix) : undefined;
    seen.add(prefix.family);
    rows.push(routeRow(cnc, link, prefix, nexthop.ip, extra));
  }
  return rows;
}

function routeRow(cnc: string, link: Link, prefix: Cidr, nexthop: string, extra: string | undefined): DesiredRow {
  return {
    table: 'Logical_Router_Static_Route',
    columns: {
      ip_prefix: formatCidr(prefix),
      nexthop,
      external_ids: routeIds(cnc, link.network.id, link.nodeId, prefix.family, extra),
    },
  };
}
