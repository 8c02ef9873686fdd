/**
 * The dynamic resources (`pulumi-nodejs:dynamic/ovnk:<Type>`), thin classes over DynamicResource
 * (each kind's `__provider` text of provider/shim.ts). Outputs are `declare`d (a class field
 * would wipe what the base class set) and present in the props, so each gets a resolver; the
 * runtime fills them. Per-zone resources take only their slice of the cluster (a ZoneRows a
 * reference to the zone catalog published in its zone), so their state stays small and their
 * diff cheap.
 */
import type * as pulumi from '@pulumi/pulumi';
import type {
  CatalogRef,
  ClusterSlices,
  NorthboundInput,
  PackedSlice,
  PredictionAudit,
} from '../provider/runtime/pulumi';
import { DynamicResource } from './dynamicResource';
import type {
  ClusterNetworkConnectObject,
  InventoryObject,
  NetworkObject,
  RouteAdvertisementsObject,
  UplinkObject,
} from './objects';

/** What ClusterAllocations plans: the whole topology, as in one `ovnk plan` file. */
export interface TopologyProps {
  owner: pulumi.Input<string>;
  inventory: pulumi.Input<InventoryObject>;
  networks: pulumi.Input<NetworkObject[]>;
  connects: pulumi.Input<ClusterNetworkConnectObject[]>;
  /** Given only when the program has some (a stack without keeps its inputs as they were). */
  routeAdvertisements?: pulumi.Input<RouteAdvertisementsObject[]>;
  /** The cluster's own Northbound (ClusterArgs.northbound); absent: the stack config's. */
  northbound?: pulumi.Input<NorthboundInput>;
}

/** A bounded drift summary: what the next update would change, in words, and how many changes. */
export interface DriftSummary {
  lines: string[];
  count: number;
}

/** The allocation summary ClusterAllocations shows at preview. */
export interface AllocationsOutput {
  networkIds: Record<string, number>;
  nodeIds: Record<string, number>;
  hostSubnets: Record<string, Record<string, string[]>>;
  datapathKeys: {
    networks: Record<string, { transitSwitch: number; transitRouter?: number }>;
    connects: Record<string, number>;
  };
  connects: Record<
    string,
    {
      accepted: boolean;
      /** Said, not refused: a connect selecting fewer than two networks (InsufficientNetworks). */
      warnings?: { reason: string; message: string; path: string }[];
      tunnelKey: number | null;
      routerName: string;
      networks: Record<string, unknown>;
      annotations: Record<string, string>;
    }
  >;
  networks: Record<
    string,
    { name: string; topology: string; id: number | null; routerName: string; hostSubnets: Record<string, string[]> }
  >;
  zones: string[];
}

const rowOutputs = {
  digest: undefined,
  rowCounts: undefined,
  drift: undefined,
  liveRows: undefined,
  schemaVersion: undefined,
  zones: undefined,
};

/**
 * Every cluster-wide allocation, stable per name (known at preview), the slice each per-zone
 * resource renders from, and the shared Copp/meter rows in each zone with an endpoint.
 */
export class ClusterAllocations extends DynamicResource {
  /** Each network's entry without its host subnets (they are under `hostSubnets`; Cluster.allocations has both). */
  declare readonly allocations: pulumi.Output<AllocationsOutput>;
  /** The allocation state, packed (`{summary, digest, data}`: the runtime's stateValue reads it). */
  declare readonly state: pulumi.Output<unknown>;
  declare readonly slices: pulumi.Output<ClusterSlices>;
  declare readonly digest: pulumi.Output<string>;
  declare readonly drift: pulumi.Output<DriftSummary>;

  constructor(name: string, props: TopologyProps, opts?: pulumi.CustomResourceOptions) {
    super(
      'ClusterAllocations',
      name,
      { ...rowOutputs, allocations: undefined, state: undefined, slices: undefined, ...props },
      opts,
    );
  }
}

/** A per-zone resource: its owner marker, its zone and its slice from ClusterAllocations (nothing else). */
export interface ZoneProps {
  owner: pulumi.Input<string>;
  zone: pulumi.Input<string>;
  /** A ZoneRows' is a reference to the zone catalog ClusterAllocations publishes in its zone. */
  slice: pulumi.Input<PackedSlice | CatalogRef | undefined>;
  /**
   * The UplinkStates of the Uplinks of the resource's CUDNs: their gateway routers' external side
   * (absent without Uplinks).
   */
  uplinkStates?: pulumi.Input<UplinkStateObject[]>;
}

/** One network's rows in the central layout. */
export class NetworkRows extends DynamicResource {
  declare readonly slice: pulumi.Output<PackedSlice>;
  declare readonly digest: pulumi.Output<string>;
  declare readonly rowCounts: pulumi.Output<Record<string, number>>;
  declare readonly drift: pulumi.Output<DriftSummary>;

  constructor(name: string, props: ZoneProps & { network: string }, opts?: pulumi.CustomResourceOptions) {
    super('NetworkRows', name, { ...rowOutputs, ...props }, opts);
  }
}

/** One connect's router and links in the central layout; a change of connectSubnets replaces it. */
export class ConnectRouter extends DynamicResource {
  declare readonly slice: pulumi.Output<PackedSlice>;
  declare readonly connectSubnets: pulumi.Output<{ cidr: string; networkPrefix: number }[]>;
  declare readonly digest: pulumi.Output<string>;
  declare readonly rowCounts: pulumi.Output<Record<string, number>>;
  declare readonly drift: pulumi.Output<DriftSummary>;

  constructor(
    name: string,
    props: ZoneProps & { connect: string; connectSubnets: { cidr: string; networkPrefix: number }[] },
    opts?: pulumi.CustomResourceOptions,
  ) {
    super('ConnectRouter', name, { ...rowOutputs, ...props }, opts);
  }
}

/** Every row of one zone in the per-node layout (all networks and connects there). */
export class ZoneRows extends DynamicResource {
  declare readonly digest: pulumi.Output<string>;
  declare readonly rowCounts: pulumi.Output<Record<string, number>>;
  declare readonly drift: pulumi.Output<DriftSummary>;

  constructor(name: string, props: ZoneProps, opts?: pulumi.CustomResourceOptions) {
    super('ZoneRows', name, { ...rowOutputs, ...props }, opts);
  }
}

/** Upstream's UplinkState object (k8s.ovn.org/v1alpha1): one Uplink on one node, with its conditions. */
export interface UplinkStateObject {
  apiVersion: 'k8s.ovn.org/v1alpha1';
  kind: 'UplinkState';
  metadata: { name: string };
  spec: { uplinkName: string; nodeName: string };
  status: { conditions: { type: string; status: string; reason: string; message: string }[]; [field: string]: unknown };
}

/** One node's inputs of an Uplink: the inventory narrowed to the node, the Uplink, the CUDNs naming it. */
export interface UplinkStateProps {
  owner: pulumi.Input<string>;
  node: string;
  inventory: InventoryObject;
  uplink: UplinkObject;
  networks: NetworkObject[];
  /** RouteAdvertisements objects (k8s.ovn.org/v1), as in YAML: with them the node's VRF membership is managed too. */
  routeAdvertisements?: pulumi.Input<Record<string, unknown>[]>;
  /** Network ids by OVN network name (ClusterAllocations' `networkIds`): name the CUDNs' VRFs. */
  networkIds?: pulumi.Input<Record<string, number>>;
  /** The cluster's SSH settings (ClusterArgs.northbound.config); absent: the stack config's. */
  northbound?: pulumi.Input<NorthboundInput>;
}

/** One node's VRF report: per CUDN its outcome, and the steps planned (read) or run (create/update); or why not. */
export type UplinkVrfReport =
  | {
      steps: string[];
      ran: string[];
      outcomes: { cudn: string; state: string; reason?: string; message?: string; changed?: true }[];
    }
  | { error: string };

/** One Uplink on one node: its bridge mappings (and VRF membership) written over SSH; read rediscovers the node. */
export class UplinkState extends DynamicResource {
  declare readonly stateName: pulumi.Output<string>;
  declare readonly physicalNetworks: pulumi.Output<string[]>;
  /** `network:bridge` entries written to the node's ovn-bridge-mappings. */
  declare readonly mappings: pulumi.Output<string[]>;
  declare readonly uplinkState: pulumi.Output<UplinkStateObject>;
  /** The node's VRF membership report; null when the resource has no RouteAdvertisements. */
  declare readonly vrf: pulumi.Output<UplinkVrfReport | null>;
  declare readonly drift: pulumi.Output<DriftSummary>;

  constructor(name: string, props: UplinkStateProps, opts?: pulumi.CustomResourceOptions) {
    super(
      'UplinkState',
      name,
      {
        stateName: undefined,
        physicalNetworks: undefined,
        mappings: undefined,
        uplinkState: undefined,
        vrf: undefined,
        drift: undefined,
        schemaVersion: undefined,
        ...props,
      },
      opts,
    );
  }
}

/** The allocations in upstream's annotation formats (alloc/annotations.ts), as ClusterPrediction outputs them. */
export interface PredictedAnnotationsOutput {
  /** By OVN network name: each NAD's `k8s.ovn.org/network-name`, `network-id` (and `tunnel-keys`, primary Layer2). */
  networks: Record<string, Record<string, string>>;
  /** By node: `k8s.ovn.org/node-id` and our networks' entries of `k8s.ovn.org/node-subnets`. */
  nodes: Record<string, Record<string, string>>;
  /** By CNC name: `k8s.ovn.org/connect-router-tunnel-key` and `k8s.ovn.org/network-connect-subnet`. */
  connects: Record<string, Record<string, string>>;
}

/**
 * Kubernetes mode's allocations: ClusterAllocations' check (every problem refused at preview, the
 * same numbers), the predicted annotations and the replacements a change implies; it writes nothing.
 */
export class ClusterPrediction extends DynamicResource {
  declare readonly allocations: pulumi.Output<AllocationsOutput>;
  declare readonly annotations: pulumi.Output<PredictedAnnotationsOutput>;
  /** `<Kind>/<name>: <path> changed and upstream refuses that update (...)`: what this run replaces. */
  declare readonly replacements: pulumi.Output<string[]>;
  declare readonly state: pulumi.Output<unknown>;
  /** After a refresh, when the stack configures Northbound endpoints: each zone's rows compared with the prediction. */
  declare readonly audit: pulumi.Output<PredictionAudit | undefined>;

  constructor(name: string, props: TopologyProps, opts?: pulumi.CustomResourceOptions) {
    super(
      'ClusterPrediction',
      name,
      {
        allocations: undefined,
        annotations: undefined,
        replacements: undefined,
        state: undefined,
        audit: undefined,
        ...props,
      },
      opts,
    );
  }
}
