/**
 * Layer3Network and Layer2Network: one primary user-defined network of a Cluster. In the
 * central layout each owns a NetworkRows resource (its rows in the central Northbound); in the
 * per-node layout the Cluster's ZoneRows hold them. Either way the outputs come from the
 * cluster's allocations, so they are known at preview.
 */
import * as pulumi from '@pulumi/pulumi';
import type { ClusterContext } from './context';
import { zoneProps } from './context';
import { type NetworkObject, objectRef, topologyOf } from './objects';
import { NetworkRows, type UplinkStateObject } from './resources';
import type { Uplink } from './uplink';

export interface NetworkArgs {
  /** The cluster the network belongs to (its allocations and layout). */
  readonly cluster: ClusterContext;
  /** The ClusterUserDefinedNetwork or UserDefinedNetwork object, as in YAML. Plain: it decides the children. */
  readonly network: NetworkObject;
  /** The Uplink components this CUDN's spec.uplinks names: its rows wait for their bridge mappings. */
  readonly uplinks?: Uplink[];
}

abstract class NetworkComponent extends pulumi.ComponentResource {
  /** OVN network name (`cluster_udn_blue-network`, `yellow_yellow-network`). */
  readonly networkName: pulumi.Output<string>;
  /** Network id (1..4095), stable across changes. */
  readonly networkId: pulumi.Output<number | null>;
  /** The network's cluster router (Layer3) or transit router (Layer2). */
  readonly routerName: pulumi.Output<string>;
  /** Node -> host subnets (Layer3). */
  readonly hostSubnets: pulumi.Output<Record<string, string[]>>;
  /** NB rows per table (central layout; per-node: in the cluster's ZoneRows). */
  readonly rowCounts: pulumi.Output<Record<string, number> | undefined>;
  /** The UplinkStates of the Uplinks this network names (every node of each). */
  readonly uplinkStates: pulumi.Output<UplinkStateObject[]>;

  protected constructor(
    type: string,
    expected: 'Layer3' | 'Layer2',
    name: string,
    args: NetworkArgs,
    opts?: pulumi.ComponentResourceOptions,
  ) {
    super(type, name, {}, opts);
    const ref = objectRef(args.network);
    if (topologyOf(args.network) !== expected)
      throw new Error(
        `${ref}: the network's topology is ${topologyOf(args.network)}; use ${expected === 'Layer3' ? 'Layer2Network' : 'Layer3Network'} for it`,
      );
    const mine = args.cluster.allocationsResource.allocations.apply((a) => a?.networks?.[ref]);
    const rows =
      args.cluster.layout === 'central'
        ? new NetworkRows(
            `${name}-rows`,
            { ...zoneProps(args.cluster, `network/${ref}`, 'central', (s) => s.networks?.[ref]), network: ref },
            { parent: this, dependsOn: [args.cluster.allocationsResource, ...(args.uplinks ?? [])] },
          )
        : undefined;
    this.networkName = mine.apply((m) => m?.name ?? '');
    this.networkId = mine.apply((m) => m?.id ?? null);
    this.routerName = mine.apply((m) => m?.routerName ?? '');
    this.hostSubnets = mine.apply((m) => m?.hostSubnets ?? {});
    this.rowCounts = rows ? rows.rowCounts : pulumi.output(undefined);
    this.uplinkStates = pulumi.all((args.uplinks ?? []).map((u) => u.uplinkStates)).apply((all) => all.flat());
    this.registerOutputs({
      uplinkStates: this.uplinkStates,
      networkName: this.networkName,
      networkId: this.networkId,
      routerName: this.routerName,
      hostSubnets: this.hostSubnets,
      rowCounts: this.rowCounts,
    });
  }
}

/**
 * A primary Layer3 user-defined network (per-node host subnets, cluster router, transit switch).
 *
 * @example
 * const blue = new Layer3Network("blue", { cluster, network: {
 *   apiVersion: "k8s.ovn.org/v1", kind: "ClusterUserDefinedNetwork", metadata: { name: "blue-network" },
 *   spec: { namespaceSelector: { matchLabels: { tenant: "blue" } },
 *           network: { topology: "Layer3", layer3: { role: "Primary", subnets: [{ cidr: "103.103.0.0/16", hostSubnet: 24 }] } } } } });
 * export const blueId = blue.networkId;
 */
export class Layer3Network extends NetworkComponent {
  constructor(name: string, args: NetworkArgs, opts?: pulumi.ComponentResourceOptions) {
    super('ovnk:network:Layer3Network', 'Layer3', name, args, opts);
  }
}

/**
 * A primary Layer2 user-defined network (one switch for every node, the OKEP-5094 transit router).
 *
 * @example
 * const yellow = new Layer2Network("yellow", { cluster, network: {
 *   apiVersion: "k8s.ovn.org/v1", kind: "UserDefinedNetwork", metadata: { name: "yellow-network", namespace: "yellow" },
 *   spec: { topology: "Layer2", layer2: { role: "Primary", subnets: ["105.105.0.0/16"] } } } });
 * export const yellowRouter = yellow.routerName;
 */
export class Layer2Network extends NetworkComponent {
  constructor(name: string, args: NetworkArgs, opts?: pulumi.ComponentResourceOptions) {
    super('ovnk:network:Layer2Network', 'Layer2', name, args, opts);
  }
}
