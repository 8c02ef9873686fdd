/**
 * The dynamic resources (`pulumi-nodejs:dynamic/ovnk:<Type>`), thin classes over the shims of
 * provider/shim.ts. Outputs are `declare`d (a class field would wipe what the base class set)
 * and present in the props, so each gets a resolver; the runtime fills them.
 */
import * as pulumi from '@pulumi/pulumi';
import { shims } from '../provider/shim';
import type { ClusterNetworkConnectObject, InventoryObject, NetworkObject } from './objects';

/** What every resource of one topology is planned from. */
export interface TopologyProps {
  owner: pulumi.Input<string>;
  inventory: pulumi.Input<InventoryObject>;
  networks: pulumi.Input<NetworkObject[]>;
  connects: pulumi.Input<ClusterNetworkConnectObject[]>;
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
  datapathKeys: { networks: Record<string, { transitSwitch: number; transitRouter?: number }>; connects: Record<string, number> };
  connects: Record<string, { accepted: boolean; tunnelKey: number | null; routerName: string; networks: Record<string, unknown>; annotations: Record<string, string> }>;
  networks: Record<string, { name: string; topology: string; id: number | null; routerName: string; hostSubnets: Record<string, string[]> }>;
  zones: string[];
}

const rowOutputs = { digest: undefined, rowCounts: undefined, drift: undefined, liveRows: undefined, schemaVersion: undefined };

/** Every cluster-wide allocation, stable per name, plus the shared Copp/meter rows per zone. */
export class ClusterAllocations extends pulumi.dynamic.Resource {
  declare readonly allocations: pulumi.Output<AllocationsOutput>;
  declare readonly state: pulumi.Output<unknown>;
  declare readonly digest: pulumi.Output<string>;
  declare readonly drift: pulumi.Output<DriftSummary>;

  constructor(name: string, props: TopologyProps, opts?: pulumi.CustomResourceOptions) {
    super(shims.ClusterAllocations, name, { ...rowOutputs, allocations: undefined, state: undefined, ...props }, opts, 'ovnk', 'ClusterAllocations');
  }
}

/** The rows of one zone a resource owns, planned against the cluster's allocation state. */
export interface ZoneProps extends TopologyProps {
  zone: pulumi.Input<string>;
  state: pulumi.Input<unknown>;
}

/** One network's rows in the central layout. */
export class NetworkRows extends pulumi.dynamic.Resource {
  declare readonly networkName: pulumi.Output<string>;
  declare readonly networkId: pulumi.Output<number>;
  declare readonly digest: pulumi.Output<string>;
  declare readonly rowCounts: pulumi.Output<Record<string, number>>;
  declare readonly drift: pulumi.Output<DriftSummary>;

  constructor(name: string, props: ZoneProps & { network: string }, opts?: pulumi.CustomResourceOptions) {
    super(shims.NetworkRows, name, { ...rowOutputs, networkName: undefined, networkId: undefined, hostSubnets: undefined, ...props }, opts, 'ovnk', 'NetworkRows');
  }
}

/** One connect's router and links in the central layout; a change of connectSubnets replaces it. */
export class ConnectRouter extends pulumi.dynamic.Resource {
  declare readonly tunnelKey: pulumi.Output<number>;
  declare readonly connectSubnets: pulumi.Output<{ cidr: string; networkPrefix: number }[]>;
  declare readonly digest: pulumi.Output<string>;
  declare readonly rowCounts: pulumi.Output<Record<string, number>>;
  declare readonly drift: pulumi.Output<DriftSummary>;

  constructor(name: string, props: ZoneProps & { connect: string }, opts?: pulumi.CustomResourceOptions) {
    super(shims.ConnectRouter, name, { ...rowOutputs, tunnelKey: undefined, connectSubnets: undefined, connectNetworks: undefined, ...props }, opts, 'ovnk', 'ConnectRouter');
  }
}

/** Every row of one zone in the per-node layout (all networks and connects there). */
export class ZoneRows extends pulumi.dynamic.Resource {
  declare readonly digest: pulumi.Output<string>;
  declare readonly rowCounts: pulumi.Output<Record<string, number>>;
  declare readonly drift: pulumi.Output<DriftSummary>;

  constructor(name: string, props: ZoneProps, opts?: pulumi.CustomResourceOptions) {
    super(shims.ZoneRows, name, { ...rowOutputs, ...props }, opts, 'ovnk', 'ZoneRows');
  }
}
