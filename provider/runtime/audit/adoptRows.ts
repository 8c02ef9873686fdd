/**
 * Upstream's allocations read back from the rows it wrote, so a cluster whose numbers are
 * upstream's is audited against its own values. What the Inventory already pins (from the
 * objects' annotations, as `ovnk inventory` writes them: spec.allocations, node ids, host
 * subnets) wins; the rows fill only what it leaves open:
 *
 * - a network's id: its Layer3 transit switch or Layer2 switch `requested-tnl-key`, 16711683 + id
 *   (upstream's BaseTransitSwitchTunnelKey, util.GetNetworkIDTunnelKey);
 * - a primary Layer2 network's transit router key: that router's `requested-tnl-key`;
 * - node ids: the Layer3 transit switch's `<network>_tstor-<node>` port keys (the node id);
 * - host subnets: a node switch's `subnet` / `ipv6_prefix`, and the cluster router's `ic-node`
 *   routes to the other zones' nodes;
 * - pod addresses: the pod ports' `addresses` (upstream gives pods added together their addresses
 *   in no defined order).
 */
import { baseTransitSwitchTunnelKey } from '../../alloc/datapathKeys';
import type { AdoptedNetwork } from '../../model/adopted';
import type { Cluster } from '../../model/cluster';
import { dict } from '../../model/dict';
import { NAD_KEY, NETWORK_KEY } from '../../model/externalIds';
import type { Network } from '../../model/network';
import type { ObservedRow } from '../../nb/desired';
import type { PodAssignments } from '../../topology/fromCluster';
import { networkPrefix, nodeSwitchName, transitRouterName, transitSwitchToRouterPort } from '../../topology/names';

export interface RowAllocations {
  networks: AdoptedNetwork[];
  nodeIds: Record<string, number>;
  /** By node, then OVN network name. */
  hostSubnets: Record<string, Record<string, string[]>>;
  pods: PodAssignments;
}

type Columns = Record<string, unknown>;
const mapOf = (c: Columns, column: string) => (c[column] ?? {}) as Record<string, string>;
const networkOf = (row: ObservedRow) => mapOf(row.columns, 'external_ids')[NETWORK_KEY];
const integer = (text: string | undefined) => (text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined);

/** What the rows of the cluster's networks say was allocated. */
export function allocationsInRows(cluster: Cluster, rows: readonly ObservedRow[]): RowAllocations {
  const found: RowAllocations = { networks: [], nodeIds: dict(), hostSubnets: dict(), pods: dict() };
  const byName = new Map<string, ObservedRow>();
  for (const row of rows) if (typeof row.columns.name === 'string') byName.set(`${row.table}/${row.columns.name}`, row);
  for (const network of cluster.networks) {
    const tagged = rows.filter((r) => networkOf(r) === network.name);
    found.networks.push(...networkIds(network, tagged));
    for (const node of cluster.inventory.nodes) {
      const port = byName.get(
        `Logical_Switch_Port/${transitSwitchToRouterPort(networkPrefix(network.name), node.name)}`,
      );
      const id = integer(mapOf(port?.columns ?? {}, 'options')['requested-tnl-key']);
      if (id !== undefined) found.nodeIds[node.name] ??= id;
      const subnets = hostSubnets(network, node.name, tagged, byName);
      if (subnets.length > 0) (found.hostSubnets[node.name] ??= dict())[network.name] = subnets;
    }
    const pods = podAddresses(tagged);
    if (Object.keys(pods).length > 0) found.pods[network.name] = pods;
  }
  return found;
}

function networkIds(network: Network, tagged: ObservedRow[]): AdoptedNetwork[] {
  const transit = tagged.find((r) => r.table === 'Logical_Switch' && mapOf(r.columns, 'other_config')['interconn-ts']);
  const key = integer(mapOf(transit?.columns ?? {}, 'other_config')['requested-tnl-key']);
  if (key === undefined) return [];
  const id = key - baseTransitSwitchTunnelKey;
  const router = tagged.find(
    (r) => r.table === 'Logical_Router' && r.columns.name === transitRouterName(networkPrefix(network.name)),
  );
  const routerKey = integer(mapOf(router?.columns ?? {}, 'options')['requested-tnl-key']);
  return [{ name: network.name, id, ...(routerKey !== undefined ? { tunnelKeys: [key, routerKey] } : {}) }];
}

/** A Layer3 node's host subnets: its own switch's, or the `ic-node` routes towards it. */
function hostSubnets(
  network: Network,
  node: string,
  tagged: ObservedRow[],
  byName: Map<string, ObservedRow>,
): string[] {
  if (network.topology !== 'Layer3') return [];
  const own = byName.get(`Logical_Switch/${nodeSwitchName(networkPrefix(network.name), node)}`);
  if (own !== undefined) {
    const config = mapOf(own.columns, 'other_config');
    const v6 = network.subnets.find((s) => s.cidr.includes(':'))?.hostSubnet;
    return [
      ...(config.subnet ? [config.subnet] : []),
      ...(config.ipv6_prefix && v6 !== undefined ? [`${config.ipv6_prefix}/${v6}`] : []),
    ];
  }
  return tagged
    .filter((r) => r.table === 'Logical_Router_Static_Route' && mapOf(r.columns, 'external_ids')['ic-node'] === node)
    .map((r) => String(r.columns.ip_prefix));
}

/** `namespace/pod` -> addresses, from the pod ports (`<nad prefix><namespace>_<pod>`, addresses `mac ip...`). */
function podAddresses(tagged: ObservedRow[]): Record<string, string[]> {
  const pods = dict<string[]>();
  for (const row of tagged) {
    const ids = mapOf(row.columns, 'external_ids');
    if (row.table !== 'Logical_Switch_Port' || ids.pod !== 'true' || !ids.namespace || !ids[NAD_KEY]) continue;
    const prefix = `${networkPrefix(ids[NAD_KEY])}${ids.namespace}_`;
    const name = String(row.columns.name);
    const addresses = ([] as unknown[]).concat(row.columns.addresses ?? [])[0];
    if (!name.startsWith(prefix) || typeof addresses !== 'string') continue;
    pods[`${ids.namespace}/${name.slice(prefix.length)}`] = addresses.split(' ').slice(1);
  }
  return pods;
}

/** The cluster with the rows' allocations pinned wherever the Inventory pins nothing. */
export function withRowAllocations(cluster: Cluster, found: RowAllocations): Cluster {
  const known = new Set(cluster.inventory.allocations.networks.map((n) => n.name));
  const pinned = new Set(cluster.networks.filter((n) => n.pinnedId !== undefined).map((n) => n.name));
  const networks = [
    ...cluster.inventory.allocations.networks,
    ...found.networks.filter((n) => !known.has(n.name) && !pinned.has(n.name)),
  ];
  const nodes = cluster.inventory.nodes.map((node) => ({
    ...node,
    id: node.id ?? found.nodeIds[node.name],
    hostSubnets: { ...(found.hostSubnets[node.name] ?? {}), ...node.hostSubnets },
  }));
  const allocations = { ...cluster.inventory.allocations, networks };
  return { ...cluster, inventory: { ...cluster.inventory, nodes, allocations } };
}
