/**
 * What the gateway bridge flows are rendered from (provider/uplink/flows.ts and the files of its
 * flow families): the bridge's ports, MAC and addresses, its networks, and upstream's constants.
 * Pure.
 */

/** `config.Default.ConntrackZone`. */
export const conntrackZone = 64000;
/** `nodetypes.CtMarkHost`. */
export const ctMarkHost = '0x2';
/** `nodetypes.OvnKubeNodeSNATMark`. */
export const nodeSnatPktMark = '0x3f0';
/** `ctMarkUDNBase` of gateway_udn.go: a UDN's ct mark is this plus its network id. */
export const ctMarkUdnBase = 3;
/** `config.Default.HostMasqConntrackZone` (ConntrackZone + 1). */
export const hostMasqConntrackZone = 64001;
/** `pktMarkBase` of gateway_udn.go: a UDN's packet mark is this plus its network id. */
export const pktMarkBase = 4096;

/** `pktMark := pktMarkBase + uint(networkID)`, printed `0x%x` (gateway_udn.go, bridgeconfig.go AddNetworkConfig). */
export function udnPktMark(networkId: number): string {
  return `0x${(pktMarkBase + networkId).toString(16)}`;
}

/** `masqCTMark := ctMarkUDNBase + uint(networkID)`, printed `0x%x` (gateway_udn.go, bridgeconfig.go). */
export function masqCtMark(networkId: number): string {
  return `0x${(ctMarkUdnBase + networkId).toString(16)}`;
}

export interface BridgeNetwork {
  /** OVN network name (`cluster_udn_<cudn>`). */
  network: string;
  /** The ofport of ovn-controller's patch port of this network on the bridge. */
  patchPort: string;
  ctMark: string;
  /** The network's gateway-router masquerade IPv4 address (its GR SNATs pods to it). */
  gatewayRouterMasqIp?: string;
  /** The same in IPv6, from the Inventory's IPv6 masquerade subnet. */
  gatewayRouterMasqIp6?: string;
  /** The network's management-port masquerade addresses (`V4MasqIPs.ManagementPort`, V6). */
  managementMasqIp?: string;
  managementMasqIp6?: string;
  /** The network's packet mark (udnPktMark); none: no service flows for it. */
  pktMark?: string;
  /** The network's subnets (`netConfig.Subnets`): the EgressIP drop and the advertised table-2 drops. */
  subnets?: string[];
  /** This node's subnets of the network (`netConfig.NodeSubnets`: the Layer3 host subnet, the Layer2 subnets). */
  nodeSubnets?: string[];
  /** `netConfig.Advertised`: a RouteAdvertisements advertises its pod network (NoOverlay and EVPN count). */
  advertised?: boolean;
  /** `netConfig.Transport == no-overlay`. */
  noOverlay?: boolean;
}

/** A service CIDR with the host masquerade address and masquerade subnet of its family (config.Gateway). */
export interface ServiceFamily {
  cidr: string;
  /** `V4HostMasqueradeIP` / `V6HostMasqueradeIP`: the masquerade subnet's second address. */
  hostMasqIp: string;
  masqueradeSubnet: string;
}

export interface BridgeFlowInput {
  /** The ofport of the bridge's physical uplink. */
  physicalPort: string;
  /** The ofport (or `LOCAL`) of the host interface holding the MAC and address. */
  hostPort: string;
  /** The MAC the host interface and the gateway routers share. */
  mac: string;
  /** The bridge's IPv4 address: what egress is SNATed to (none: no IPv4 flows, as upstream without IPv4Mode). */
  ip?: string;
  /** The bridge's IPv6 address: what IPv6 egress is SNATed to (none: no IPv6 flows). */
  ip6?: string;
  networks: BridgeNetwork[];
  /**
   * The ofport of the default network's patch port (`patch-breth0_<node>-to-br-int`) when the
   * bridge carries that network too; its own flows are ovnkube-node's, but the flows every network
   * shares must name it.
   */
  defaultPatchPort?: string;
  /**
   * Which of upstream's renderers the bridge gets besides commonFlows: `uplink` (UplinkBridgeFlows:
   * uplinkHostServiceFlows) or `gateway` (breth0, DefaultBridgeFlows: the UDN part of
   * flowsForDefaultBridge); none: commonFlows alone.
   */
  kind?: 'uplink' | 'gateway';
  /** `config.Kubernetes.ServiceCIDRs`, with their families' masquerade addresses: the service flows. */
  services?: ServiceFamily[];
  /** Upstream's --enable-egress-ip: the priority-103 drop of pod traffic not SNATed. */
  egressIP?: boolean;
  /** Local gateway mode (`config.Gateway.Mode`); default shared. */
  localGateway?: boolean;
}

/** One address family of the bridge: upstream's protoPrefixV4/V6 and the physical address of that family. */
export interface Family {
  proto: 'ip' | 'ipv6';
  ip: string;
  masqOf: (n: BridgeNetwork) => string | undefined;
}

/** The families the bridge has an address in, IPv4 first (commonFlows: `if config.IPv4Mode`, then IPv6Mode). */
export function familiesOf(b: Omit<BridgeFlowInput, 'networks'>): Family[] {
  const v4: Family[] = b.ip === undefined ? [] : [{ proto: 'ip', ip: b.ip, masqOf: (n) => n.gatewayRouterMasqIp }];
  const v6: Family[] = b.ip6 === undefined ? [] : [{ proto: 'ipv6', ip: b.ip6, masqOf: (n) => n.gatewayRouterMasqIp6 }];
  return [...v4, ...v6];
}
