/**
 * The OpenFlow flows a gateway bridge needs so the gateway routers patched into it reach the
 * segment and hear back (issue 20): upstream's shared-gateway flows of ovnkube-node
 * (go-controller/pkg/node/bridgeconfig/bridgeflows.go, `commonFlows`, the part an Uplink bridge
 * and a bridge without the default network get). Conntrack zone 64000 tells OVN's connections
 * (ct_mark = the network's mark) from the host's (ct_mark 0x2); frames to the shared MAC go to
 * every patch port and the host (ARP replies reach both); a network's packets leave SNATed from
 * its gateway router's masquerade address to the bridge's address (the UplinkState's on an Uplink
 * bridge, the node's on breth0). IPv4 only; upstream's service, egress-IP, no-overlay and
 * advertised-network flows are not rendered.
 *
 * Several owners may have networks on one bridge (issue 25), so the flows come in two kinds: a
 * network's own flows (its patch port's, its ct mark's) carry its owner's cookie, and the flows of
 * the bridge that every network needs (the shared MAC's fan-out to every patch port, the host's,
 * conntrack's entry and table 1's defaults) carry the shared cookie. Upstream's cookie is
 * 0xdeff105; ours all start with 0xa11 in the top 12 bits, so the runtime changes only flows of
 * ours, and of those only the owner's and the shared ones. Pure.
 */
import { fnv1a64 } from '../model/hash';

/** The top 12 bits of every cookie of ours (upstream's `DefaultOpenFlowCookie` is 0xdeff105). */
const cookieTag = 0xa11n << 52n;
const tagMask = 0xfffn << 52n;
const ownerBits = (1n << 52n) - 1n;
const hex = (n: bigint) => `0x${n.toString(16)}`;

/** `nodetypes.DefaultOpenFlowCookie`: ovnkube-node's flows, as ovs-ofctl prints the cookie. */
export const upstreamCookie = '0xdeff105';

/** The cookie of the flows every network of a bridge needs, whoever owns it. */
export const sharedCookie = hex(cookieTag);

/** The cookie of `owner`'s flows: the tag, and 52 bits of the FNV-1a of its name (never 0, the shared one's). */
export function ownerCookie(owner: string): string {
  const bits = BigInt(fnv1a64(owner)) & ownerBits;
  return hex(cookieTag | (bits === 0n ? 1n : bits));
}

/** `ovs-ofctl`'s match of every flow of ours, whoever's. */
export const anyOfOursMatch = `cookie=${hex(cookieTag)}/${hex(tagMask)}`;

/** Whether a flow's cookie (as ovs-ofctl prints it) is one of ours. */
export const isOurCookie = (cookie: string): boolean => (BigInt(cookie) & tagMask) === cookieTag;

/** `config.Default.ConntrackZone`. */
export const conntrackZone = 64000;
/** `nodetypes.CtMarkHost`. */
export const ctMarkHost = '0x2';
/** `nodetypes.OvnKubeNodeSNATMark`. */
export const nodeSnatPktMark = '0x3f0';
/** `ctMarkUDNBase` of gateway_udn.go: a UDN's ct mark is this plus its network id. */
export const ctMarkUdnBase = 3;

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
}

/** Table 0: frames to the shared MAC reach every patch port and NORMAL (ARP to both sides). */
export function sharedMacFlow(mac: string, patchPorts: readonly string[]): string {
  const outputs = patchPorts.map((p) => `output:${p},`).join('');
  return `cookie=${sharedCookie}, priority=10, table=0, dl_dst=${mac}, actions=${outputs}NORMAL`;
}

/** Table 0: what leaves a patch port must carry the shared MAC; the rest is dropped. */
function patchSourceFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork): string[] {
  return [
    `${cookie}, priority=10, table=0, in_port=${n.patchPort}, dl_src=${b.mac}, actions=output:NORMAL`,
    `${cookie}, priority=9, table=0, in_port=${n.patchPort}, actions=drop`,
  ];
}

/** One address family of the bridge: upstream's protoPrefixV4/V6 and the physical address of that family. */
interface Family {
  proto: 'ip' | 'ipv6';
  ip: string;
  masqOf: (n: BridgeNetwork) => string | undefined;
}

/** The families the bridge has an address in, IPv4 first (commonFlows: `if config.IPv4Mode`, then IPv6Mode). */
function familiesOf(b: Omit<BridgeFlowInput, 'networks'>): Family[] {
  const v4: Family[] = b.ip === undefined ? [] : [{ proto: 'ip', ip: b.ip, masqOf: (n) => n.gatewayRouterMasqIp }];
  const v6: Family[] = b.ip6 === undefined ? [] : [{ proto: 'ipv6', ip: b.ip6, masqOf: (n) => n.gatewayRouterMasqIp6 }];
  return [...v4, ...v6];
}

/** Table 0: a network's egress, committed with its mark and SNATed to the bridge's address. */
function egressFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork, f: Family): string[] {
  const masq = f.masqOf(n);
  if (masq === undefined) return [];
  const commit = `ct(commit, zone=${conntrackZone}, nat(src=${f.ip}), exec(set_field:${n.ctMark}->ct_mark))`;
  return [
    `${cookie}, priority=105, in_port=${n.patchPort}, dl_src=${b.mac}, ${f.proto}, pkt_mark=${nodeSnatPktMark} actions=${commit},output:${b.physicalPort}`,
    `${cookie}, priority=100, in_port=${n.patchPort}, dl_src=${b.mac}, ${f.proto}, ${f.proto}_src=${masq}, actions=${commit}, output:${b.physicalPort}`,
  ];
}

/** Table 1: replies of a network's connections go back to its patch port. */
function replyFlows(cookie: string, n: BridgeNetwork, f: Family): string[] {
  return ['+trk+est', '+trk+rel'].map(
    (state) =>
      `${cookie}, priority=100, table=1, ${f.proto}, ct_state=${state}, ct_mark=${n.ctMark}, actions=output:${n.patchPort}`,
  );
}

/** The flows of `b.networks` alone, with their owner's cookie: none of them matches another network's. */
export function networkFlows(owner: string, b: BridgeFlowInput): string[] {
  const cookie = `cookie=${ownerCookie(owner)}`;
  const families = familiesOf(b);
  return b.networks.flatMap((n) => [
    ...patchSourceFlows(cookie, b, n),
    ...families.flatMap((f) => egressFlows(cookie, b, n, f)),
    ...families.flatMap((f) => replyFlows(cookie, n, f)),
  ]);
}

/** `types.NeighborSolicitationICMPType`, `NeighborAdvertisementICMPType`, `RouteAdvertisementICMPType`. */
const icmp6 = { neighborSolicitation: 135, neighborAdvertisement: 136, routeAdvertisement: 134 };

/**
 * `arpFanoutFilterFlows` (bridgeflows.go), on a bridge that carries the default network: an ARP
 * request (a neighbour solicitation) for the bridge's address goes to the default network's patch
 * port and NORMAL only (priority 12), and a broadcast ARP (an unsolicited neighbour advertisement)
 * from outside to every patch port (priority 11), so the networks sharing the node's address do
 * not all answer for it.
 */
function arpFanoutFilterFlows(b: Omit<BridgeFlowInput, 'networks'>, patchPorts: readonly string[]): string[] {
  if (b.defaultPatchPort === undefined) return [];
  const cookie = `cookie=${sharedCookie}`;
  const all = patchPorts.map((p) => `output:${p},`).join('');
  const toDefault = `actions=output:${b.defaultPatchPort},NORMAL`;
  const fromOutside = `${cookie}, priority=11, table=0, in_port=${b.physicalPort}`;
  const v4 =
    b.ip === undefined
      ? []
      : [
          `${cookie}, priority=12, table=0, arp, arp_op=1, arp_tpa=${b.ip}, ${toDefault}`,
          `${fromOutside}, dl_dst=ff:ff:ff:ff:ff:ff, arp, actions=${all}NORMAL`,
        ];
  const v6 =
    b.ip6 === undefined
      ? []
      : [
          `${cookie}, priority=12, table=0, icmp6, icmpv6_type=${icmp6.neighborSolicitation}, nd_target=${b.ip6}, ${toDefault}`,
          `${fromOutside}, dl_dst=33:33:00:00:00:01, icmp6, icmpv6_type=${icmp6.neighborAdvertisement}, actions=${all}NORMAL`,
        ];
  return [...v4, ...v6];
}

/** Per family: the host's traffic committed with the host mark, and what comes in for the MAC through conntrack. */
function hostAndIngressFlows(b: Omit<BridgeFlowInput, 'networks'>, f: Family): string[] {
  const cookie = `cookie=${sharedCookie}`;
  return [
    `${cookie}, priority=100, in_port=${b.hostPort}, ${f.proto}, actions=ct(commit, zone=${conntrackZone}, exec(set_field:${ctMarkHost}->ct_mark)), output:${b.physicalPort}`,
    `${cookie}, priority=50, ${f.proto}, dl_dst=${b.mac}, actions=ct(zone=${conntrackZone}, nat, table=1)`,
  ];
}

/**
 * Table 1 with IPv6: router and neighbour advertisements are flooded, and sent to every network's
 * patch port first (commonFlows: "CUDN patches are no-flood so FLOOD alone won't reach them").
 */
function icmp6FloodFlows(patchPorts: readonly string[]): string[] {
  const outputs = patchPorts.map((p) => `output:${p},`).join('');
  return [icmp6.routeAdvertisement, icmp6.neighborAdvertisement].map(
    (type) => `cookie=${sharedCookie}, priority=14, table=1,icmp6,icmpv6_type=${type} actions=${outputs}FLOOD`,
  );
}

/**
 * The flows every network of the bridge needs, with the shared cookie: the shared MAC's fan-out to
 * `patchPorts` (every network's on the bridge, whoever owns it, and the default network's first
 * where the bridge carries it: `commonFlows` iterates `patchedNetConfigs`, the default's
 * included), the ARP fan-out filter beside the default network, per address family the host's
 * traffic and conntrack's entry, and table 1's host, IPv6 advertisement and NORMAL defaults.
 */
export function bridgeSharedFlows(b: Omit<BridgeFlowInput, 'networks'>, patchPorts: readonly string[]): string[] {
  const cookie = `cookie=${sharedCookie}`;
  const all = b.defaultPatchPort === undefined ? patchPorts : [b.defaultPatchPort, ...patchPorts];
  return [
    sharedMacFlow(b.mac, all),
    ...arpFanoutFilterFlows(b, all),
    ...familiesOf(b).flatMap((f) => hostAndIngressFlows(b, f)),
    `${cookie}, priority=10, table=1, dl_dst=${b.mac}, actions=output:${b.hostPort}`,
    ...(b.ip6 === undefined ? [] : icmp6FloodFlows(patchPorts)),
    `${cookie}, priority=0, table=1, actions=output:NORMAL`,
  ];
}

/**
 * The flows of one gateway bridge when `owner`'s networks are all it carries, in upstream's text;
 * none when no network is (the bridge is left to its own flows, as upstream's reset to NORMAL
 * leaves it).
 */
export function bridgeFlows(owner: string, b: BridgeFlowInput): string[] {
  if (b.networks.length === 0) return [];
  const ports = b.networks.map((n) => n.patchPort);
  return [...bridgeSharedFlows(b, ports), ...networkFlows(owner, b)];
}
