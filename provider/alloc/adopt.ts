/**
 * Upstream's allocations read from the cluster (the Inventory's `spec.allocations`) taken as
 * previous state: a network id and a Layer2 transit router's tunnel key that the cluster records
 * replace what the stack or a `--previous` plan remembered for that network, and evict any other
 * network remembered at the same number (the cluster is the truth). Nothing else moves: the
 * cursors stay, as they do when upstream restarts and re-reads its annotations. `otherKeys` are
 * keys the cluster holds for objects outside the plan (clusterReservations). CNC annotations
 * are adopted with the CNC itself (model/cluster.ts), node ids and host subnets as node pins.
 */
import type { AdoptedAllocations } from '../model/adopted';
import { connectTunnelKeyAnnotation } from '../model/cnc';
import { dict } from '../model/dict';
import type { AllocationState } from './state';

export function adoptAllocations(
  previous: AllocationState,
  adopted: AdoptedAllocations,
  otherKeys: Record<string, number> = {},
): AllocationState {
  const keys = dict(Object.entries(previous.tunnelKeys.keys));
  for (const [owner, key] of Object.entries(otherKeys)) claim(keys, owner, key);
  for (const network of adopted.networks) {
    const routerKey = network.tunnelKeys?.[1];
    if (routerKey !== undefined) claim(keys, `transit-router/${network.name}`, routerKey);
  }
  const networkIds = adoptNetworkIds(previous.networkIds, adopted);
  return { ...previous, networkIds, tunnelKeys: { ...previous.tunnelKeys, keys } };
}

/** The previous network ids with the cluster's: each adopted id is its network's, and no other's. */
export function adoptNetworkIds(previous: Record<string, number>, adopted: AdoptedAllocations): Record<string, number> {
  const networkIds = dict(Object.entries(previous));
  for (const network of adopted.networks) if (network.id !== undefined) claim(networkIds, network.name, network.id);
  return networkIds;
}

/** `owner` holds `value`; whoever else held it lets go. */
function claim(record: Record<string, number>, owner: string, value: number): void {
  for (const [other, held] of Object.entries(record)) if (held === value && other !== owner) delete record[other];
  record[owner] = value;
}

/**
 * What the cluster holds for networks and connects the plan does not list (another team's, or
 * made by hand): their network ids (with who holds each) and datapath keys stay taken, as they
 * are in upstream's cluster-wide allocators.
 */
export function clusterReservations(
  adopted: AdoptedAllocations,
  planned: { networks: string[]; connects: string[] },
): { networkIds: Map<number, string>; keys: Record<string, number> } {
  const others = adopted.networks.filter((n) => !planned.networks.includes(n.name));
  const keys = dict<number>();
  for (const n of others) if (n.tunnelKeys?.[1] !== undefined) keys[`transit-router/${n.name}`] = n.tunnelKeys[1];
  for (const [name, annotations] of Object.entries(adopted.connects)) {
    const key = annotations[connectTunnelKeyAnnotation];
    if (!planned.connects.includes(name) && key !== undefined && /^\d+$/.test(key))
      keys[`connect-router/${name}`] = Number(key);
  }
  const networkIds = new Map(others.flatMap((n) => (n.id === undefined ? [] : [[n.id, `${n.name} (in the cluster)`]])));
  return { networkIds, keys };
}
