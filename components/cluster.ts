/**
 * Cluster: an inventory and its networks, connects and Uplinks, as in one `ovnk plan` file. It
 * owns the ClusterAllocations resource (every number, previewed), one child component per
 * Uplink, network and connect (a CUDN's component gets the Uplinks its spec.uplinks names); in
 * the per-node layout also one ZoneRows resource per node (zone).
 */
import * as pulumi from '@pulumi/pulumi';
import { clusterDiagramDot } from '../provider/runtime/diagram/cluster';
import {
  catalogRef,
  DEFAULT_LAYOUT,
  keyPathProblems,
  type Layout,
  type NorthboundInput,
  stateValue,
  withNetworkSubnets,
} from '../provider/runtime/pulumi';
import {
  clusterKubernetes,
  type ClusterObjects,
  type KubernetesCluster,
  refuseForKubernetes,
} from './clusterKubernetes';
import type { ClusterContext } from './context';
import { zoneProps } from './context';
import type { ClusterNetworkConnectArgs, NetworkArgsObject } from './inputs';
import { Layer2Network, Layer3Network, LocalnetNetwork } from './network';
import { NetworkConnect } from './networkConnect';
import {
  type ClusterNetworkConnectObject,
  type InventoryObject,
  type NetworkObject,
  networkKey,
  topologyOf,
  type UplinkObject,
} from './objects';
import { plainCopy, refuseUnresolved, unresolvedPath } from './plainArgs';
import {
  type AllocationsOutput,
  ClusterAllocations,
  ClusterPrediction,
  type TopologyProps,
  ZoneRows,
} from './resources';
import { type ClusterTarget, northbound } from './target';
import { type RouteAdvertisementsObject, Uplink } from './uplink';

/** ClusterArgs.northbound. */
export interface NorthboundArgs {
  /** The Northbound of every zone (`ssl:HOST:PORT`, `ssh://user@host/unix:/path`, ...). */
  readonly nb?: pulumi.Input<string>;
  /** Zone -> endpoint, over `nb` (the per-node layout: one Northbound per node). */
  readonly zoneEndpoints?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** The stack-config namespace of this cluster's keys (e.g. `east` for `east:tlsPrivateKey`). */
  readonly config?: string;
}

export interface ClusterArgs {
  /**
   * The Inventory object. Its open fields take `pulumi.Input`s (a node's labels or addresses from
   * another stack); `spec.zones`, the node list and each node's `name` must be plain: they decide
   * the zone resources (an Output there is refused, naming its path). Its node targets name no
   * `keyPath` (SSH keys come from stack config or an agent).
   */
  readonly inventory: InventoryObject;
  /**
   * ClusterUserDefinedNetwork / UserDefinedNetwork objects; one child component each. Spec fields
   * take `pulumi.Input`s; kind, name, namespace, topology and `spec.uplinks` stay plain.
   */
  readonly networks?: NetworkArgsObject[];
  /**
   * ClusterNetworkConnect objects; one child component each. Spec fields take `pulumi.Input`s (a
   * CIDR from an IPAM resource); the name stays plain.
   */
  readonly connects?: ClusterNetworkConnectArgs[];
  /**
   * Uplink objects (OKEP-6019); one child component each, with an UplinkState per selected node.
   * Plain, as is everything else in these args when Uplinks are given: they select their nodes
   * from the Inventory and the networks while the program runs.
   */
  readonly uplinks?: UplinkObject[];
  /**
   * RouteAdvertisements objects: a CUDN they select with `targetVRF: auto` gets its Uplink host
   * interface into its VRF.
   */
  readonly routeAdvertisements?: RouteAdvertisementsObject[];
  /**
   * This cluster's own Northbound, so one program can manage two deployments: endpoints (not
   * secrets: they are resource inputs) and `config`, the stack-config namespace whose keys
   * (`<config>:nb`, `<config>:zoneEndpoints`, `<config>:tlsPrivateKey`, `<config>:sshPrivateKey`,
   * ...) hold its endpoints and credentials in place of `ovnk:`. Keys and certificates stay in the
   * stack's config (set them with `pulumi config set --secret`); only the namespace's name is state.
   * @default the stack config's `ovnk:` keys
   */
  readonly northbound?: NorthboundArgs;
  /** The `ovnk.io/owner` base of every row. @default `<project>.<stack>` */
  readonly owner?: string;
  /**
   * Northbound (the default: our rows, over OVSDB and SSH) or Kubernetes (upstream's objects
   * through @pulumi/kubernetes: kubernetesTarget()).
   */
  readonly target?: ClusterTarget;
}

/**
 * A cluster's user-defined networking, rendered into its Northbound(s). Endpoints come from the
 * stack config `ovnk:nb` (or `ovnk:zoneEndpoints`), never from the args.
 *
 * @example
 * const inventory: InventoryObject = { apiVersion: "ovnk/v1alpha1", kind: "Inventory", metadata: { name: "lab" },
 *   spec: { zones: "central", namespaces: [{ name: "blue", labels: { tenant: "blue" } }], nodes: [{ name: "node-1" }] } };
 * const cluster = new Cluster("lab", { inventory, networks: [{
 *   apiVersion: "k8s.ovn.org/v1", kind: "ClusterUserDefinedNetwork", metadata: { name: "blue-network" },
 *   spec: { namespaceSelector: { matchLabels: { tenant: "blue" } },
 *           network: { topology: "Layer3", layer3: { role: "Primary", subnets: [{ cidr: "103.103.0.0/16", hostSubnet: 24 }] } } } }] });
 * export const ids = cluster.allocations.apply((a) => a.networkIds);
 */
export class Cluster extends pulumi.ComponentResource implements ClusterContext {
  readonly owner: string;
  readonly layout: Layout;
  readonly target: ClusterTarget;
  /** ClusterArgs.northbound resolved, as each resource of the cluster carries it. */
  readonly northbound?: pulumi.Output<NorthboundInput>;
  readonly topology: TopologyProps;
  /** ClusterAllocations in Northbound mode, ClusterPrediction in Kubernetes mode. */
  readonly allocationsResource: ClusterAllocations | ClusterPrediction;
  /** Every allocation (ids, host subnets, keys, connect subnets), known at preview. */
  readonly allocations: pulumi.Output<AllocationsOutput>;
  /** The planned topology as Graphviz DOT text (`ovnk diagram -o dot` of the same objects), known at preview. */
  readonly diagram: pulumi.Output<string | undefined>;
  /** Network components by key: a CUDN's name, a UDN's `namespace/name` (networkKey). */
  readonly networks: Record<string, Layer3Network | Layer2Network | LocalnetNetwork> = {};
  readonly connects: Record<string, NetworkConnect> = {};
  /** Uplink components by object name. */
  readonly uplinks: Record<string, Uplink> = {};
  readonly inventory: InventoryObject;
  readonly networkObjects: NetworkObject[];
  readonly connectObjects: ClusterNetworkConnectObject[];
  readonly uplinkObjects: UplinkObject[];
  /** Per-node layout: the zone resources by zone (node) name. */
  readonly zones: Record<string, ZoneRows> = {};
  /** Kubernetes mode: the predicted node annotations, the RouteAdvertisements and the divergence of every object. */
  readonly kubernetes?: KubernetesCluster;

  constructor(name: string, given: ClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    // Before anything is registered: an Output where a plain value decides the children, and an
    // object the API server would refuse, stop the program here.
    refuseUnresolved(`Cluster ${name}`, given);
    // plain in Kubernetes mode (refuseUnresolved said so otherwise)
    if (given.target?.kind === 'kubernetes') refuseForKubernetes(name, given as ClusterObjects);
    super('ovnk:cluster:Cluster', name, {}, opts);
    // Fresh plain objects from here on (the SDK stringifies inputs while registering, which objects
    // without a prototype, a hardened YAML loader's, do not survive), the Inputs kept as they are.
    // The target stays as given: a kubernetes Provider is a resource, not data.
    const args = plainCopy({ ...given, target: undefined }) as ClusterArgs;
    // the objects with their Inputs resolved, for what runs in the program (the diagram)
    const resolved = pulumi.output(args) as unknown as pulumi.Output<ClusterObjects & { inventory: InventoryObject }>;
    // with Inputs in the targets, the allocation resource's check refuses a keyPath (keyPathFailures)
    const keyPaths = unresolvedPath(args.inventory.spec.targets, '') ? [] : keyPathProblems(args.inventory);
    if (keyPaths.length > 0) throw new Error(`Cluster ${name}: ${keyPaths.map((p) => p.message).join('; ')}`);
    this.owner = args.owner ?? `${pulumi.getProject()}.${pulumi.getStack()}`;
    this.target = given.target ?? northbound;
    this.northbound = args.northbound && (pulumi.output(args.northbound) as pulumi.Output<NorthboundInput>);
    this.layout = args.inventory.spec.zones ?? DEFAULT_LAYOUT;
    this.inventory = args.inventory;
    // plain where the children read them (names, kinds, topologies: plainArgs.ts)
    this.networkObjects = (args.networks ?? []) as NetworkObject[];
    this.connectObjects = (args.connects ?? []) as ClusterNetworkConnectObject[];
    this.uplinkObjects = args.uplinks ?? [];
    this.topology = {
      owner: `${this.owner}/cluster`,
      inventory: args.inventory,
      networks: this.networkObjects,
      connects: this.connectObjects,
      ...(this.northbound ? { northbound: this.northbound } : {}),
      // advertised networks render their SNATs and isolation rows (provider/topology/advertised.ts)
      ...(args.routeAdvertisements?.length ? { routeAdvertisements: args.routeAdvertisements } : {}),
    };
    const Allocations = this.target.kind === 'kubernetes' ? ClusterPrediction : ClusterAllocations;
    this.allocationsResource = new Allocations(`${name}-allocations`, this.topology, { parent: this });
    // the resource holds each network's host subnets once (clusterInputs.ts); its entry gets them back here
    this.allocations = this.allocationsResource.allocations.apply(withNetworkSubnets);
    this.diagram = pulumi
      .all([resolved, this.allocationsResource.state])
      .apply(([objects, state]) => clusterDiagramDot(objects, stateValue(state)));
    for (const uplink of args.uplinks ?? [])
      this.uplinks[uplink.metadata.name] = new Uplink(
        `${name}-uplink-${uplink.metadata.name}`,
        { cluster: this, uplink, routeAdvertisements: args.routeAdvertisements },
        { parent: this },
      );
    this.createNetworks(name, this.networkObjects);
    const networks = Object.values(this.networks);
    for (const connect of this.connectObjects) {
      this.connects[connect.metadata.name] = new NetworkConnect(
        `${name}-${connect.metadata.name}`,
        { cluster: this, connect, dependsOn: networks },
        { parent: this },
      );
    }
    if (this.target.kind === 'kubernetes')
      this.kubernetes = clusterKubernetes(this, name, args as ClusterObjects, this.target);
    else if (this.layout === 'per-node') this.createZones(name, args.inventory);
    this.registerOutputs({
      allocations: this.allocations,
      diagram: this.diagram,
      ...(this.kubernetes ? { kubernetes: this.kubernetes.outputs } : {}),
    });
  }

  private createNetworks(name: string, networks: NetworkObject[]): void {
    for (const network of networks) {
      const Kind = { Layer3: Layer3Network, Layer2: Layer2Network, Localnet: LocalnetNetwork }[topologyOf(network)];
      const named = network.kind === 'ClusterUserDefinedNetwork' ? (network.spec.uplinks ?? []) : [];
      const uplinks = named.flatMap((u) => (this.uplinks[u] ? [this.uplinks[u]!] : []));
      const key = networkKey(network);
      this.networks[key] = new Kind(
        `${name}-${key}`,
        { cluster: this, network, uplinks },
        { parent: this, aliases: formerNames(name, network, networks).map((n) => ({ name: n })) },
      );
    }
  }

  /**
   * Every Uplink's UplinkStates: Uplink CUDNs' gateway routers take their external side from them
   * (none without Uplinks).
   */
  private uplinkStatesProp() {
    const uplinks = Object.values(this.uplinks);
    if (uplinks.length === 0) return {};
    return { uplinkStates: pulumi.all(uplinks.map((u) => u.uplinkStates)).apply((all) => all.flat()) };
  }

  private createZones(name: string, inventory: InventoryObject): void {
    for (const node of inventory.spec.nodes ?? []) {
      const zone = String(node.name);
      this.zones[zone] = new ZoneRows(
        `${name}-zone-${zone}`,
        {
          // the catalog by reference: ClusterAllocations publishes it in each zone (state linear in the nodes)
          ...zoneProps(this, `zone/${zone}`, zone, (s) => s.zone && catalogRef(s.zone, `${this.owner}/cluster`)),
          ...this.uplinkStatesProp(),
        },
        { parent: this, dependsOn: [this.allocationsResource, ...Object.values(this.uplinks)] },
      );
    }
  }
}

/**
 * The name a UDN's component had before names carried the namespace (`<cluster>-<name>`), so an
 * existing stack keeps its resources. None when another network has the same name: that old
 * name was never usable for both (Pulumi refused the duplicate), and two resources must not
 * claim one alias.
 */
function formerNames(cluster: string, network: NetworkObject, networks: NetworkObject[]): string[] {
  if (network.kind !== 'UserDefinedNetwork') return [];
  const same = networks.filter((n) => n.metadata.name === network.metadata.name);
  return same.length === 1 ? [`${cluster}-${network.metadata.name}`] : [];
}
