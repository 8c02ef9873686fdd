/**
 * What an UplinkState resource is planned from, cut from the YAML-shaped objects a user writes:
 * the Inventory narrowed to the one node (its labels and its SSH target), the Uplink object and
 * the CUDNs that name it. Also which nodes an Uplink publishes an UplinkState for (selected or
 * overlapping), which decides how many resources the Uplink component creates. Pure.
 */
import type { Cluster } from '../../model/cluster';
import { stateNodes, selectNodes } from '../../uplink/select';
import { buildTopology } from '../plan';
import { failureOf } from './protocol';

export type YamlObject = Record<string, unknown> & {
  kind?: string;
  metadata?: { name?: string };
  spec?: Record<string, unknown>;
};

export interface UplinkStateInputs {
  node: string;
  inventory: YamlObject;
  uplink: YamlObject;
  networks: YamlObject[];
}

/** A usable model of the objects, or the first problem as an Error naming its path. */
export function uplinkCluster(objects: YamlObject[]): {
  cluster?: Cluster;
  problems: { property: string; reason: string }[];
} {
  const built = buildTopology({ objects });
  if (built.ok) return { cluster: built.cluster, problems: [] };
  return { problems: built.problems.map((p) => failureOf(p)) };
}

/** The nodes an Uplink has an UplinkState on, sorted; throws naming the problem when the objects are unusable. */
export function uplinkStateNodes(inventory: YamlObject, uplink: YamlObject): string[] {
  // pods need their networks to build; selection needs only the nodes and their labels
  const { cluster, problems } = uplinkCluster([{ ...inventory, spec: { ...inventory.spec, pods: [] } }, uplink]);
  if (!cluster)
    throw new Error(`Uplink ${uplink.metadata?.name}: ${problems.map((p) => `${p.property}: ${p.reason}`).join('; ')}`);
  const parsed = cluster.uplinks?.[0];
  if (!parsed) return [];
  return stateNodes(
    selectNodes(
      parsed,
      cluster.inventory.nodes.map((n) => ({ name: n.name, labels: n.labels })),
    ),
  );
}

/** The inventory with only `node` (and its target), so the resource's state holds nothing of other nodes. */
export function narrowInventory(inventory: YamlObject, node: string): YamlObject {
  const spec = inventory.spec ?? {};
  const nodes = ((spec.nodes ?? []) as { name?: string }[]).filter((n) => n.name === node);
  const targets = spec.targets as { nodes?: Record<string, unknown> } | undefined;
  const target = targets?.nodes?.[node];
  const narrowed: Record<string, unknown> = { ...spec, nodes, namespaces: spec.namespaces, pods: undefined };
  narrowed.targets = target === undefined ? undefined : { nodes: { [node]: target } };
  return JSON.parse(JSON.stringify({ ...inventory, spec: narrowed })) as YamlObject;
}

/** The CUDNs whose spec.uplinks names `uplink`. */
export function networksNaming(networks: YamlObject[], uplink: string): YamlObject[] {
  return networks.filter(
    (n) => n.kind === 'ClusterUserDefinedNetwork' && ((n.spec?.uplinks ?? []) as string[]).includes(uplink),
  );
}

export function uplinkStateInputs(
  inventory: YamlObject,
  uplink: YamlObject,
  networks: YamlObject[],
  node: string,
): UplinkStateInputs {
  return {
    node,
    inventory: narrowInventory(inventory, node),
    uplink,
    networks: networksNaming(networks, String(uplink.metadata?.name)),
  };
}
