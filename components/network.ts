/**
 * Layer3Network, Layer2Network and LocalnetNetwork: one user-defined network of a Cluster
 * (primary or secondary; Localnet is secondary only), made by the
 * Cluster for each network object it is given (never on their own: requireClusterChild). In the
 * central layout each owns a NetworkRows resource (its rows in the central Northbound); in the
 * per-node layout the Cluster's ZoneRows hold them. Either way the outputs come from the
 * cluster's allocations, so they are known at preview.
 */
import * as pulumi from '@pulumi/pulumi';
import { uplinkGatewayWarnings, type YamlObject } from '../provider/runtime/pulumi';
import type { ClusterContext } from './context';
import { allocationOf, requireClusterChild, zoneProps } from './context';
import { type KubernetesChild, kubernetesChild } from './kubernetes';
import { type NetworkObject, networkKey, objectRef } from './objects';
import { type ClusterPrediction, NetworkRows, type UplinkStateObject } from './resources';
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
  /**
   * Network id (1..4095), stable across changes; null while the network serves no namespace of the
   * inventory (upstream allocates none then).
   */
  readonly networkId: pulumi.Output<number | null>;
  /**
   * The network's cluster router (Layer3) or transit router (primary Layer2); "" when it has none
   * (secondary Layer2, Localnet).
   */
  readonly routerName: pulumi.Output<string>;
  /** Node -> host subnets (Layer3). */
  readonly hostSubnets: pulumi.Output<Record<string, string[]>>;
  /** NB rows per table (central layout; per-node: in the cluster's ZoneRows). */
  readonly rowCounts: pulumi.Output<Record<string, number> | undefined>;
  /** The UplinkStates of the Uplinks this network names (every node of each); Northbound mode only. */
  readonly uplinkStates: pulumi.Output<UplinkStateObject[]>;
  /**
   * Kubernetes mode: the annotations cluster-manager will put on each of the network's NADs
   * (`k8s.ovn.org/network-id`, ...).
   */
  readonly annotations?: pulumi.Output<Record<string, string>>;
  /** Kubernetes mode: the CUDN/UDN custom resource, what it says once read back, and its divergence. */
  readonly kubernetes?: KubernetesChild;

  protected constructor(type: string, name: string, args: NetworkArgs, opts?: pulumi.ComponentResourceOptions) {
    super(type, name, {}, opts);
    const ref = objectRef(args.network);
    const key = networkKey(args.network);
    const given = args.cluster.networkObjects.some((n) => objectRef(n) === ref);
    requireClusterChild(type, ref, given, args.cluster.networks[key], `cluster.networks["${key}"]`);
    const mine = allocationOf(args.cluster, ref, (a) => a.networks?.[ref]);
    this.uplinkStates = pulumi.all((args.uplinks ?? []).map((u) => u.uplinkStates)).apply((all) => all.flat());
    // an Uplink CUDN's gateway routers take their external side from its UplinkStates
    const uplinkStates = (args.uplinks ?? []).length > 0 ? { uplinkStates: this.uplinkStates } : {};
    const target = args.cluster.target;
    if (target.kind === 'northbound' && (args.uplinks ?? []).length > 0)
      warnWaitingGateways(this, args, this.uplinkStates);
    if (target.kind === 'kubernetes') {
      const prediction = args.cluster.allocationsResource as ClusterPrediction;
      this.annotations = pulumi.all([mine, prediction.annotations]).apply(([m, a]) => a?.networks?.[m.name] ?? {});
      const dependsOn = [prediction, ...(args.uplinks ?? [])];
      this.kubernetes = kubernetesChild(this, `${name}-object`, objectBody(args.network), target, {}, dependsOn);
    }
    const rows =
      args.cluster.layout === 'central' && target.kind === 'northbound'
        ? new NetworkRows(
            `${name}-rows`,
            {
              ...zoneProps(args.cluster, `network/${ref}`, 'central', (s) => s.networks?.[ref]),
              network: ref,
              ...uplinkStates,
            },
            {
              parent: this,
              dependsOn: [args.cluster.allocationsResource, ...(args.uplinks ?? [])],
              aliases: childAliases(opts, '-rows'),
            },
          )
        : undefined;
    this.networkName = mine.apply((m) => m.name);
    this.networkId = mine.apply((m) => m.id);
    this.routerName = mine.apply((m) => m.routerName);
    this.hostSubnets = mine.apply((m) => m.hostSubnets);
    this.rowCounts = rows ? rows.rowCounts : pulumi.output(undefined);
    this.registerOutputs({
      uplinkStates: this.uplinkStates,
      networkName: this.networkName,
      networkId: this.networkId,
      routerName: this.routerName,
      hostSubnets: this.hostSubnets,
      rowCounts: this.rowCounts,
      ...(this.kubernetes ? { annotations: this.annotations, divergence: this.kubernetes.divergence } : {}),
    });
  }
}

/**
 * Logs, once the Uplinks' states are known, each node this CUDN gets no gateway on while its
 * UplinkState is missing or not resolved (provider/runtime/pulumi/uplinkWarnings.ts).
 */
function warnWaitingGateways(
  component: pulumi.ComponentResource,
  args: NetworkArgs,
  states: pulumi.Output<UplinkStateObject[]>,
): void {
  const [inventory, network] = [args.cluster.inventory, args.network] as unknown as YamlObject[];
  states.apply((known) => {
    for (const w of uplinkGatewayWarnings(inventory!, network!, known))
      void pulumi.log.warn(`${w.reason}: ${w.path}: ${w.message}`, component);
  });
}

function objectBody(network: NetworkObject): Record<string, unknown> {
  return network as unknown as Record<string, unknown>;
}

/** A child named `<component>-<suffix>` keeps its parent's former names (as the engine's inherited aliases do). */
function childAliases(opts: pulumi.ComponentResourceOptions | undefined, suffix: string): pulumi.Alias[] {
  return (opts?.aliases ?? []).flatMap((a) =>
    typeof a === 'object' && a !== null && typeof (a as pulumi.Alias).name === 'string'
      ? [{ name: `${(a as pulumi.Alias).name as string}${suffix}` }]
      : [],
  );
}

/**
 * A primary Layer3 user-defined network (per-node host subnets, cluster router, transit switch).
 * The Cluster makes one for each Layer3 network object it is given; read it from `cluster.networks`.
 *
 * @example
 * const inventory: InventoryObject = { apiVersion: "ovnk/v1alpha1", kind: "Inventory", metadata: { name: "lab" },
 *   spec: { zones: "central", namespaces: [{ name: "blue", labels: { tenant: "blue" } }], nodes: [{ name: "node-1" }] } };
 * const cluster = new Cluster("lab", { inventory, networks: [{
 *   apiVersion: "k8s.ovn.org/v1", kind: "ClusterUserDefinedNetwork", metadata: { name: "blue-network" },
 *   spec: { namespaceSelector: { matchLabels: { tenant: "blue" } },
 *           network: { topology: "Layer3", layer3: { role: "Primary", subnets: [{ cidr: "103.103.0.0/16", hostSubnet: 24 }] } } } }] });
 * const blue = cluster.networks["blue-network"] as Layer3Network;
 * export const blueId = blue.networkId;
 */
export class Layer3Network extends NetworkComponent {
  constructor(name: string, args: NetworkArgs, opts?: pulumi.ComponentResourceOptions) {
    super('ovnk:network:Layer3Network', name, args, opts);
  }
}

/**
 * A primary Layer2 user-defined network (one switch for every node, the OKEP-5094 transit router).
 * The Cluster makes one for each Layer2 network object it is given; a UDN's key is `namespace/name`.
 *
 * @example
 * const inventory: InventoryObject = { apiVersion: "ovnk/v1alpha1", kind: "Inventory", metadata: { name: "lab" },
 *   spec: { zones: "central", namespaces: [{ name: "yellow" }], nodes: [{ name: "node-1" }] } };
 * const cluster = new Cluster("lab", { inventory, networks: [{
 *   apiVersion: "k8s.ovn.org/v1", kind: "UserDefinedNetwork", metadata: { name: "yellow-network", namespace: "yellow" },
 *   spec: { topology: "Layer2", layer2: { role: "Primary", subnets: ["105.105.0.0/16"] } } }] });
 * const yellow = cluster.networks["yellow/yellow-network"] as Layer2Network;
 * export const yellowRouter = yellow.routerName;
 */
export class Layer2Network extends NetworkComponent {
  constructor(name: string, args: NetworkArgs, opts?: pulumi.ComponentResourceOptions) {
    super('ovnk:network:Layer2Network', name, args, opts);
  }
}

/**
 * A Localnet network (secondary only): one switch on every node with a localnet port onto the
 * physical network its `physicalNetworkName` names, in the access VLAN of its `vlan`. A CUDN only.
 *
 * @example
 * const inventory: InventoryObject = { apiVersion: "ovnk/v1alpha1", kind: "Inventory", metadata: { name: "lab" },
 *   spec: { zones: "central", namespaces: [{ name: "tenant", labels: { tenant: "blue" } }], nodes: [{ name: "node-1" }] } };
 * const cluster = new Cluster("lab", { inventory, networks: [{
 *   apiVersion: "k8s.ovn.org/v1", kind: "ClusterUserDefinedNetwork", metadata: { name: "physical-blue" },
 *   spec: { namespaceSelector: { matchLabels: { tenant: "blue" } },
 *           network: { topology: "Localnet", localnet: { role: "Secondary", physicalNetworkName: "physnet-blue",
 *                      subnets: ["192.0.2.0/24"], vlan: { mode: "Access", access: { id: 100 } } } } } }] });
 * const physical = cluster.networks["physical-blue"] as LocalnetNetwork;
 * export const physicalId = physical.networkId;
 */
export class LocalnetNetwork extends NetworkComponent {
  constructor(name: string, args: NetworkArgs, opts?: pulumi.ComponentResourceOptions) {
    super('ovnk:network:LocalnetNetwork', name, args, opts);
  }
}
