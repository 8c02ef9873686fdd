/**
 * Where a CUDN is active (OKEP-6019's "active nodes"): upstream without Dynamic UDN makes every
 * CUDN active on every node; the Inventory may narrow that per node with `spec.nodes[].networks`
 * (model/active.ts), as Dynamic UDN would. Activity decides a CUDN's UplinksReady
 * nodes, which nodes get its bridge mapping and VRF membership, and which CUDNs count in a node's
 * GatewayReady; names that are no network of the file are input problems (model/networkRules.ts). Pure.
 */
import { isActiveOn } from '../model/active';
import type { Cluster } from '../model/cluster';
import type { InventoryNode } from '../model/inventoryNode';
import type { Network } from '../model/network';

export { isActiveOn };

export function activeNodesOf(cluster: Cluster, network: Network): InventoryNode[] {
  return cluster.inventory.nodes.filter((node) => isActiveOn(node, network));
}
