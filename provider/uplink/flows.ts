/**
 * The OpenFlow flows a gateway bridge needs so the gateway routers patched into it reach the
 * segment and hear back (issue 20): upstream's shared-gateway flows of ovnkube-node
 * (go-controller/pkg/node/bridgeconfig/bridgeflows.go, `commonFlows`, the part an Uplink bridge
 * and a bridge without the default network get). Conntrack zone 64000 tells OVN's connections
 * (ct_mark = the network's mark) from the host's (ct_mark 0x2); frames to the shared MAC go to
 * every patch port and the host (ARP replies reach both); a network's packets leave SNATed from
 * its gateway router's masquerade address to the bridge's address (the UplinkState's on an Uplink
 * bridge, the node's on breth0), IPv4 and IPv6. Beside them: commonFlows' NoOverlay, EgressIP and
 * advertised-network flows (routedFlows.ts) and the service flows of tables 0, 2 and 3
 * (serviceFlows.ts: uplinkHostServiceFlows on an Uplink bridge, flowsForDefaultBridge's UDN part
 * on breth0).
 *
 * Several owners may have networks on one bridge (issue 25), so the flows come in two kinds: a
 * network's own flows (its patch port's, its ct mark's) carry its owner's cookie, and the flows of
 * the bridge that every network needs (the shared MAC's fan-out to every patch port, the host's,
 * conntrack's entry and table 1's defaults) carry the shared cookie. Upstream's cookie is
 * 0xdeff105; ours all start with 0xa11 in the top 12 bits, so the runtime changes only flows of
 * ours, and of those only the owner's and the shared ones. Pure.
 */
import { ownerCookie, sharedCookie } from './cookies';
import {
  type BridgeFlowInput,
  type BridgeNetwork,
  conntrackZone,
  ctMarkHost,
  type Family,
  familiesOf,
  nodeSnatPktMark,
} from './flowInput';
import { routedFlows } from './routedFlows';
import { networkServiceFlows, sharedServiceFlows } from './serviceFlows';

export * from './cookies';
export * from './flowInput';

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
    ...routedFlows(cookie, b, n),
    ...networkServiceFlows(cookie, b, n),
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
    ...sharedServiceFlows(b),
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
