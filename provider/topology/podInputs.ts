/**
 * The pods of one network with their addresses (model + allocation -> PodInputs): which of the
 * Inventory's pods attach to it, and the address pool they are assigned from, stable against the
 * previous assignment (pod-ips.ts). fromCluster.ts builds every zone's inputs around them.
 */
import type { ClusterAllocation } from '../alloc/cluster';
import { mustParseCidr, parseAddress } from '../model/cidr';
import type { Cluster } from '../model/cluster';
import { dict, own } from '../model/dict';
import type { InventoryPod } from '../model/inventory';
import type { Network } from '../model/network';
import { podsAttachedTo } from '../model/podNetworks';
import { infrastructureExclusions, infrastructureIPs } from './infrastructure';
import type { PodInput } from './input';
import { assignPodIPs, podKey } from './pod-ips';

/** Preconfigured addresses apply to primary Layer2 networks when the Inventory enables them. */
export const usesPreconfigured = (cluster: Cluster, network: Network): boolean =>
  cluster.inventory.enablePreconfiguredUDNAddresses && network.topology === 'Layer2' && network.role === 'Primary';

/**
 * The inventory's pods of a network, on nodes that have an id, each with the NAD it attaches
 * through: a primary network's are those of the namespaces it serves, a secondary network's those
 * whose `networks` name one of its NADs (model/podNetworks.ts).
 */
export function podsOf(
  cluster: Cluster,
  allocation: ClusterAllocation,
  network: Network,
): { pod: InventoryPod; nadKey: string }[] {
  const placed = (p: InventoryPod) => allocation.nodeIds[p.node] !== undefined;
  if (network.role === 'Secondary') return podsAttachedTo(cluster, network).filter(({ pod }) => placed(pod));
  const served = new Set(network.namespaces);
  return cluster.inventory.pods
    .filter((p) => served.has(p.namespace) && placed(p))
    .map((pod) => ({ pod, nadKey: `${pod.namespace}/${network.objectName}` }));
}

/**
 * Where pod addresses start: after the gateway and management addresses (.1, .2), except on a
 * secondary Layer2 or Localnet network, which has neither and whose allocator reserves nothing
 * but the network's own addresses and its excludeSubnets (upstream's newIPAllocatorForNetwork,
 * clustermanager/network_cluster_controller.go, adds the infrastructure addresses for primary
 * Layer2 networks only). With preconfigured addresses, the infrastructure subnets (else the
 * chosen gateway and management addresses) and the reserved subnets are kept out instead.
 */
function poolOf(cluster: Cluster, network: Network): { firstOffset: number; exclude: string[] } {
  const flat = network.role === 'Secondary' && network.topology !== 'Layer3';
  const exclude = network.excludeSubnets ?? [];
  if (!usesPreconfigured(cluster, network)) return { firstOffset: flat ? 1 : 3, exclude };
  // with preconfigured addresses the infrastructure addresses are wherever they were chosen
  const given = network.preconfigured ?? {};
  const infra = given.infrastructureSubnets ?? [];
  const chosen = infrastructureIPs(
    network.subnets.map((s) => mustParseCidr(s.cidr)),
    infra.map(mustParseCidr),
    (given.defaultGatewayIPs ?? []).flatMap((ip) => parseAddress(ip) ?? []),
  );
  return {
    firstOffset: 1,
    exclude: [...exclude, ...infrastructureExclusions(chosen, infra), ...(given.reservedSubnets ?? [])],
  };
}

export function assignNetworkPods(
  cluster: Cluster,
  allocation: ClusterAllocation,
  network: Network,
  previous: Record<string, string[]>,
) {
  const attached = podsOf(cluster, allocation, network);
  const pods = attached.map((a) => a.pod);
  const ips = dict<string[]>();
  if (network.topology !== 'Layer3') {
    const subnets = network.subnets.map((s) => s.cidr);
    Object.assign(ips, assignPodIPs({ pods, subnets, ...poolOf(cluster, network) }, previous));
  } else {
    const hostSubnets = own(allocation.hostSubnets, network.name) ?? {};
    for (const node of new Set(pods.map((p) => p.node))) {
      const subnets = own(hostSubnets, node);
      if (subnets) Object.assign(ips, assignPodIPs({ pods: pods.filter((p) => p.node === node), subnets }, previous));
    }
  }
  const inputs: PodInput[] = attached
    .filter(({ pod }) => ips[podKey(pod)])
    .map(({ pod, nadKey }) => ({
      name: pod.name,
      namespace: pod.namespace,
      node: pod.node,
      nadKey,
      ips: ips[podKey(pod)]!,
      ...(pod.uid === undefined ? {} : { uid: pod.uid }),
    }));
  return { ips, inputs };
}
