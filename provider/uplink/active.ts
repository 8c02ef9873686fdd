/**
 * Where a CUDN is active (OKEP-6019's "active nodes"): upstream without Dynamic UDN makes every
 * CUDN active on every node; the Inventory may narrow that per node with `spec.nodes[].networks`
 * (the CUDN names active there), as Dynamic UDN would. Activity decides a CUDN's UplinksReady
 * nodes, which nodes get its bridge mapping and VRF membership, and which CUDNs count in a node's
 * GatewayReady. Pure.
 */
import type { Cluster } from '../model/cluster';
import type { InventoryNode } from '../model/inventory';
import type { Network } from '../model/network';
import { type UplinkProblem, uplinkProblem } from './problems';

/** Is `network` (a CUDN, by its object name) active on `node`? */
export function isActiveOn(node: InventoryNode, network: Network): boolean {
  return node.networks === undefined || node.networks.includes(network.objectName);
}

export function activeNodesOf(cluster: Cluster, network: Network): InventoryNode[] {
  return cluster.inventory.nodes.filter((node) => isActiveOn(node, network));
}

/** A name in `spec.nodes[].networks` that is no CUDN of the file is a mistake worth naming. */
export function activeNetworkProblems(cluster: Cluster): UplinkProblem[] {
  const cudns = new Set(
    cluster.networks.filter((n) => n.kind === 'ClusterUserDefinedNetwork').map((n) => n.objectName),
  );
  const ref = `Inventory/${cluster.inventory.name}`;
  return cluster.inventory.nodes.flatMap((node, i) =>
    (node.networks ?? []).flatMap((name, j) => {
      if (cudns.has(name)) return [];
      const field = `spec.nodes[${i}].networks[${j}]`;
      return [
        uplinkProblem(
          'InvalidSpec',
          ref,
          field,
          `${field} "${name}" is not a ClusterUserDefinedNetwork of this file (node ${node.name} lists the CUDNs active on it)`,
        ),
      ];
    }),
  );
}
