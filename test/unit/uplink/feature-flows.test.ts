/**
 * Issue 26 point 11: the gateway bridge flows beyond plain egress, against upstream's flow strings
 * (go-controller/pkg/node/bridgeconfig/bridgeflows.go and bridgeflows_test.go at the pin), with
 * our cookies (the owner's on a network's flows, the shared one on the bridge's).
 */
import { describe, expect, it } from 'vitest';
import { bridgeFlows, ownerCookie, sharedCookie, udnPktMark } from '../../../provider/uplink/flows';
import { canonicalFlow } from '../../../provider/uplink/flowText';

const mac = '62:41:d0:54:3d:64';
/** config.Gateway's defaults at the pin (config.go): 169.254.169.0/29 and fd69::/125, host masquerade .2 / ::2. */
const services = [
  { cidr: '10.96.0.0/16', hostMasqIp: '169.254.169.2', masqueradeSubnet: '169.254.169.0/29' },
  { cidr: 'fd10:96::/112', hostMasqIp: 'fd69::2', masqueradeSubnet: 'fd69::/125' },
];
const bluenet = {
  network: 'bluenet',
  ctMark: '0x4',
  gatewayRouterMasqIp: '169.254.0.11',
  gatewayRouterMasqIp6: 'fd69::11',
  managementMasqIp: '169.254.0.12',
  managementMasqIp6: 'fd69::12',
};
const owner = 'blue-owner';
const mine = (flows: string[]) =>
  flows
    .filter((f) => f.startsWith(`cookie=${ownerCookie(owner)}, `))
    .map((f) => f.replace(/^cookie=0x[0-9a-f]+, /, ''));
const shared = (flows: string[]) =>
  flows.filter((f) => f.startsWith(`cookie=${sharedCookie}, `)).map((f) => f.replace(/^cookie=0x[0-9a-f]+, /, ''));

describe('the packet mark of a network', () => {
  it('is pktMarkBase (4096) plus the network id, in hex, as gateway_udn.go derives it', () => {
    expect(udnPktMark(1)).toBe('0x1001');
  });
});

describe("a NoOverlay network's flows on breth0 (TestSharedNoOverlayNodeIPFlowUsesNATInDefaultConntrackZone)", () => {
  const bridge = {
    physicalPort: 'eth0',
    hostPort: 'LOCAL',
    mac,
    ip: '172.18.0.3',
    ip6: 'fd00::3',
    networks: [{ ...bluenet, patchPort: 'patch-breth0_bluenet', noOverlay: true }],
  };

  it("commit what the gateway router already SNATed to the node address in zone 64000 and send it out, per family, with the owner's cookie", () => {
    const flows = mine(bridgeFlows(owner, bridge));
    expect(flows).toContain(
      `priority=99, in_port=patch-breth0_bluenet, dl_src=${mac}, ip, nw_src=172.18.0.3, ` +
        'actions=ct(commit, zone=64000, nat(src=172.18.0.3), exec(set_field:0x4->ct_mark)), output:eth0',
    );
    expect(flows).toContain(
      `priority=99, in_port=patch-breth0_bluenet, dl_src=${mac}, ipv6, ipv6_src=fd00::3, ` +
        'actions=ct(commit, zone=64000, nat(src=fd00::3), exec(set_field:0x4->ct_mark)), output:eth0',
    );
  });

  it('are absent in local gateway mode and for a Geneve network (commonFlows: NoOverlay and GatewayModeShared only)', () => {
    expect(bridgeFlows(owner, { ...bridge, localGateway: true }).some((f) => f.includes('priority=99,'))).toBe(false);
    const geneve = { ...bridge, networks: [{ ...bridge.networks[0]!, noOverlay: false }] };
    expect(bridgeFlows(owner, geneve).some((f) => f.includes('priority=99,'))).toBe(false);
  });
});

describe("an Uplink bridge's service flows (TestUplinkBridgeServiceFlowsUseUDNMark, uplinkHostServiceFlows)", () => {
  const bridge = {
    physicalPort: 'eth1',
    hostPort: 'LOCAL',
    mac,
    ip: '172.28.0.3',
    ip6: 'fd28::3',
    kind: 'uplink' as const,
    services,
    networks: [{ ...bluenet, patchPort: 'patch-ovsbr1_bluenet', pktMark: '0x1001', noOverlay: true }],
  };
  const flows = bridgeFlows(owner, bridge);

  it("send the host's traffic with the network's packet mark to its patch port through table 2, and the replies back through table 3", () => {
    // the test's expectedIPv4HostToService, expectedIPv4Dispatch, expectedIPv4ReplyToHost and their IPv6 twins
    expect(mine(flows)).toEqual(
      expect.arrayContaining([
        'priority=500, in_port=LOCAL, ip, pkt_mark=0x1001, ip_dst=10.96.0.0/16, actions=ct(commit,zone=64001,nat(src=169.254.169.2),table=2)',
        `priority=250, table=2, ip, pkt_mark=0x1001, actions=set_field:${mac}->eth_dst,output:patch-ovsbr1_bluenet`,
        'priority=500, in_port=patch-ovsbr1_bluenet, ip, ip_src=10.96.0.0/16, ip_dst=169.254.169.0/29,actions=ct(zone=64001,nat,table=3)',
        'priority=500, in_port=LOCAL, ipv6, pkt_mark=0x1001, ipv6_dst=fd10:96::/112, actions=ct(commit,zone=64001,nat(src=fd69::2),table=2)',
        `priority=250, table=2, ipv6, pkt_mark=0x1001, actions=set_field:${mac}->eth_dst,output:patch-ovsbr1_bluenet`,
        'priority=500, in_port=patch-ovsbr1_bluenet, ipv6, ipv6_src=fd10:96::/112, ipv6_dst=fd69::/125,actions=ct(zone=64001,nat,table=3)',
        'priority=115, in_port=patch-ovsbr1_bluenet, ip, ip_dst=10.96.0.0/16,actions=drop',
      ]),
    );
  });

  it('dispatch OVN-to-host replies in table 3 with the shared cookie (expectedTable3)', () => {
    expect(shared(flows)).toContain(
      `table=3,  actions=move:NXM_OF_ETH_DST[]->NXM_OF_ETH_SRC[],set_field:${mac}->eth_dst,output:LOCAL`,
    );
  });

  it("do not SNAT unmarked host traffic to services on an Uplink bridge (the test's expectNoFlow)", () => {
    expect(flows.some((f) => /priority=500, in_port=LOCAL, ip, ip_dst=10\.96\.0\.0\/16/.test(f))).toBe(false);
  });

  it('are absent on a bridge rendered by commonFlows alone', () => {
    const { kind: _kind, ...plain } = bridge;
    expect(bridgeFlows(owner, plain).some((f) => /table=[23]|priority=(500|115|250),/.test(f))).toBe(false);
  });
});

describe("breth0's service flows of a user-defined network (flowsForDefaultBridge, the UDN part)", () => {
  const bridge = {
    physicalPort: '2',
    hostPort: 'LOCAL',
    mac,
    ip: '172.18.0.3',
    kind: 'gateway' as const,
    services: services.slice(0, 1),
    networks: [{ ...bluenet, patchPort: '5', pktMark: '0x1001', subnets: ['10.100.0.0/16'] }],
  };

  it("let the host's UDN-masqueraded traffic into table 2 (priority 550, shared) and drop the management masquerade address there (priority 200)", () => {
    const flows = bridgeFlows(owner, bridge);
    expect(shared(flows)).toContain(
      'priority=550, in_port=LOCAL, ip, ip_src=169.254.169.0/29, ip_dst=10.96.0.0/16, actions=ct(commit,zone=64001,table=2)',
    );
    expect(mine(flows)).toEqual(
      expect.arrayContaining([
        'priority=200, table=2, ip, ip_src=169.254.0.12, actions=drop',
        `priority=250, table=2, ip, pkt_mark=0x1001, actions=set_field:${mac}->eth_dst,output:5`,
        'priority=500, in_port=5, ip, ip_src=10.96.0.0/16, ip_dst=169.254.169.0/29,actions=ct(zone=64001,nat,table=3)',
        'priority=115, in_port=5, ip, ip_dst=10.96.0.0/16,actions=drop',
      ]),
    );
  });

  it("take an advertised network's own subnet into table 2 unSNATed and drop it there for other networks' services", () => {
    const advertised = { ...bridge, networks: [{ ...bridge.networks[0]!, advertised: true }] };
    const flows = mine(bridgeFlows(owner, advertised));
    expect(flows).toContain(
      'priority=550, in_port=LOCAL, ip, ip_src=10.100.0.0/16, ip_dst=10.96.0.0/16, actions=ct(commit,zone=64001,table=2)',
    );
    expect(flows).toContain('priority=200, table=2, ip, ip_src=10.100.0.0/16, actions=drop');
  });
});

describe('the EgressIP drop and the advertised-network flows (commonFlows, its example flows)', () => {
  const bridge = {
    physicalPort: 'eth0',
    hostPort: 'LOCAL',
    mac,
    ip: '172.18.0.3',
    networks: [
      {
        ...bluenet,
        patchPort: '4',
        subnets: ['10.100.0.0/16', 'fd00:100::/60'],
        nodeSubnets: ['10.100.1.0/24'],
      },
    ],
  };

  it('drop pod traffic of the network that reaches the bridge un-SNATed, per subnet, with --enable-egress-ip only (priority 103)', () => {
    expect(mine(bridgeFlows(owner, { ...bridge, egressIP: true }))).toEqual(
      expect.arrayContaining([
        'priority=103, in_port=4, ip, ip_src=10.100.0.0/16, actions=drop',
        'priority=103, in_port=4, ipv6, ipv6_src=fd00:100::/60, actions=drop',
      ]),
    );
    expect(bridgeFlows(owner, bridge).some((f) => f.includes('priority=103,'))).toBe(false);
  });

  it("route an advertised network's node subnet in to its patch port and out unSNATed (priorities 300 and 104, shared gateway)", () => {
    const advertised = { ...bridge, networks: [{ ...bridge.networks[0]!, advertised: true }] };
    expect(mine(bridgeFlows(owner, advertised))).toEqual(
      expect.arrayContaining([
        'priority=300, table=0, in_port=eth0, ip, ip_dst=10.100.1.0/24, actions=output:4',
        `priority=104, in_port=4, dl_src=${mac}, ip, ip_src=10.100.1.0/24, actions=output:eth0`,
      ]),
    );
  });

  it('send them to and from the host in local gateway mode (isAdvertisedLGW: OvsLocalPort)', () => {
    const lgw = { ...bridge, localGateway: true, networks: [{ ...bridge.networks[0]!, advertised: true }] };
    expect(mine(bridgeFlows(owner, lgw))).toEqual(
      expect.arrayContaining([
        'priority=300, table=0, in_port=eth0, ip, ip_dst=10.100.1.0/24, actions=output:LOCAL',
        `priority=104, in_port=LOCAL, dl_src=${mac}, ip, ip_src=10.100.1.0/24, actions=output:eth0`,
      ]),
    );
  });
});

describe('the canonical text of the new flows', () => {
  it('is what ovs-ofctl -O OpenFlow13 prints back for them (match fields reordered, ct arguments sorted, default priority omitted)', () => {
    const pairs = [
      [
        `cookie=0xa11, table=3,  actions=move:NXM_OF_ETH_DST[]->NXM_OF_ETH_SRC[],set_field:${mac}->eth_dst,output:LOCAL`,
        ` cookie=0xa11, table=3, actions=move:NXM_OF_ETH_DST[]->NXM_OF_ETH_SRC[],set_field:${mac}->eth_dst,LOCAL`,
      ],
      [
        'cookie=0xa11, priority=500, in_port=LOCAL, ip, pkt_mark=0x1001, ip_dst=10.96.0.0/16, actions=ct(commit,zone=64001,nat(src=169.254.169.2),table=2)',
        ' cookie=0xa11, priority=500,ip,in_port=LOCAL,pkt_mark=0x1001,nw_dst=10.96.0.0/16 actions=ct(commit,table=2,zone=64001,nat(src=169.254.169.2))',
      ],
    ];
    for (const [rendered, printed] of pairs) expect(canonicalFlow(rendered!)).toBe(canonicalFlow(printed!));
  });
});
