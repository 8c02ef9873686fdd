/**
 * Builders of the objects the tests plan: our Inventory and upstream's Kubernetes objects
 * (ClusterUserDefinedNetwork, UserDefinedNetwork, ClusterNetworkConnect, Uplink, UplinkState,
 * RouteAdvertisements) in the shapes a user writes, so each test states only what differs and
 * the worlds stay valid against upstream's CRDs (test/unit/support/objects.test.ts loads each
 * through the loader the CLI uses). `yamlOf` turns them into the multi-document text the CLI and
 * the planners read.
 */
import { stringify } from 'yaml';
import { buildCluster } from '../../provider/model/cluster';
import { loadDocuments } from '../../provider/model/load';
import type { Condition, UplinkState } from '../../provider/uplink/conditions';

/** A Kubernetes object as a user writes it (plain data; `yamlOf` writes it out). */
export interface KubeObject<Kind extends string = string> {
  apiVersion: string;
  kind: Kind;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** Labels, annotations and the like on an object's metadata. */
export interface Meta {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const metadata = (name: string, meta: Meta = {}, namespace?: string): KubeObject['metadata'] => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  ...(meta.labels ? { labels: meta.labels } : {}),
  ...(meta.annotations ? { annotations: meta.annotations } : {}),
});

/** The objects as one multi-document YAML text, in order. */
export const yamlOf = (...objects: object[]): string => objects.map((o) => stringify(o)).join('---\n');

/** The objects loaded and built into a Cluster as the CLI does, with the problems building found. */
export const clusterOf = (...objects: object[]) => buildCluster(loadDocuments(yamlOf(...objects)).documents);

// Inventory (ours, ovnk/v1alpha1).

/** Our Inventory `name` (the owner of what it plans) with `spec` as written. */
export const inventory = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'ovnk/v1alpha1',
  kind: 'Inventory',
  metadata: { name },
  spec,
});

/**
 * Owner `owner`'s world as text: its Inventory (`spec`, plus a namespace labelled for each network,
 * see `networkFor`) and the networks.
 */
export const ownedNetworks = (owner: string, spec: Record<string, unknown>, ...networks: KubeObject[]): string =>
  yamlOf(
    inventory(owner, { ...spec, namespaces: networks.map((n) => labelledNamespace(n.metadata.name)) }),
    ...networks,
  );

/** Namespace `name` labelled `network: <name>`, the label `networkFor` selects. */
export const labelledNamespace = (name: string) => ({ name, labels: { network: name } });

/** Node `n<i>` with its chassis `ch-<i>` only. */
export const chassisNode = (i: number, chassis = `ch-${i}`) => ({ name: `n${i}`, chassisId: chassis });

/** Node `n<i>` with the gateway fields its gateway router's external side needs (breth0, 172.18.0.0/16). */
export const gatewayNode = (i: number) => ({
  ...chassisNode(i),
  gatewayBridge: 'breth0',
  gatewayMac: `0a:00:00:00:00:0${i}`,
  nodeIPs: [`172.18.0.${i + 1}/16`],
  gatewayNextHops: ['172.18.0.1'],
});

// Networks (k8s.ovn.org/v1).

/** `spec.network` of a Layer3 network with one subnet. */
export const layer3 = (cidr: string, hostSubnet?: number, role = 'Primary') => ({
  topology: 'Layer3',
  layer3: { role, subnets: [{ cidr, ...(hostSubnet === undefined ? {} : { hostSubnet }) }] },
});

/** `spec.network` of a Layer2 network. */
export const layer2 = (subnets: string[], role = 'Primary') => ({ topology: 'Layer2', layer2: { role, subnets } });

/** Where a CUDN is: its namespaces (default: every one) and its Uplinks. */
export interface CudnOptions extends Meta {
  namespaceSelector?: Record<string, unknown>;
  uplinks?: string[];
}

/** ClusterUserDefinedNetwork `name` with `network` (layer3 / layer2). */
export const cudn = (name: string, network: object, options: CudnOptions = {}): KubeObject => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'ClusterUserDefinedNetwork',
  metadata: metadata(name, options),
  spec: {
    namespaceSelector: options.namespaceSelector ?? {},
    ...(options.uplinks ? { uplinks: options.uplinks } : {}),
    network,
  },
});

/** CUDN `name` over the namespaces labelled `network: <name>` (see `labelledNamespace`). */
export const networkFor = (name: string, network: object, meta: Meta = {}): KubeObject =>
  cudn(name, network, { ...meta, namespaceSelector: { matchLabels: { network: name } } });

/** UserDefinedNetwork `name` in `namespace` with `network` (layer3 / layer2). */
export const udn = (namespace: string, name: string, network: object, meta: Meta = {}): KubeObject => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'UserDefinedNetwork',
  metadata: metadata(name, meta, namespace),
  spec: { ...network },
});

// ClusterNetworkConnect (k8s.ovn.org/v1).

/** A `spec.networkSelectors` entry choosing CUDNs by their labels. */
export const cudnsLabelled = (matchLabels: Record<string, string>) => ({
  networkSelectionType: 'ClusterUserDefinedNetworks',
  clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels } },
});

export interface ConnectOptions extends Meta {
  networkSelectors: object[];
  connectSubnets: { cidr: string; networkPrefix: number }[];
  connectivity?: string[];
}

/** ClusterNetworkConnect `name` (connectivity PodNetwork unless given). */
export const networkConnect = (name: string, options: ConnectOptions): KubeObject => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'ClusterNetworkConnect',
  metadata: metadata(name, options),
  spec: {
    networkSelectors: options.networkSelectors,
    connectSubnets: options.connectSubnets,
    connectivity: options.connectivity ?? ['PodNetwork'],
  },
});

/** ClusterNetworkConnect `name` of the CUDNs with these labels over 192.168.0.0/16, a /24 per network. */
export const connectLabelled = (name: string, matchLabels: Record<string, string>): KubeObject =>
  networkConnect(name, {
    networkSelectors: [cudnsLabelled(matchLabels)],
    connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 24 }],
  });

// Uplink and UplinkState (k8s.ovn.org/v1alpha1).

/** A `spec.nodeConfigs` entry: an OVS bridge `hostInterfaceName` on the nodes with these labels (all: none). */
export const ovsBridgeConfig = (hostInterfaceName: string, matchLabels?: Record<string, string>) => ({
  type: 'OVSBridge',
  nodeSelector: matchLabels ? { matchLabels } : {},
  hostInterfaceName,
});

/** Uplink `name` with these `nodeConfigs` (see `ovsBridgeConfig`). */
export const uplink = (name: string, nodeConfigs: object[], meta: Meta = {}): KubeObject => ({
  apiVersion: 'k8s.ovn.org/v1alpha1',
  kind: 'Uplink',
  metadata: metadata(name, meta),
  spec: { nodeConfigs },
});

/** What an UplinkState's status says of its bridge (upstream's uplink_gateway_test.go testUplinkState). */
export interface UplinkStateFacts {
  hostInterfaceName: string;
  macAddress: string;
  ipAddresses: string[];
  defaultGateways: string[];
  conditions: Condition[];
}

/** UplinkState `<uplink>.<node>` of an OVS bridge named after its host interface. */
export const uplinkState = (uplinkName: string, nodeName: string, facts: UplinkStateFacts): UplinkState => ({
  apiVersion: 'k8s.ovn.org/v1alpha1',
  kind: 'UplinkState',
  metadata: { name: `${uplinkName}.${nodeName}` },
  spec: { uplinkName, nodeName },
  status: { type: 'OVSBridge', ovsBridge: { name: facts.hostInterfaceName }, ...facts },
});

// RouteAdvertisements (k8s.ovn.org/v1).

/** RouteAdvertisements `name` of the pod networks of the CUDNs with these labels, on every node; `spec` overrides. */
export const routeAdvertisements = (
  name: string,
  networkLabels: Record<string, string>,
  spec: Record<string, unknown> = {},
): KubeObject<'RouteAdvertisements'> => ({
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'RouteAdvertisements',
  metadata: { name },
  spec: {
    advertisements: ['PodNetwork'],
    nodeSelector: {},
    frrConfigurationSelector: {},
    networkSelectors: [cudnsLabelled(networkLabels)],
    ...spec,
  },
});
