/**
 * The OpenFlow flows a gateway bridge needs so the gateway routers patched into it reach the
 * segment and hear back (issue 20): upstream's shared-gateway flows of ovnkube-node
 * (go-controller/pkg/node/bridgeconfig/bridgeflows.go, `commonFlows`, the part an Uplink bridge
 * and a bridge without the default network get). Conntrack zone 64000 tells OVN's connections
 * (ct_mark = the network's mark) from the host's (ct_mark 0x2); frames to the shared MAC go to
 * every patch port and the host (ARP replies reach both); a network's packets leave SNATed from
 * its gateway router's masquerade address to the bridge's address (the UplinkState's on an Uplink
 * bridge, the node's on breth0). IPv4 only; upstream's service, egress-IP, no-overlay and
 * advertised-network flows are not rendered. The cookie is ours, not upstream's 0xdeff105: the
 * runtime changes only flows carrying it. Pure.
 */

/** The cookie of every flow we write (upstream's `DefaultOpenFlowCookie` is 0xdeff105). */
export const flowCookie = '0xa11';
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
}

const cookie = `cookie=${flowCookie}`;

/** Table 0: frames to the shared MAC reach every patch port and NORMAL (ARP to both sides). */
function sharedMacFlows(b: BridgeFlowInput): string[] {
  const outputs = b.networks.map((n) => `output:${n.patchPort},`).join('');
  return [`${cookie}, priority=10, table=0, dl_dst=${b.mac}, actions=${outputs}NORMAL`];
}

/** Table 0: what leaves a patch port must carry the shared MAC; the rest is dropped. */
function patchSourceFlows(b: BridgeFlowInput, n: BridgeNetwork): string[] {
  return [
    `${cookie}, priority=10, table=0, in_port=${n.patchPort}, dl_src=${b.mac}, actions=output:NORMAL`,
    `${cookie}, priority=9, table=0, in_port=${n.patchPort}, actions=drop`,
  ];
}

/** Table 0: a network's egress, committed with its mark and SNATed to the bridge's address. */
function egressFlows(b: BridgeFlowInput, n: BridgeNetwork): string[] {
  const commit = `ct(commit, zone=${conntrackZone}, nat(src=${b.ip}), exec(set_field:${n.ctMark}->ct_mark))`;
  return [
    `${cookie}, priority=105, in_port=${n.patchPort}, dl_src=${b.mac}, ip, pkt_mark=${nodeSnatPktMark} actions=${commit},output:${b.physicalPort}`,
    `${cookie}, priority=100, in_port=${n.patchPort}, dl_src=${b.mac}, ip, ip_src=${n.gatewayRouterMasqIp}, actions=${commit}, output:${b.physicalPort}`,
  ];
}

/** Table 0: the host's own traffic, committed with the host mark; what comes in goes through conntrack. */
function hostAndIngressFlows(b: BridgeFlowInput): string[] {
  return [
    `${cookie}, priority=100, in_port=${b.hostPort}, ip, actions=ct(commit, zone=${conntrackZone}, exec(set_field:${ctMarkHost}->ct_mark)), output:${b.physicalPort}`,
    `${cookie}, priority=50, ip, dl_dst=${b.mac}, actions=ct(zone=${conntrackZone}, nat, table=1)`,
  ];
}

/** Table 1: replies of a network's connections go back to its patch port; the host gets the rest. */
function replyFlows(b: BridgeFlowInput): string[] {
  const toNetworks = b.networks.flatMap((n) =>
    ['+trk+est', '+trk+rel'].map(
      (state) =>
        `${cookie}, priority=100, table=1, ip, ct_state=${state}, ct_mark=${n.ctMark}, actions=output:${n.patchPort}`,
    ),
  );
  return [
    `${cookie}, priority=10, table=1, dl_dst=${b.mac}, actions=output:${b.hostPort}`,
    ...toNetworks,
    `${cookie}, priority=0, table=1, actions=output:NORMAL`,
  ];
}

/**
 * The flows of one gateway bridge for the networks patched into it, in upstream's text; none when
 * no network is (the bridge is left to its own flows, as upstream's reset to NORMAL leaves it).
 */
export function bridgeFlows(b: BridgeFlowInput): string[] {
  if (b.networks.length === 0) return [];
  return [
    ...sharedMacFlows(b),
    ...b.networks.flatMap((n) => patchSourceFlows(b, n)),
    ...b.networks.flatMap((n) => egressFlows(b, n)),
    ...hostAndIngressFlows(b),
    ...replyFlows(b),
  ];
}
