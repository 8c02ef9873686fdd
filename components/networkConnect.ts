/**
 * NetworkConnect: one ClusterNetworkConnect of a Cluster. In the central layout it owns a
 * ConnectRouter resource (router, links, routes, policies); a change of its connectSubnets
 * replaces that router (upstream treats them as immutable). Outputs come from the cluster's
 * allocations, known at preview.
 */
import * as pulumi from '@pulumi/pulumi';
import { type ClusterContext, zoneProps } from './context';
import type { ClusterNetworkConnectObject } from './objects';
import { ConnectRouter } from './resources';

export interface NetworkConnectArgs {
  readonly cluster: ClusterContext;
  /** The ClusterNetworkConnect object, as in YAML. */
  readonly connect: ClusterNetworkConnectObject;
  /** Resources the connect's rows attach to (the networks' routers); the Cluster passes its networks. */
  readonly dependsOn?: pulumi.Resource[];
}

/**
 * Connects networks through a connect router (OKEP-5224).
 *
 * @example
 * const connect = new NetworkConnect("colored", { cluster, connect: {
 *   apiVersion: "k8s.ovn.org/v1", kind: "ClusterNetworkConnect", metadata: { name: "colored-enterprise" },
 *   spec: { networkSelectors: [...], connectSubnets: [{ cidr: "192.168.0.0/16", networkPrefix: 24 }], connectivity: ["PodNetwork"] } } });
 * export const key = connect.tunnelKey;
 */
export class NetworkConnect extends pulumi.ComponentResource {
  /** `connect_router_<name>`. */
  readonly routerName: pulumi.Output<string>;
  readonly tunnelKey: pulumi.Output<number | null>;
  /** Whether the connect passed validation; problems fail the preview with their OKEP reasons. */
  readonly accepted: pulumi.Output<boolean>;
  /** Upstream's annotations as they would be written (subnets per network, tunnel key). */
  readonly annotations: pulumi.Output<Record<string, string>>;
  readonly rowCounts: pulumi.Output<Record<string, number> | undefined>;

  constructor(name: string, args: NetworkConnectArgs, opts?: pulumi.ComponentResourceOptions) {
    super('ovnk:connect:NetworkConnect', name, {}, opts);
    const connectName = args.connect.metadata.name;
    const mine = args.cluster.allocationsResource.allocations.apply((a) => a?.connects?.[connectName]);
    const dependsOn = [args.cluster.allocationsResource, ...(args.dependsOn ?? [])];
    const router =
      args.cluster.layout === 'central'
        ? new ConnectRouter(
            `${name}-router`,
            {
              ...zoneProps(args.cluster, `connect/${connectName}`, 'central', (s) => s.connects?.[connectName]),
              connect: connectName,
              connectSubnets: args.connect.spec.connectSubnets,
            },
            { parent: this, dependsOn },
          )
        : undefined;
    this.routerName = mine.apply((m) => m?.routerName ?? '');
    this.tunnelKey = mine.apply((m) => m?.tunnelKey ?? null);
    this.accepted = mine.apply((m) => m?.accepted ?? false);
    this.annotations = mine.apply((m) => m?.annotations ?? {});
    this.rowCounts = router ? router.rowCounts : pulumi.output(undefined);
    this.registerOutputs({
      routerName: this.routerName,
      tunnelKey: this.tunnelKey,
      accepted: this.accepted,
      annotations: this.annotations,
      rowCounts: this.rowCounts,
    });
  }
}
