/**
 * Uplink: an OKEP-6019 Uplink of a Cluster. One UplinkState resource per node the Uplink
 * publishes a state for (selected or overlapping; decided from the plain Inventory and Uplink,
 * so the children are known at construction), each holding only its node. The CUDNs that name
 * the Uplink in `spec.uplinks` get their bridge mappings on those nodes. Given RouteAdvertisements,
 * each UplinkState also takes the cluster's network ids and manages the node's VRF membership.
 */
import * as pulumi from '@pulumi/pulumi';
import { uplinkStateName } from '../provider/runtime/kubernetes';
import { uplinkStateInputs, uplinkStateNodes, type YamlObject } from '../provider/runtime/pulumi';
import { type ClusterContext, requireClusterChild } from './context';
import { type KubernetesChild, kubernetesChild } from './kubernetes';
import type { InventoryObject, NetworkObject, RouteAdvertisementsObject, UplinkObject } from './objects';
import { UplinkState, type UplinkStateObject } from './resources';

export interface UplinkArgs {
  /** The cluster (its inventory, network objects and owner). */
  readonly cluster: ClusterContext;
  /** The Uplink object, as in YAML. Plain: its node selectors decide the children. */
  readonly uplink: UplinkObject;
  /** RouteAdvertisements objects (k8s.ovn.org/v1), as in YAML; each UplinkState keeps those selecting its CUDNs. */
  readonly routeAdvertisements?: pulumi.Input<RouteAdvertisementsObject[]>;
}

export type { RouteAdvertisementsObject };

/**
 * An Uplink: the pre-provisioned OVS bridge a CUDN's traffic leaves through, per node group. The
 * Cluster makes one per Uplink object it is given (never on its own: requireClusterChild).
 *
 * @example
 * const inventory: InventoryObject = { apiVersion: "ovnk/v1alpha1", kind: "Inventory", metadata: { name: "lab" },
 *   spec: { zones: "central", namespaces: [{ name: "red", labels: { tenant: "red" } }], nodes: [{ name: "node-1" }, { name: "node-2" }] } };
 * const cluster = new Cluster("lab", { inventory,
 *   uplinks: [{ apiVersion: "k8s.ovn.org/v1alpha1", kind: "Uplink", metadata: { name: "red" },
 *     spec: { nodeConfigs: [{ type: "OVSBridge", nodeSelector: {}, hostInterfaceName: "red0" }] } }],
 *   networks: [{ apiVersion: "k8s.ovn.org/v1", kind: "ClusterUserDefinedNetwork", metadata: { name: "tenant-red" },
 *     spec: { namespaceSelector: { matchLabels: { tenant: "red" } }, uplinks: ["red"],
 *             network: { topology: "Layer3", layer3: { role: "Primary", subnets: [{ cidr: "10.210.0.0/16" }] } } } }] });
 * const red = cluster.uplinks["red"] as Uplink;
 * export const redNodes = red.nodes; // the nodes with an UplinkState; their states come from create
 */
export class Uplink extends pulumi.ComponentResource {
  /** Nodes with an UplinkState, sorted. */
  readonly nodes: string[];
  /** The UplinkState resources by node name. */
  readonly states: Record<string, UplinkState> = {};
  /** Upstream's UplinkState objects (conditions), one per node, refreshed by `pulumi refresh`; Northbound mode only. */
  readonly uplinkStates: pulumi.Output<UplinkStateObject[]>;
  /** The UplinkState names ovnkube-node uses, by node (`<uplink>.<node>`, hashed past 253 characters). */
  readonly uplinkStateNames: Record<string, string>;
  /**
   * Kubernetes mode: the Uplink custom resource (ovnkube-node writes the UplinkStates), what it
   * says once read back, and its divergence.
   */
  readonly kubernetes?: KubernetesChild;

  constructor(name: string, args: UplinkArgs, opts?: pulumi.ComponentResourceOptions) {
    super('ovnk:uplink:Uplink', name, {}, opts);
    const key = args.uplink.metadata.name;
    const given = args.cluster.uplinkObjects.some((u) => u.metadata.name === key);
    requireClusterChild(
      'ovnk:uplink:Uplink',
      `Uplink/${key}`,
      given,
      args.cluster.uplinks[key],
      `cluster.uplinks["${key}"]`,
    );
    const [inventory, uplink] = [args.cluster.inventory as unknown as YamlObject, args.uplink as unknown as YamlObject];
    this.nodes = uplinkStateNodes(inventory, uplink);
    this.uplinkStateNames = Object.fromEntries(
      this.nodes.map((node) => [node, uplinkStateName(args.uplink.metadata.name, node)]),
    );
    const target = args.cluster.target;
    if (target.kind === 'kubernetes') {
      const body = args.uplink as unknown as Record<string, unknown>;
      this.kubernetes = kubernetesChild(this, `${name}-object`, body, target, {}, [args.cluster.allocationsResource]);
      this.uplinkStates = pulumi.output([]);
      this.registerOutputs({
        nodes: this.nodes,
        uplinkStateNames: this.uplinkStateNames,
        divergence: this.kubernetes.divergence,
      });
      return;
    }
    const vrf =
      args.routeAdvertisements === undefined
        ? {}
        : {
            routeAdvertisements: args.routeAdvertisements as pulumi.Input<Record<string, unknown>[]>,
            networkIds: args.cluster.allocationsResource.allocations.apply((a) => a.networkIds),
            // check keeps this node's subnets of advertised Layer3 networks (their routed flows)
            hostSubnets: args.cluster.allocationsResource.allocations.apply((a) => a.hostSubnets),
          };
    for (const node of this.nodes) {
      const input = uplinkStateInputs(inventory, uplink, args.cluster.networkObjects as unknown as YamlObject[], node);
      const props = {
        owner: `${args.cluster.owner}/uplink/${args.uplink.metadata.name}/${node}`,
        node,
        inventory: input.inventory as unknown as InventoryObject,
        uplink: args.uplink,
        networks: input.networks as unknown as NetworkObject[],
        ...vrf,
        ...(args.cluster.northbound ? { northbound: args.cluster.northbound } : {}),
      };
      this.states[node] = new UplinkState(`${name}-${node}`, props, { parent: this });
    }
    this.uplinkStates = pulumi.all(Object.values(this.states).map((s) => s.uplinkState));
    this.registerOutputs({ nodes: this.nodes, uplinkStates: this.uplinkStates });
  }
}
