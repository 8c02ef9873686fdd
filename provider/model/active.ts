/**
 * Where a network is active (Dynamic UDN, OKEP-6019's "active nodes"): upstream without Dynamic
 * UDN makes every primary network active on every node; the Inventory narrows that per node with
 * `spec.nodes[].networks`, listing the CUDNs (by name) and UDNs (as `<namespace>/<name>`) active
 * there, as Dynamic UDN would from the pods and NADs on each node. An inactive node gets no host
 * subnet, no rows of the network in its own zone and no remote rows in the others. Pure.
 */
import type { Cluster } from './clusterShape';
import type { Inventory } from './inventory';
import type { InventoryNode } from './inventoryNode';
import type { Network } from './network';
import { type Problem, problem } from './problem';

/** How `spec.nodes[].networks` names a network: a CUDN by name, a UDN as `<namespace>/<name>`. */
export function activeNetworkRef(network: Network): string {
  return network.kind === 'ClusterUserDefinedNetwork'
    ? network.objectName
    : `${network.namespace}/${network.objectName}`;
}

/** Is the network `ref` names active on a node whose `spec.nodes[].networks` is `networks`? */
export function listedActive(networks: readonly string[] | undefined, ref: string): boolean {
  return networks === undefined || networks.includes(ref);
}

/** Is `network` active on `node`? */
export function isActiveOn(node: InventoryNode, network: Network): boolean {
  return listedActive(node.networks, activeNetworkRef(network));
}

/** The names of the nodes `network` is active on, or undefined when it is active on every node. */
export function activeNodeNames(inventory: Inventory, network: Network): string[] | undefined {
  if (inventory.nodes.every((n) => n.networks === undefined)) return undefined;
  return inventory.nodes.filter((n) => isActiveOn(n, network)).map((n) => n.name);
}

/**
 * Names in `spec.nodes[].networks` that are no network of the file, and pods on nodes their network
 * is not active on.
 */
export function activeNetworkRules(cluster: Cluster): Problem[] {
  const { inventory } = cluster;
  const ref = `Inventory/${inventory.name}`;
  const known = new Set(cluster.networks.map(activeNetworkRef));
  const unknown = inventory.nodes.flatMap((node, i) =>
    (node.networks ?? []).flatMap((name, j) => {
      if (known.has(name)) return [];
      const field = `spec.nodes[${i}].networks[${j}]`;
      const message = `${field} "${name}" is not a network of this file (node ${node.name} lists the ClusterUserDefinedNetworks, by name, and UserDefinedNetworks, as <namespace>/<name>, active on it)`;
      return [problem('InvalidSpec', ref, field, message)];
    }),
  );
  return [...unknown, ...podsOnInactiveNodes(cluster, ref)];
}

function podsOnInactiveNodes(cluster: Cluster, ref: string): Problem[] {
  const nodes = new Map(cluster.inventory.nodes.map((n, i) => [n.name, { node: n, i }]));
  const primary = cluster.networks.filter((n) => n.role === 'Primary' && n.topology !== 'Localnet');
  return cluster.inventory.pods.flatMap((pod, i) => {
    const at = nodes.get(pod.node);
    const network = primary.find((n) => n.namespaces.includes(pod.namespace));
    if (!at || !network || isActiveOn(at.node, network)) return [];
    const field = `spec.pods[${i}].node`;
    const message = `${field} "${pod.node}": network ${network.name} of namespace ${pod.namespace} is not active on node ${pod.node} (spec.nodes[${at.i}].networks does not list ${activeNetworkRef(network)}); Dynamic UDN makes a network active where its pods run`;
    return [problem('InvalidField', ref, field, message)];
  });
}
