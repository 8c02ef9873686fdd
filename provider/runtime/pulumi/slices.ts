/**
 * The slices ClusterAllocations hands to the per-zone resources: each holds only what its
 * resource renders from (ARCHITECTURE's granularity rule), already allocated, so the resource
 * never plans the cluster again. A network's slice: the cluster's render settings, the network,
 * the nodes with that network's host subnets only, its pods, its namespaces' ClusterIP services
 * (the network owns their load balancers) with its pods as backends. A connect's: the nodes' ids
 * and chassis and the connect's input (its networks' subnets and host subnets); its ServiceNetwork
 * group references the networks' load balancers. The zone slice (per-node layout) is the whole
 * catalog, which ClusterAllocations publishes in each zone and the ZoneRows reference (catalog.ts).
 */
import { connectRouterName } from '../../connect/ids';
import type { ConnectNode } from '../../connect/input';
import type { ZonePlan as ConnectZones } from '../../connect/zones';
import type { Cluster } from '../../model/cluster';
import { dict, own } from '../../model/dict';
import type { Service } from '../../model/inventory';
import type { Layout } from '../../model/zones';
import type { ClusterInput, NetworkInput, NodeInput, PodInput, RenderInput } from '../../topology/input';
import type { PodPlug } from '../pods';
import { type ConnectJson, connectToJson } from './connectJson';
import { partDigests, sliceParts } from './detailedDiff';
import { pack, type PackedSlice } from './pack';

export interface NetworkPart {
  network: NetworkInput;
  pods: PodInput[];
}

/**
 * A pod as a load-balancer backend: its addresses back its namespace's services on its network
 * (topology/services.ts).
 */
export type Backend = Pick<PodPlug, 'namespace' | 'network' | 'addresses'>;

/** Services of the namespaces a ServiceNetwork connect serves, each network's namespaces, their pods. */
export interface ServiceSources {
  namespaces: Record<string, string[]>;
  services: Service[];
  backends: Backend[];
}

export interface NetworkSlice extends NetworkPart {
  layout: Layout;
  cluster: ClusterInput;
  nodes: NodeInput[];
  sources: ServiceSources;
}

export interface ConnectSlice {
  layout: Layout;
  nodes: ConnectNode[];
  connect: ConnectJson;
}

export interface ZoneSlice {
  layout: Layout;
  cluster: ClusterInput;
  nodes: NodeInput[];
  networks: NetworkPart[];
  connectNodes: ConnectNode[];
  connects: ConnectJson[];
  sources: ServiceSources;
}

/**
 * ClusterAllocations' `slices` output: per network reference and per connect name (central
 * layout), or the zone catalog (per-node layout; absent in the central one).
 */
export interface ClusterSlices {
  networks: Record<string, PackedSlice>;
  connects: Record<string, PackedSlice>;
  zone?: PackedSlice;
}

/** What the slices are cut from: the cluster and its render inputs (one zone's, zone-independent parts used). */
export interface SliceSource {
  cluster: Cluster;
  renderInputs: RenderInput[];
  connects: ConnectZones;
}

function sourcesFor(source: SliceSource, networks: string[]): ServiceSources {
  const namespaces = dict<string[]>();
  for (const n of source.cluster.networks.filter((x) => networks.includes(x.name))) namespaces[n.name] = n.namespaces;
  const served = new Set(Object.values(namespaces).flat());
  const backends = source.renderInputs
    .filter((i) => networks.includes(i.network.name))
    .flatMap((i) => (i.pods ?? []).map((p) => ({ namespace: p.namespace, network: i.network.name, addresses: p.ips })));
  return { namespaces, services: source.cluster.inventory.services.filter((s) => served.has(s.namespace)), backends };
}

const onlyNetwork = (nodes: NodeInput[], name: string): NodeInput[] =>
  nodes.map((n) => {
    const subnets = own(n.hostSubnets, name);
    return { ...n, hostSubnets: dict(subnets ? [[name, subnets]] : []) };
  });

function networkSlice(source: SliceSource, input: RenderInput): NetworkSlice {
  const { name } = input.network;
  return {
    layout: source.cluster.inventory.zones,
    cluster: input.cluster,
    network: input.network,
    nodes: onlyNetwork(input.nodes, name),
    pods: input.pods ?? [],
    sources: sourcesFor(source, [name]),
  };
}

function connectSlice(source: SliceSource, connect: ConnectJson): ConnectSlice {
  return { layout: source.cluster.inventory.zones, nodes: source.connects.nodes, connect };
}

function zoneSlice(source: SliceSource, connects: ConnectJson[]): ZoneSlice {
  const first = source.renderInputs[0];
  return {
    layout: source.cluster.inventory.zones,
    cluster: first?.cluster ?? { ipFamilies: [], masqueradeSubnets: [], gatewayMode: 'shared' },
    nodes: first?.nodes ?? [],
    networks: source.renderInputs.map((i) => ({ network: i.network, pods: i.pods ?? [] })),
    connectNodes: source.connects.nodes,
    connects,
    sources: sourcesFor(
      source,
      source.renderInputs.map((i) => i.network.name),
    ),
  };
}

/** The central layout's slices: per network (by object reference) and per connect. */
function rowSlices(source: SliceSource, connectJson: ConnectJson[]): ClusterSlices {
  const networks = dict<PackedSlice>();
  for (const n of source.cluster.networks) {
    const input = source.renderInputs.find((i) => i.network.name === n.name);
    if (input)
      networks[n.ref] = pack(networkSlice(source, input), {
        networkName: n.name,
        networkId: input.network.id,
        nodes: input.nodes.length,
        pods: input.pods?.length ?? 0,
      });
  }
  const connects = dict<PackedSlice>();
  for (const c of connectJson) {
    connects[c.name] = pack(connectSlice(source, c), {
      routerName: connectRouterName(c.name),
      tunnelKey: c.tunnelKey,
      networks: c.networks.map((n) => n.name),
    });
  }
  return { networks, connects };
}

/** The per-node layout's zone catalog, packed, with the digests of its parts (catalog.ts). */
function zoneCatalog(source: SliceSource, connectJson: ConnectJson[]): PackedSlice {
  const catalog = zoneSlice(source, connectJson);
  return pack(catalog, {
    networks: source.renderInputs.length,
    connects: connectJson.length,
    nodes: source.connects.nodes.length,
    // the ZoneRows' diff in words without the data; the nodes as one digest, so it stays small
    parts: partDigests(sliceParts.zone(catalog as unknown as Record<string, unknown>), ['nodes']),
  });
}

/** The slices of the cluster's layout, packed (only those its resources render: clusterInputs.ts). */
export function clusterSlices(source: SliceSource): ClusterSlices {
  const connectJson = source.connects.connects.map(connectToJson);
  if (source.cluster.inventory.zones === 'per-node')
    return { networks: {}, connects: {}, zone: zoneCatalog(source, connectJson) };
  return rowSlices(source, connectJson);
}
