/**
 * NetworkConnect: one ClusterNetworkConnect of a Cluster, made by the Cluster for each connect
 * object it is given (never on its own). In the central layout it owns a ConnectRouter resource
 * (router, links, routes, policies); a change of its connectSubnets replaces that router, deleting
 * the old one first, with slices allocated afresh from the new subnets (upstream treats them as
 * immutable: the object is recreated). In the per-node layout the zones' rows are updated in
 * place. Outputs come from the cluster's allocations, known at preview.
 */
import * as pulumi from '@pulumi/pulumi';
import { allocationOf, type ClusterContext, requireClusterChild, zoneProps } from './context';
import { type KubernetesChild, kubernetesChild } from './kubernetes';
import { type ClusterNetworkConnectObject, objectRef } from './objects';
import { type ClusterPrediction, ConnectRouter } from './resources';

export interface NetworkConnectArgs {
  readonly cluster: ClusterContext;
  /** The ClusterNetworkConnect object, as in YAML. */
  readonly connect: ClusterNetworkConnectObject;
  /** Resources the connect's rows attach to (the networks' routers); the Cluster passes its networks. */
  readonly dependsOn?: pulumi.Resource[];
}

/**
 * Connects networks through a connect router (OKEP-5224). The Cluster makes one for each connect
 * object it is given; read it from `cluster.connects`.
 *
 * @example
 * const inventory: InventoryObject = { apiVersion: "ovnk/v1alpha1", kind: "Inventory", metadata: { name: "lab" },
 *   spec: { zones: "central", nodes: [{ name: "node-1" }],
 *           namespaces: [{ name: "blue", labels: { tenant: "blue" } }, { name: "green", labels: { tenant: "green" } }] } };
 * const network = (color: string, cidr: string): NetworkObject => ({
 *   apiVersion: "k8s.ovn.org/v1", kind: "ClusterUserDefinedNetwork", metadata: { name: `${color}-network`, labels: { enterprise: "colored" } },
 *   spec: { namespaceSelector: { matchLabels: { tenant: color } },
 *           network: { topology: "Layer3", layer3: { role: "Primary", subnets: [{ cidr, hostSubnet: 24 }] } } } });
 * const cluster = new Cluster("lab", { inventory,
 *   networks: [network("blue", "103.103.0.0/16"), network("green", "104.104.0.0/16")],
 *   connects: [{ apiVersion: "k8s.ovn.org/v1", kind: "ClusterNetworkConnect", metadata: { name: "colored" },
 *     spec: { networkSelectors: [{ networkSelectionType: "ClusterUserDefinedNetworks",
 *               clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { enterprise: "colored" } } } }],
 *             connectSubnets: [{ cidr: "192.168.0.0/16", networkPrefix: 24 }], connectivity: ["PodNetwork"] } }] });
 * export const key = cluster.connects["colored"]!.tunnelKey;
 */
export class NetworkConnect extends pulumi.ComponentResource {
  /** `connect_router_<name>`. */
  readonly routerName: pulumi.Output<string>;
  /** The connect router's datapath key; null only when the connect is refused (then check fails the preview). */
  readonly tunnelKey: pulumi.Output<number | null>;
  /** Whether the connect passed validation; problems fail the preview with their OKEP reasons. */
  readonly accepted: pulumi.Output<boolean>;
  /** What is said but not refused (InsufficientNetworks), each also logged as a preview warning. */
  readonly warnings: pulumi.Output<{ reason: string; message: string; path: string }[]>;
  /** Upstream's annotations as they would be written (subnets per network, tunnel key). */
  readonly annotations: pulumi.Output<Record<string, string>>;
  readonly rowCounts: pulumi.Output<Record<string, number> | undefined>;
  /**
   * Kubernetes mode: the CNC custom resource (replaced, deleting first, when connectSubnets
   * change), what it says once read back, and its divergence.
   */
  readonly kubernetes?: KubernetesChild;

  constructor(name: string, args: NetworkConnectArgs, opts?: pulumi.ComponentResourceOptions) {
    super('ovnk:connect:NetworkConnect', name, {}, opts);
    const connectName = args.connect.metadata.name;
    const ref = objectRef(args.connect);
    const given = args.cluster.connectObjects.some((c) => c.metadata.name === connectName);
    const access = `cluster.connects["${connectName}"]`;
    requireClusterChild('ovnk:connect:NetworkConnect', ref, given, args.cluster.connects[connectName], access);
    const mine = allocationOf(args.cluster, ref, (a) => a.connects?.[connectName]);
    const dependsOn = [args.cluster.allocationsResource, ...(args.dependsOn ?? [])];
    const target = args.cluster.target;
    if (target.kind === 'kubernetes') {
      const predicted = (args.cluster.allocationsResource as ClusterPrediction).annotations.apply(
        (a) => a?.connects?.[connectName] ?? {},
      );
      const body = args.connect as unknown as Record<string, unknown>;
      this.kubernetes = kubernetesChild(this, `${name}-object`, body, target, predicted, dependsOn);
    }
    const router =
      args.cluster.layout === 'central' && target.kind === 'northbound'
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
    this.routerName = mine.apply((m) => m.routerName);
    this.tunnelKey = mine.apply((m) => m.tunnelKey);
    this.accepted = mine.apply((m) => m.accepted);
    this.annotations = mine.apply((m) => m.annotations);
    this.warnings = mine.apply((m) => {
      const warnings = m.warnings ?? [];
      for (const w of warnings) void pulumi.log.warn(`${w.reason}: ${w.path}: ${w.message}`, this);
      return warnings;
    });
    this.rowCounts = router ? router.rowCounts : pulumi.output(undefined);
    this.registerOutputs({
      routerName: this.routerName,
      tunnelKey: this.tunnelKey,
      accepted: this.accepted,
      warnings: this.warnings,
      annotations: this.annotations,
      rowCounts: this.rowCounts,
      ...(this.kubernetes ? { divergence: this.kubernetes.divergence } : {}),
    });
  }
}
