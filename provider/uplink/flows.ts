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
  gatewayRouterMasqIp: string;
}

export interface BridgeFlowInput {
  /** The ofport of the bridge's physical uplink. */
  physicalPort: string;
  /** The ofport (or `LOCAL`) of the host interface holding the MAC and address. */
  hostPort: string;
  /** The MAC the host interface and the gateway routers share. */
  mac: string;
  /** The bridge's IPv4 address: what egress is SNATed to. */
  ip: string;
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

/** Table 0: a network's egress, committed with its mark and SNATed to the bridge's address. */
function egressFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork): string[] {
  const commit = `ct(commit, zone=${conntrackZone}, nat(src=${b.ip}), exec(set_field:${n.ctMark}->ct_mark))`;
  return [
    `${cookie}, priority=105, in_port=${n.patchPort}, dl_src=${b.mac}, ip, pkt_mark=${nodeSnatPktMark} actions=${commit},output:${b.physicalPort}`,
    `${cookie}, priority=100, in_port=${n.patchPort}, dl_src=${b.mac}, ip, ip_src=${n.gatewayRouterMasqIp}, actions=${commit}, output:${b.physicalPort}`,
  ];
}

/** Table 1: replies of a network's connections go back to its patch port. */
function replyFlows(cookie: string, n: BridgeNetwork): string[] {
  return ['+trk+est', '+trk+rel'].map(
    (state) =>
      `${cookie}, priority=100, table=1, ip, ct_state=${state}, ct_mark=${n.ctMark}, actions=output:${n.patchPort}`,
  );
}

/** The flows of `b.networks` alone, with their owner's cookie: none of them matches another network's. */
export function networkFlows(owner: string, b: BridgeFlowInput): string[] {
  const cookie = `cookie=${ownerCookie(owner)}`;
  return b.networks.flatMap((n) => [
    ...patchSourceFlows(cookie, b, n),
    ...egressFlows(cookie, b, n),
    ...replyFlows(cookie, n),
  ]);
}

/**
 * `arpFanoutFilterFlows` (bridgeflows.go), on a bridge that carries the default network: an ARP
 * request for the bridge's address goes to the default network's patch port and NORMAL only
 * (priority 12), and a broadcast ARP from outside to every patch port (priority 11), so the
 * networks sharing the node's address do not all answer for it.
 */
function arpFanoutFilterFlows(b: Omit<BridgeFlowInput, 'networks'>, patchPorts: readonly string[]): string[] {
  if (b.defaultPatchPort === undefined) return [];
  const all = patchPorts.map((p) => `output:${p},`).join('');
  return [
    `cookie=${sharedCookie}, priority=12, table=0, arp, arp_op=1, arp_tpa=${b.ip}, actions=output:${b.defaultPatchPort},NORMAL`,
    `cookie=${sharedCookie}, priority=11, table=0, in_port=${b.physicalPort}, dl_dst=ff:ff:ff:ff:ff:ff, arp, actions=${all}NORMAL`,
  ];
}

/**
 * The flows every network of the bridge needs, with the shared cookie: the shared MAC's fan-out to
 * `patchPorts` (every network's on the bridge, whoever owns it, and the default network's first
 * where the bridge carries it: `commonFlows` iterates `patchedNetConfigs`, the default's
 * included), the ARP fan-out filter beside the default network, the host's traffic committed with
 * the host mark, what comes in through conntrack, and table 1's host and NORMAL defaults.
 */
export function bridgeSharedFlows(b: Omit<BridgeFlowInput, 'networks'>, patchPorts: readonly string[]): string[] {
  const cookie = `cookie=${sharedCookie}`;
  const all = b.defaultPatchPort === undefined ? patchPorts : [b.defaultPatchPort, ...patchPorts];
  return [
    sharedMacFlow(b.mac, all),
    ...arpFanoutFilterFlows(b, all),
    `${cookie}, priority=100, in_port=${b.hostPort}, ip, actions=ct(commit, zone=${conntrackZone}, exec(set_field:${ctMarkHost}->ct_mark)), output:${b.physicalPort}`,
    `${cookie}, priority=50, ip, dl_dst=${b.mac}, actions=ct(zone=${conntrackZone}, nat, table=1)`,
    `${cookie}, priority=10, table=1, dl_dst=${b.mac}, actions=output:${b.hostPort}`,
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
