/**
 * An Inventory (ovnk/v1alpha1) from what a cluster's API server lists: Nodes (nodeAnnotations.ts),
 * Namespaces with their labels, the NADs upstream annotated (`k8s.ovn.org/network-name`,
 * `network-id`, `tunnel-keys`: spec.allocations.networks), the ClusterNetworkConnects' two
 * annotations (spec.allocations.connects) and the configmaps' settings (clusterConfig.ts). Zones
 * are per-node: upstream runs no other layout (its `k8s.ovn.org/zone-name` annotation is
 * deprecated and not read). Every object is sorted by name, so the same cluster gives the same
 * document. Pure: the runtime lists, this reads.
 */
import { compare } from './cluster';
import { type ConfigMapData, clusterSettings } from './clusterConfig';
import { connectSubnetAnnotation, connectTunnelKeyAnnotation } from './cnc';
import { networkIdAnnotation, tunnelKeysAnnotation } from './network';
import { inventoryNode, type KubeObject, parseJson } from './nodeAnnotations';

export const networkNameAnnotation = 'k8s.ovn.org/network-name';
const namespaceNameLabel = 'kubernetes.io/metadata.name';

export interface ClusterObjects {
  nodes: KubeObject[];
  namespaces: KubeObject[];
  /** NetworkAttachmentDefinitions (k8s.cni.cncf.io/v1); only those upstream annotated count. */
  nads: KubeObject[];
  connects: KubeObject[];
  configMaps: ConfigMapData[];
}

export interface ClusterInventory {
  inventory: Record<string, unknown>;
  /** What could not be read, or was not written yet (the plan allocates those values itself). */
  notes: string[];
}

export function inventoryFromCluster(name: string, objects: ClusterObjects): ClusterInventory {
  const notes: string[] = [];
  const nodes = byName(objects.nodes).map((n) => {
    const read = inventoryNode(n);
    notes.push(...read.notes);
    return read.node;
  });
  const namespaces = byName(objects.namespaces).map((n) => namespaceEntry(n));
  const settings = clusterSettings(objects.configMaps);
  notes.push(...settings.notes);
  const spec: Record<string, unknown> = { zones: 'per-node', ...settings.spec, namespaces, nodes };
  const allocations = {
    networks: adoptedNetworks(objects.nads, notes),
    connects: adoptedConnects(objects.connects),
  };
  if (allocations.networks.length > 0 || allocations.connects.length > 0) spec.allocations = allocations;
  return { inventory: { apiVersion: 'ovnk/v1alpha1', kind: 'Inventory', metadata: { name }, spec }, notes };
}

function byName(objects: KubeObject[]): KubeObject[] {
  const key = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  return [...objects].sort((a, b) => compare(key(a), key(b)));
}

function namespaceEntry(object: KubeObject): Record<string, unknown> {
  const name = object.metadata?.name ?? '';
  const labels = Object.fromEntries(
    Object.entries(object.metadata?.labels ?? {}).filter(([k, v]) => !(k === namespaceNameLabel && v === name)),
  );
  return Object.keys(labels).length > 0 ? { name, labels } : { name };
}

/** One entry per network name (a CUDN has a NAD in every namespace it serves, all alike). */
function adoptedNetworks(nads: KubeObject[], notes: string[]): Record<string, unknown>[] {
  const out = new Map<string, Record<string, unknown>>();
  for (const nad of byName(nads)) {
    const annotations = nad.metadata?.annotations ?? {};
    const network = annotations[networkNameAnnotation];
    if (!network) continue;
    const entry: Record<string, unknown> = { name: network };
    const id = annotations[networkIdAnnotation];
    if (id !== undefined && /^\d+$/.test(id)) entry.id = Number(id);
    const keys = parseJson(annotations[tunnelKeysAnnotation] ?? '');
    if (Array.isArray(keys) && keys.every((k) => Number.isInteger(k))) entry.tunnelKeys = keys;
    const seen = out.get(network);
    if (seen && JSON.stringify(seen) !== JSON.stringify(entry))
      notes.push(
        `NAD ${nad.metadata?.namespace}/${nad.metadata?.name}: ${JSON.stringify(entry)} differs from another NAD of ${network} (${JSON.stringify(seen)}); the first is kept`,
      );
    if (!seen) out.set(network, entry);
  }
  return [...out.values()];
}

function adoptedConnects(connects: KubeObject[]): Record<string, unknown>[] {
  return byName(connects).flatMap((cnc) => {
    const annotations = cnc.metadata?.annotations ?? {};
    const kept = Object.fromEntries(
      [connectTunnelKeyAnnotation, connectSubnetAnnotation].flatMap((k) =>
        annotations[k] === undefined ? [] : [[k, annotations[k]!]],
      ),
    );
    return Object.keys(kept).length > 0 ? [{ name: cnc.metadata?.name ?? '', annotations: kept }] : [];
  });
}
