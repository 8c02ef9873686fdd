/**
 * The renderer's input: plain, already-allocated data for one network in one zone. The runtime
 * maps model + alloc results into this shape; nothing here is computed by the renderer except
 * what upstream derives (names, MACs, join/transit/masquerade addresses).
 */
import type { Topology } from '../alloc/connectSubnets';
import type { Service } from '../model/inventory';
import type { Zone } from '../model/zones';

/** Upstream's internal topology names (`layer3`, `layer2`), declared once in alloc. */
export type { Topology };
/** What a network renders as: upstream's TopologyType, `localnet` included (secondary only). */
export type NetworkTopology = Topology | 'localnet';
/** Upstream's network roles (`k8s.ovn.org/role`). */
export type NetworkRole = 'primary' | 'secondary';
export type IPFamilyName = 'ipv4' | 'ipv6';

export interface ClusterInput {
  /** The cluster's IP families: join and masquerade addresses follow these, not the network's. */
  ipFamilies: IPFamilyName[];
  /** One masquerade subnet per cluster family (UDN clusters: 169.254.0.0/17, fd69::/112). */
  masqueradeSubnets: string[];
  /** Shared (SGW) or local (LGW) gateway mode: where pod egress is routed. */
  gatewayMode: 'shared' | 'local';
  /** Layer3 transit-switch subnets (interconnect); default 100.88.0.0/16 and fd97::/64. */
  transitSwitchSubnets?: string[];
  /** SNAT port range (`external_port_range`) of nodes without their own; default 32768-60999, "" none. */
  ephemeralPortRange?: string;
  /** The cluster MTU (upstream's config.Default.MTU): `gateway_mtu` of router ports; default 1400. */
  mtu?: number;
  /** `network_name` of the localnet ports; default `physnet`. */
  physicalNetworkName?: string;
}

export interface SubnetInput {
  cidr: string;
  /** Layer3 only: the prefix length of each node's host subnet. */
  hostSubnetLength?: number;
}

export interface NetworkInput {
  /** Raw OVN network name (`cluster_udn_blue`, `ns_name`); `k8s.ovn.org/network` carries it. */
  name: string;
  topology: NetworkTopology;
  /**
   * Default primary. A secondary network renders as upstream's secondary controllers do: no join
   * switch, gateway routers, management ports or port groups (provider/topology/secondary.ts).
   */
  role?: NetworkRole;
  /** Localnet only: the access VLAN of its localnet port (`tag_request`); absent or 0 means none. */
  vlan?: number;
  /** Network id (1..4095), from the allocator. */
  id: number;
  /** Empty only for a secondary Layer2 or Localnet network without IPAM. */
  subnets: SubnetInput[];
  /** Primary only: one join subnet per cluster family (defaults 100.65.0.0/16, fd99::/64). */
  joinSubnets: string[];
  /** Primary Layer2 only: transit subnets (see transit.ts for the default and its shift). */
  transitSubnets?: string[];
  mtu: number;
  /** Primary Layer2 only: datapath keys, switch = 16711683 + id, transit router from the cluster range. */
  tunnelKeys?: { switch: number; transitRouter: number };
  /** NAD keys (`namespace/name`) that attach pods to this network. */
  nadKeys: string[];
  /**
   * `network_name` of this network's localnet ports, overriding the cluster's: an Uplink-backed
   * CUDN uses its own OVN network name, the physical network of its bridge mapping (upstream,
   * uplink-upstream.md section 4.2); a Localnet network its `physicalNetworkName` (default: its
   * own name, localnetPortNetworkNameOptions).
   */
  physicalNetworkName?: string;
  /**
   * An Uplink-backed CUDN (OKEP-6019): its Uplink and, per node, the external side of its gateway
   * router from the node's UplinkState (provider/uplink/routerGateway.ts), replacing the node's
   * own gateway. A node without one (not discovered, not resolved) gets none of the gateway
   * (nodeContext.ts gatewayWaits), as upstream waits for the UplinkState
   * (go-controller/pkg/ovn/uplink_gateway.go) and never reaches SyncGateway.
   */
  uplink?: { name: string; gateways: Record<string, GatewayInput> };
  /**
   * Nodes the network is active on (Dynamic UDN; the Inventory's `spec.nodes[].networks`);
   * absent: every node. Inactive nodes get no rows of the network, local or remote.
   */
  activeNodes?: string[];
  /** The ClusterIP services of the network's namespaces: its load balancers in `<P>clusterLBGroup`. */
  services?: Service[];
  /** Upstream's transport names (`no-overlay`, `evpn`); absent: the Geneve interconnect overlay. */
  transport?: Transport;
  /** NoOverlay only: `spec.noOverlay.outboundSNAT: Enabled`. */
  outboundSNAT?: boolean;
  /**
   * A RouteAdvertisements advertises the network's pod network (PodNetwork; it has no node
   * selector, so on every node). NoOverlay and EVPN networks count as advertised without one.
   */
  podNetworkAdvertised?: boolean;
  /**
   * Primary Layer2 with the Inventory's enablePreconfiguredUDNAddresses only (upstream reads the
   * fields only then): the gateway and management addresses follow them (infrastructure.ts).
   */
  preconfigured?: { defaultGatewayIPs?: string[]; infrastructureSubnets?: string[] };
}

export type Transport = 'no-overlay' | 'evpn';

export interface GatewayInput {
  /** The gateway bridge, e.g. `breth0`. */
  bridge: string;
  /** The bridge MAC (`k8s.ovn.org/l3-gateway-config` mac-address). */
  mac: string;
  /** Node IPs with prefix, e.g. `172.18.0.2/16`. */
  ips: string[];
  /** Default-route next hops, bare addresses. */
  nextHops: string[];
  /** VLAN id of the localnet port; 0 or absent means none. */
  vlan?: number;
}

export interface NodeInput {
  name: string;
  /** Node id (2..5000), from the allocator. */
  id: number;
  /** The chassis (OVS system-id) the node's gateway router and ports bind to. */
  chassisId: string;
  /** Layer3 host subnets per network name. */
  hostSubnets?: Record<string, string[]>;
  /** Gateway details when known; without them the external side of the GR is not rendered. */
  gateway?: GatewayInput;
  /** Override of the node's transit-switch addresses (upstream's annotation); default base + id. */
  transitSwitchIPs?: string[];
  /** Whether the node supports gateway_mtu (upstream's annotation); default true. */
  gatewayMtuSupport?: boolean;
  /** The node's SNAT port range; default the cluster's. */
  ephemeralPortRange?: string;
  /** Primary Layer2: `1.0` renders the topology before the transit router (layer2Upgrade.ts); default `2.0`. */
  layer2TopologyVersion?: '1.0' | '2.0';
  /** Per network name, the old topology's gateway-router port key on the layer2 switch (layer2Upgrade.ts). */
  layer2GatewayTunnelIds?: Record<string, number>;
}

export interface PodInput {
  name: string;
  namespace: string;
  node: string;
  /** NAD key `namespace/name` the pod is attached through. */
  nadKey: string;
  /** Assigned addresses, bare (see pod-ips.ts). */
  ips: string[];
  /** Default: derived from the first IP, as upstream. */
  mac?: string;
  /** Pod UID: `iface-id-ver` when given. */
  uid?: string;
  /** Layer2 interconnect: the pod's tunnel id (`requested-tnl-key`). */
  tunnelId?: number;
}

export interface RenderInput {
  cluster: ClusterInput;
  network: NetworkInput;
  nodes: NodeInput[];
  zone: Zone;
  pods?: PodInput[];
}
