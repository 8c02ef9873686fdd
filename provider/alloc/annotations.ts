/**
 * The allocations of a plan in upstream's annotation formats, as cluster-manager will write them:
 * on each network's NADs `k8s.ovn.org/network-name`, `k8s.ovn.org/network-id` and, for a primary
 * Layer2 network, `k8s.ovn.org/tunnel-keys` (`[switch key, transit router key]`, Go's JSON of a
 * list of ints: clustermanager_test.go "check for tunnel keys allocations"); on each Node
 * `k8s.ovn.org/node-id` and the entries of our networks in `k8s.ovn.org/node-subnets` (Go's JSON
 * of a map of lists, keys sorted: util/subnet_annotations.go); on each CNC its two annotations
 * (computed with the connect's allocation). Pure.
 */
import { compare } from '../model/cluster';
import { networkNameAnnotation } from '../model/clusterInventory';
import { dict } from '../model/dict';
import { networkIdAnnotation, tunnelKeysAnnotation } from '../model/network';
import { nodeAnnotationKeys } from '../model/nodeAnnotations';
import type { ClusterAllocation } from './cluster';

const nodeIdAnnotation = nodeAnnotationKeys.id;
const nodeSubnetsAnnotation = nodeAnnotationKeys.subnets;

export type Annotations = Record<string, string>;

export interface PredictedAnnotations {
  /** By OVN network name: the annotations of each NAD of the network. */
  networks: Record<string, Annotations>;
  /** By node name: node-id and node-subnets (our networks' entries only). */
  nodes: Record<string, Annotations>;
  /** By CNC name: its two annotations (none while it is refused). */
  connects: Record<string, Annotations>;
}

/** What upstream will annotate, from the plan's allocation. */
export function predictedAnnotations(allocation: ClusterAllocation): PredictedAnnotations {
  const networks = dict<Annotations>();
  for (const [name, id] of Object.entries(allocation.networkIds)) {
    const keys = allocation.datapathKeys.networks[name];
    networks[name] = { [networkNameAnnotation]: name, [networkIdAnnotation]: String(id) };
    if (keys?.transitRouter !== undefined)
      networks[name][tunnelKeysAnnotation] = JSON.stringify([keys.transitSwitch, keys.transitRouter]);
  }
  const nodes = dict<Annotations>();
  for (const [node, id] of Object.entries(allocation.nodeIds)) {
    nodes[node] = { [nodeIdAnnotation]: String(id) };
    const subnets = nodeSubnetsOf(allocation.hostSubnets, node);
    if (Object.keys(subnets).length > 0) nodes[node][nodeSubnetsAnnotation] = goJson(subnets);
  }
  const connects = dict<Annotations>();
  for (const [name, c] of Object.entries(allocation.connects)) connects[name] = { ...c.annotations };
  return { networks, nodes, connects };
}

function nodeSubnetsOf(hostSubnets: ClusterAllocation['hostSubnets'], node: string): Record<string, string[]> {
  const out = dict<string[]>();
  for (const [network, byNode] of Object.entries(hostSubnets))
    if (byNode[node] !== undefined && byNode[node]!.length > 0) out[network] = byNode[node]!;
  return out;
}

/** JSON as Go's encoding/json writes a map: keys in byte order, no spaces. */
export function goJson(map: Record<string, unknown>): string {
  const sorted = Object.keys(map)
    .sort(compare)
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(map[k])}`);
  return `{${sorted.join(',')}}`;
}
