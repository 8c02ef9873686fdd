/**
 * The argument shapes of the components: the same Kubernetes-style objects a YAML user gives
 * `ovnk plan` (Inventory ovnk/v1alpha1; ClusterUserDefinedNetwork, UserDefinedNetwork and
 * ClusterNetworkConnect k8s.ovn.org/v1; Uplink k8s.ovn.org/v1alpha1). Fields are checked by the
 * providers' check step, which
 * names the offending property and the reason; these types only help the editor.
 */
import type {
  ClusterNetworkConnectSpec,
  ClusterUserDefinedNetworkSpec,
  UserDefinedNetworkSpec,
} from '../provider/model/crd/generated/specTypes';
import type { Layout } from '../provider/runtime/pulumi';

export type { Layout };

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** `kind: Inventory`: namespaces, nodes, service and masquerade CIDRs, zones (`central` or `per-node`). */
export interface InventoryObject {
  apiVersion: 'ovnk/v1alpha1';
  kind: 'Inventory';
  metadata: ObjectMeta;
  spec: {
    zones?: Layout;
    namespaces?: { name: string; labels?: Record<string, string> }[];
    nodes?: Record<string, unknown>[];
    [field: string]: unknown;
  };
}

/** The components render every topology upstream's CRDs allow (a UDN's: Layer3 and Layer2). */
type Rendered = { topology: 'Layer3' | 'Layer2' | 'Localnet' };

/**
 * A ClusterUserDefinedNetwork (`spec.network.topology` Layer3, Layer2 or Localnet; role Primary or
 * Secondary); its spec typed from
 * upstream's CRD, with its descriptions (provider/model/crd/generated/specTypes.ts).
 */
export interface ClusterUserDefinedNetworkObject {
  apiVersion: 'k8s.ovn.org/v1';
  kind: 'ClusterUserDefinedNetwork';
  metadata: ObjectMeta;
  spec: Omit<ClusterUserDefinedNetworkSpec, 'network'> & {
    network: ClusterUserDefinedNetworkSpec['network'] & Rendered;
  };
}

/** A namespaced UserDefinedNetwork (`spec.topology` Layer3 or Layer2); its spec typed from upstream's CRD. */
export interface UserDefinedNetworkObject {
  apiVersion: 'k8s.ovn.org/v1';
  kind: 'UserDefinedNetwork';
  metadata: ObjectMeta & { namespace: string };
  spec: UserDefinedNetworkSpec & Rendered;
}

export type NetworkObject = ClusterUserDefinedNetworkObject | UserDefinedNetworkObject;

/**
 * A ClusterNetworkConnect: network selectors, connectSubnets (immutable upstream: a change replaces
 * the connect), connectivity.
 */
export interface ClusterNetworkConnectObject {
  apiVersion: 'k8s.ovn.org/v1';
  kind: 'ClusterNetworkConnect';
  metadata: ObjectMeta;
  /** Typed from upstream's CRD, with its descriptions. */
  spec: ClusterNetworkConnectSpec;
}

/** An Uplink (OKEP-6019): per node group, the pre-provisioned OVS bridge's host interface. */
export interface UplinkObject {
  apiVersion: 'k8s.ovn.org/v1alpha1';
  kind: 'Uplink';
  metadata: ObjectMeta;
  spec: {
    nodeConfigs: {
      type: 'OVSBridge';
      nodeSelector: Record<string, unknown>;
      hostInterfaceName: string;
      [field: string]: unknown;
    }[];
  };
}

/** `Kind/name` or `Kind/namespace/name`: how problems and allocations name an object. */
export function objectRef(object: { kind: string; metadata: ObjectMeta }): string {
  const { namespace, name } = object.metadata;
  return namespace === undefined ? `${object.kind}/${name}` : `${object.kind}/${namespace}/${name}`;
}

/**
 * A network's key among its Cluster's networks and in its component's name: a CUDN's name, a
 * UDN's `namespace/name` (no Kubernetes name holds `/`, so the two never collide).
 */
export function networkKey(network: NetworkObject): string {
  const { namespace, name } = network.metadata;
  return network.kind === 'UserDefinedNetwork' ? `${namespace}/${name}` : name;
}

export function topologyOf(network: NetworkObject): 'Layer3' | 'Layer2' | 'Localnet' {
  return network.kind === 'ClusterUserDefinedNetwork' ? network.spec.network.topology : network.spec.topology;
}

/** A RouteAdvertisements object (k8s.ovn.org/v1) as in YAML. */
export type RouteAdvertisementsObject = {
  apiVersion: string;
  kind: 'RouteAdvertisements';
  metadata: { name: string };
  spec: Record<string, unknown>;
};
