/**
 * The nodes a network has rows for: those it is active on (Dynamic UDN, model/active.ts) and,
 * for Layer3, that got a host subnet. A node the allocation could not serve (every range full)
 * is refused by the plan's problems; the topology and connect renders leave it out alike, so no
 * row names a router the node's zone does not have. Pure.
 */
import { activeNodeNames } from '../model/active';
import type { Cluster } from '../model/cluster';
import { own } from '../model/dict';
import type { Network } from '../model/network';
import type { ClusterAllocation } from './cluster';

/** The served nodes' names, or undefined when the network is served on every node. */
export function servedNodeNames(
  cluster: Cluster,
  network: Network,
  allocation: ClusterAllocation,
): string[] | undefined {
  const active = activeNodeNames(cluster.inventory, network);
  if (network.topology !== 'Layer3') return active;
  const owners = own(allocation.hostSubnets, network.name) ?? {};
  const all = Object.keys(allocation.nodeIds);
  const served = (active ?? all).filter((n) => own(owners, n) !== undefined);
  return active === undefined && served.length === all.length ? undefined : served;
}
