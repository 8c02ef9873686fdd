/**
 * The service flows of a gateway bridge's user-defined networks (go-controller/pkg/node/
 * bridgeconfig/bridgeflows.go), tables 0, 2 and 3: host traffic to a ClusterIP enters OVN through
 * the right network's patch port (table 2), and the replies go back to the host with the bridge's
 * MAC (table 3). An Uplink bridge gets uplinkHostServiceFlows (host traffic marked with the
 * network's packet mark); breth0 gets the UDN part of flowsForDefaultBridge (host traffic from the
 * masquerade subnet, the drop of traffic from the network's management masquerade address, and
 * for an advertised network its subnets). The default network's own service flows (table 2's
 * priority 100, tables 4 and 5, the hairpins to the node address) are ovnkube-node's and not
 * rendered. Flows that name a network carry its owner's cookie; table 3 and breth0's
 * masquerade-subnet entry carry the shared cookie. Pure.
 */
import { sharedCookie } from './cookies';
import { type BridgeFlowInput, type BridgeNetwork, hostMasqConntrackZone, type ServiceFamily } from './flowInput';

const proto = (cidr: string): 'ip' | 'ipv6' => (cidr.includes(':') ? 'ipv6' : 'ip');

/** The bridge's families (IPv4Mode, IPv6Mode) as protocol prefixes. */
const modes = (b: BridgeFlowInput): ('ip' | 'ipv6')[] => [
  ...(b.ip === undefined ? [] : ['ip' as const]),
  ...(b.ip6 === undefined ? [] : ['ipv6' as const]),
];

/** Priority 500 (replies from OVN to the host, unSNATed in table 3) and 115 (other traffic to services: dropped). */
function replyAndDropFlows(cookie: string, n: BridgeNetwork, s: ServiceFamily): string[] {
  const p = proto(s.cidr);
  return [
    `${cookie}, priority=500, in_port=${n.patchPort}, ${p}, ${p}_src=${s.cidr}, ${p}_dst=${s.masqueradeSubnet},actions=ct(zone=${hostMasqConntrackZone},nat,table=3)`,
    `${cookie}, priority=115, in_port=${n.patchPort}, ${p}, ${p}_dst=${s.cidr},actions=drop`,
  ];
}

/** Table 2 priority 250: host traffic with the network's packet mark goes to its patch port. */
function dispatchFlow(cookie: string, b: BridgeFlowInput, n: BridgeNetwork, p: 'ip' | 'ipv6'): string {
  return `${cookie}, priority=250, table=2, ${p}, pkt_mark=${n.pktMark}, actions=set_field:${b.mac}->eth_dst,output:${n.patchPort}`;
}

/**
 * uplinkHostServiceFlows, one network: host traffic marked with its packet mark, SNATed to the host
 * masquerade address.
 */
function uplinkNetworkFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork): string[] {
  if (n.pktMark === undefined) return [];
  const entry = (s: ServiceFamily) => {
    const p = proto(s.cidr);
    return `${cookie}, priority=500, in_port=${b.hostPort}, ${p}, pkt_mark=${n.pktMark}, ${p}_dst=${s.cidr}, actions=ct(commit,zone=${hostMasqConntrackZone},nat(src=${s.hostMasqIp}),table=2)`;
  };
  const services = b.services ?? [];
  return [
    ...services.flatMap((s) => [entry(s), ...replyAndDropFlows(cookie, n, s)]),
    ...modes(b).map((p) => dispatchFlow(cookie, b, n, p)),
  ];
}

/** flowsForDefaultBridge's flows of one user-defined network on breth0. */
function gatewayNetworkFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork): string[] {
  const services = b.services ?? [];
  const advertised = n.advertised ? (n.subnets ?? []) : [];
  // an advertised network's pods reach services unSNATed: from its subnets, not the masquerade subnet
  const fromSubnets = services.flatMap((s) =>
    advertised
      .filter((c) => proto(c) === proto(s.cidr))
      .map(
        (c) =>
          `${cookie}, priority=550, in_port=${b.hostPort}, ${proto(c)}, ${proto(c)}_src=${c}, ${proto(c)}_dst=${s.cidr}, actions=ct(commit,zone=${hostMasqConntrackZone},table=2)`,
      ),
  );
  const table2 = modes(b).flatMap((p) => {
    const mgmt = p === 'ip' ? n.managementMasqIp : n.managementMasqIp6;
    return [
      ...advertised
        .filter((c) => proto(c) === p)
        .map((c) => `${cookie}, priority=200, table=2, ${p}, ${p}_src=${c}, actions=drop`),
      ...(mgmt === undefined ? [] : [`${cookie}, priority=200, table=2, ${p}, ${p}_src=${mgmt}, actions=drop`]),
      ...(n.pktMark === undefined ? [] : [dispatchFlow(cookie, b, n, p)]),
    ];
  });
  return [...fromSubnets, ...services.flatMap((s) => replyAndDropFlows(cookie, n, s)), ...table2];
}

/** The service flows of one network of the bridge, with its owner's `cookie` (`cookie=0x…`). */
export function networkServiceFlows(cookie: string, b: BridgeFlowInput, n: BridgeNetwork): string[] {
  if (b.kind === 'uplink') return uplinkNetworkFlows(cookie, b, n);
  if (b.kind === 'gateway') return gatewayNetworkFlows(cookie, b, n);
  return [];
}

/**
 * The service flows every network of the bridge shares: table 3, and on breth0 the masquerade
 * subnet's entry to table 2.
 */
export function sharedServiceFlows(b: Omit<BridgeFlowInput, 'networks'>): string[] {
  if (b.kind === undefined) return [];
  const cookie = `cookie=${sharedCookie}`;
  const table3 = `${cookie}, table=3,  actions=move:NXM_OF_ETH_DST[]->NXM_OF_ETH_SRC[],set_field:${b.mac}->eth_dst,output:${b.hostPort}`;
  if (b.kind === 'uplink') return [table3];
  const fromMasquerade = (b.services ?? []).map((s) => {
    const p = proto(s.cidr);
    return `${cookie}, priority=550, in_port=${b.hostPort}, ${p}, ${p}_src=${s.masqueradeSubnet}, ${p}_dst=${s.cidr}, actions=ct(commit,zone=${hostMasqConntrackZone},table=2)`;
  });
  return [...fromMasquerade, table3];
}
