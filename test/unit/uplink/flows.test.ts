import { describe, expect, it } from 'vitest';
import { flowPhase } from '../../../provider/uplink/flowPhase';
import { bridgeFlows, masqCtMark, ownerCookie, sharedCookie } from '../../../provider/uplink/flows';
import { canonicalFlow, canonicalFlows } from '../../../provider/uplink/flowText';

// The bridge of upstream's TestUplinkBridgeServiceFlowsUseUDNMark (bridgeflows_test.go): MAC
// 62:41:d0:54:3d:64, node IP 172.28.0.3, network "bluenet" with ct mark 0x4 and gateway-router
// masquerade IP 169.254.0.11, physical port eth1, host port LOCAL.
const upstreamBridge = {
  physicalPort: 'eth1',
  hostPort: 'LOCAL',
  mac: '62:41:d0:54:3d:64',
  ip: '172.28.0.3',
  networks: [
    { network: 'bluenet', patchPort: 'patch-ovsbr1_bluenet', ctMark: '0x4', gatewayRouterMasqIp: '169.254.0.11' },
  ],
};
const strip = (flow: string) => flow.replace(/^cookie=0x[0-9a-f]+, /, '');

describe('the ct mark of a network', () => {
  it('is ctMarkUDNBase (3) plus the network id, in hex, as gateway_udn.go derives it', () => {
    expect(masqCtMark(1)).toBe('0x4');
    expect(masqCtMark(14)).toBe('0x11');
  });
});

describe('the flows of a gateway bridge', () => {
  const flows = bridgeFlows('blue-owner', upstreamBridge).map(strip);

  it("sends established and related replies of the network's connections to its patch port (TestUplinkBridgeServiceFlowsUseUDNMark's expectedIPv4ReplyToOVN)", () => {
    expect(flows).toContain(
      'priority=100, table=1, ip, ct_state=+trk+est, ct_mark=0x4, actions=output:patch-ovsbr1_bluenet',
    );
    expect(flows).toContain(
      'priority=100, table=1, ip, ct_state=+trk+rel, ct_mark=0x4, actions=output:patch-ovsbr1_bluenet',
    );
  });

  it("SNATs the network's masquerade source to the bridge's address in zone 64000 with its mark (commonFlows, the UDN branch)", () => {
    expect(flows).toContain(
      'priority=100, in_port=patch-ovsbr1_bluenet, dl_src=62:41:d0:54:3d:64, ip, ip_src=169.254.0.11, ' +
        'actions=ct(commit, zone=64000, nat(src=172.28.0.3), exec(set_field:0x4->ct_mark)), output:eth1',
    );
    expect(flows).toContain(
      'priority=105, in_port=patch-ovsbr1_bluenet, dl_src=62:41:d0:54:3d:64, ip, pkt_mark=0x3f0 ' +
        'actions=ct(commit, zone=64000, nat(src=172.28.0.3), exec(set_field:0x4->ct_mark)),output:eth1',
    );
  });

  it("commits the host's traffic with CtMarkHost and sends what arrives for the MAC through conntrack to table 1 (commonFlows)", () => {
    expect(flows).toContain(
      'priority=100, in_port=LOCAL, ip, actions=ct(commit, zone=64000, exec(set_field:0x2->ct_mark)), output:eth1',
    );
    expect(flows).toContain('priority=50, ip, dl_dst=62:41:d0:54:3d:64, actions=ct(zone=64000, nat, table=1)');
    expect(flows).toContain('priority=10, table=1, dl_dst=62:41:d0:54:3d:64, actions=output:LOCAL');
    expect(flows).toContain('priority=0, table=1, actions=output:NORMAL');
  });

  it('sends frames to the shared MAC to every patch port and NORMAL, so ARP replies reach the routers and the host', () => {
    const two = bridgeFlows('blue-owner', {
      ...upstreamBridge,
      networks: [
        ...upstreamBridge.networks,
        { network: 'rednet', patchPort: '7', ctMark: '0x5', gatewayRouterMasqIp: '169.254.0.13' },
      ],
    }).map(strip);
    expect(two).toContain(
      'priority=10, table=0, dl_dst=62:41:d0:54:3d:64, actions=output:patch-ovsbr1_bluenet,output:7,NORMAL',
    );
    expect(two).toContain('priority=9, table=0, in_port=7, actions=drop');
    expect(two).toContain('priority=100, table=1, ip, ct_state=+trk+est, ct_mark=0x5, actions=output:7');
  });

  it("carries the owner's cookie on a network's flows and the shared cookie on the bridge's, and is empty when no network is patched into the bridge", () => {
    const all = bridgeFlows('blue-owner', upstreamBridge);
    const own = all.filter((f) => f.startsWith(`cookie=${ownerCookie('blue-owner')}, `));
    const shared = all.filter((f) => f.startsWith(`cookie=${sharedCookie}, `));
    expect(own).toHaveLength(6);
    expect(shared).toHaveLength(5);
    expect(own.every((f) => f.includes('patch-ovsbr1_bluenet'))).toBe(true);
    expect(bridgeFlows('blue-owner', { ...upstreamBridge, networks: [] })).toEqual([]);
  });
});

describe('the cookies of our flows', () => {
  it('give each owner 52 bits of its own under the tag 0xa11, and the shared flows the tag alone', () => {
    expect(sharedCookie).toBe('0xa110000000000000');
    expect(ownerCookie('blue-owner')).toMatch(/^0xa11[0-9a-f]{13}$/);
    expect(ownerCookie('blue-owner')).toBe(ownerCookie('blue-owner'));
    expect(ownerCookie('blue-owner')).not.toBe(ownerCookie('red-owner'));
    expect(ownerCookie('blue-owner')).not.toBe(sharedCookie);
  });
});

describe('the canonical text of a flow', () => {
  // what ovs-ofctl -O OpenFlow13 --no-stats dump-flows printed on the lab's br-blue for these flows
  const dumped = [
    'OFPST_FLOW reply (OF1.3) (xid=0x2):',
    ' cookie=0xa11, priority=100,ip,in_port=4,dl_src=be:48:fc:93:97:4d,nw_src=169.254.0.11 actions=ct(commit,zone=64000,nat(src=203.0.113.12),exec(set_field:0x4->ct_mark)),output:2',
    ' cookie=0xa11, priority=50,ip,dl_dst=be:48:fc:93:97:4d actions=ct(table=1,zone=64000,nat)',
    ' cookie=0xa11, priority=10,in_port=4,dl_src=be:48:fc:93:97:4d actions=NORMAL',
    ' cookie=0xa11, table=1, priority=100,ct_state=+est+trk,ct_mark=0x4,ip actions=output:4',
    ' cookie=0xa11, duration=2.9s, table=1, n_packets=3, n_bytes=294, priority=0 actions=NORMAL',
    // breth0's, whose host side is the bridge's own port
    ' cookie=0xa11, table=1, priority=10,dl_dst=62:de:db:ae:fe:4e actions=LOCAL',
  ];
  const rendered = [
    'cookie=0xa11, priority=100, in_port=4, dl_src=be:48:fc:93:97:4d, ip, ip_src=169.254.0.11, actions=ct(commit, zone=64000, nat(src=203.0.113.12), exec(set_field:0x4->ct_mark)), output:2',
    'cookie=0xa11, priority=50, ip, dl_dst=be:48:fc:93:97:4d, actions=ct(zone=64000, nat, table=1)',
    'cookie=0xa11, priority=10, table=0, in_port=4, dl_src=be:48:fc:93:97:4d, actions=output:NORMAL',
    'cookie=0xa11, priority=100, table=1, ip, ct_state=+trk+est, ct_mark=0x4, actions=output:4',
    'cookie=0xa11, priority=0, table=1, actions=output:NORMAL',
    'cookie=0xa11, priority=10, table=1, dl_dst=62:de:db:ae:fe:4e, actions=output:LOCAL',
  ];

  it("is the same for upstream's spelling and the one ovs-ofctl prints back", () => {
    expect(canonicalFlows(dumped)).toEqual(canonicalFlows(rendered));
  });

  it("is the same for IPv6 flows, whose ICMPv6 type ovs-ofctl prints as icmp_type (what a lab node's OVS printed for upstream's IPv6 flows)", () => {
    const printed = [
      ' cookie=0xa11aaaaaaaaaaaaa, priority=105,pkt_mark=0x3f0,ipv6,in_port=1,dl_src=62:41:d0:54:3d:64 actions=ct(commit,zone=64000,nat(src=fd28::3),exec(set_field:0x4->ct_mark)),output:1',
      ' cookie=0xa11aaaaaaaaaaaaa, priority=100,ipv6,in_port=1,dl_src=62:41:d0:54:3d:64,ipv6_src=fd69::11 actions=ct(commit,zone=64000,nat(src=fd28::3),exec(set_field:0x4->ct_mark)),output:1',
      ' cookie=0xa110000000000000, priority=50,ipv6,dl_dst=62:41:d0:54:3d:64 actions=ct(table=1,zone=64000,nat)',
      ' cookie=0xa110000000000000, priority=12,icmp6,icmp_type=135,nd_target=fd28::3 actions=output:1,NORMAL',
      ' cookie=0xa110000000000000, priority=11,icmp6,in_port=1,dl_dst=33:33:00:00:00:01,icmp_type=136 actions=output:1,NORMAL',
      ' cookie=0xa110000000000000, table=1, priority=100,ct_state=+est+trk,ct_mark=0x4,ipv6 actions=output:1',
      ' cookie=0xa110000000000000, table=1, priority=14,icmp6,icmp_type=134 actions=output:1,FLOOD',
    ];
    const upstream = [
      'cookie=0xa11aaaaaaaaaaaaa, priority=105, in_port=1, dl_src=62:41:d0:54:3d:64, ipv6, pkt_mark=0x3f0 actions=ct(commit, zone=64000, nat(src=fd28::3), exec(set_field:0x4->ct_mark)),output:1',
      'cookie=0xa11aaaaaaaaaaaaa, priority=100, in_port=1, dl_src=62:41:d0:54:3d:64, ipv6, ipv6_src=fd69::11, actions=ct(commit, zone=64000, nat(src=fd28::3), exec(set_field:0x4->ct_mark)), output:1',
      'cookie=0xa110000000000000, priority=50, ipv6, dl_dst=62:41:d0:54:3d:64, actions=ct(zone=64000, nat, table=1)',
      'cookie=0xa110000000000000, priority=12, table=0, icmp6, icmpv6_type=135, nd_target=fd28::3, actions=output:1,NORMAL',
      'cookie=0xa110000000000000, priority=11, table=0, in_port=1, dl_dst=33:33:00:00:00:01, icmp6, icmpv6_type=136, actions=output:1,NORMAL',
      'cookie=0xa110000000000000, priority=100, table=1, ipv6, ct_state=+trk+est, ct_mark=0x4, actions=output:1',
      'cookie=0xa110000000000000, priority=14, table=1,icmp6,icmpv6_type=134 actions=output:1,FLOOD',
    ];
    expect(canonicalFlows(printed)).toEqual(canonicalFlows(upstream));
  });

  it('still tells flows apart that differ in a port, a mark or an address', () => {
    expect(canonicalFlow(rendered[0]!)).not.toBe(canonicalFlow(rendered[0]!.replace('output:2', 'output:3')));
    expect(canonicalFlow(rendered[3]!)).not.toBe(canonicalFlow(rendered[3]!.replace('0x4', '0x5')));
    expect(canonicalFlow(rendered[0]!)).not.toBe(canonicalFlow(rendered[0]!.replace('203.0.113.12', '169.254.0.11')));
  });
});

describe("a network's flow phase on a node", () => {
  const bridge = { bridge: 'br-blue', networks: ['cluster_udn_blue'], missing: 0, unexpected: 0, written: false };

  it('is ready when its bridge has exactly the planned flows, pending when they differ or its bridge is not reported', () => {
    expect(flowPhase({ ok: true, bridges: [bridge] }, 'cluster_udn_blue')).toEqual({ phase: 'ready' });
    expect(flowPhase({ ok: true, bridges: [{ ...bridge, missing: 4 }] }, 'cluster_udn_blue')).toEqual({
      phase: 'pending',
    });
    expect(flowPhase({ ok: true, bridges: [] }, 'cluster_udn_blue')).toEqual({ phase: 'pending' });
  });

  it("fails with upstream's UplinkGatewayProgrammingFailed when the flows could not be read or written", () => {
    expect(flowPhase({ ok: false, message: 'ssh: gone' }, 'cluster_udn_blue')).toEqual({
      phase: 'failed',
      reason: 'UplinkGatewayProgrammingFailed',
      message: 'ssh: gone',
    });
    expect(
      flowPhase(
        { ok: true, bridges: [{ ...bridge, error: 'ports without an ofport on br-blue: patch-x' }] },
        'cluster_udn_blue',
      ),
    ).toMatchObject({
      reason: 'UplinkGatewayProgrammingFailed',
    });
  });

  it("is left to upstream's own GatewayReady on a bridge whose flows are ovnkube-node's", () => {
    expect(
      flowPhase({ ok: true, bridges: [{ ...bridge, managedBy: 'ovnkube-node' }] }, 'cluster_udn_blue'),
    ).toBeUndefined();
  });

  it('is not looked at when the run did not read flows', () => {
    expect(flowPhase(undefined, 'cluster_udn_blue')).toBeUndefined();
  });
});

describe('the flows of a bridge that also carries the default network', () => {
  const breth0 = { ...upstreamBridge, physicalPort: '2', defaultPatchPort: '1' };
  const flows = bridgeFlows('blue-owner', {
    ...breth0,
    networks: [{ ...upstreamBridge.networks[0]!, patchPort: '5' }],
  }).map(strip);

  it("send the shared MAC to the default network's patch port too, in one flow (commonFlows iterates patchedNetConfigs, the default's included)", () => {
    expect(flows.filter((f) => f.includes('dl_dst=62:41:d0:54:3d:64') && f.startsWith('priority=10, table=0'))).toEqual(
      ['priority=10, table=0, dl_dst=62:41:d0:54:3d:64, actions=output:1,output:5,NORMAL'],
    );
  });

  it("send ARP requests for the node address to the default network alone and outside broadcasts to every network (arpFanoutFilterFlows; TestArpFanoutFilterFlowsIncludeVLAN's expectedIPv4, without the VLAN)", () => {
    expect(flows).toContain('priority=12, table=0, arp, arp_op=1, arp_tpa=172.28.0.3, actions=output:1,NORMAL');
    expect(flows).toContain(
      'priority=11, table=0, in_port=2, dl_dst=ff:ff:ff:ff:ff:ff, arp, actions=output:1,output:5,NORMAL',
    );
  });

  it('are absent where the bridge carries no default network', () => {
    expect(bridgeFlows('blue-owner', upstreamBridge).some((f) => /priority=1[12],/.test(f))).toBe(false);
  });
});

describe('the IPv6 flows of a dual-stack gateway bridge', () => {
  // TestUplinkBridgeServiceFlowsUseUDNMark's dual-stack bridge: node IP fd28::3, masquerade fd69::11
  const dual = {
    ...upstreamBridge,
    ip6: 'fd28::3',
    networks: [{ ...upstreamBridge.networks[0]!, gatewayRouterMasqIp6: 'fd69::11' }],
  };
  const flows = bridgeFlows('blue-owner', dual).map(strip);

  it("send replies of the network's IPv6 connections to its patch port (TestUplinkBridgeServiceFlowsUseUDNMark's expectedIPv6ReplyToOVN)", () => {
    expect(flows).toContain(
      'priority=100, table=1, ipv6, ct_state=+trk+est, ct_mark=0x4, actions=output:patch-ovsbr1_bluenet',
    );
    expect(flows).toContain(
      'priority=100, table=1, ipv6, ct_state=+trk+rel, ct_mark=0x4, actions=output:patch-ovsbr1_bluenet',
    );
  });

  it("SNAT the network's IPv6 masquerade source to the bridge's IPv6 address, and commit the host's IPv6 (commonFlows' IPv6Mode branch)", () => {
    expect(flows).toContain(
      'priority=100, in_port=patch-ovsbr1_bluenet, dl_src=62:41:d0:54:3d:64, ipv6, ipv6_src=fd69::11, ' +
        'actions=ct(commit, zone=64000, nat(src=fd28::3), exec(set_field:0x4->ct_mark)), output:eth1',
    );
    expect(flows).toContain(
      'priority=100, in_port=LOCAL, ipv6, actions=ct(commit, zone=64000, exec(set_field:0x2->ct_mark)), output:eth1',
    );
    expect(flows).toContain('priority=50, ipv6, dl_dst=62:41:d0:54:3d:64, actions=ct(zone=64000, nat, table=1)');
  });

  it('flood router and neighbour advertisements to every network in table 1 (commonFlows, the REMOVEME icmpv6 flows)', () => {
    expect(flows).toContain('priority=14, table=1,icmp6,icmpv6_type=134 actions=output:patch-ovsbr1_bluenet,FLOOD');
    expect(flows).toContain('priority=14, table=1,icmp6,icmpv6_type=136 actions=output:patch-ovsbr1_bluenet,FLOOD');
  });

  it("filter neighbour solicitations for the node address beside the default network (TestArpFanoutFilterFlowsIncludeVLAN's expectedIPv6, without the VLAN)", () => {
    const withDefault = bridgeFlows('blue-owner', { ...dual, physicalPort: '2', defaultPatchPort: '1' }).map(strip);
    expect(withDefault).toContain(
      'priority=12, table=0, icmp6, icmpv6_type=135, nd_target=fd28::3, actions=output:1,NORMAL',
    );
    expect(withDefault).toContain(
      'priority=11, table=0, in_port=2, dl_dst=33:33:00:00:00:01, icmp6, icmpv6_type=136, actions=output:1,output:patch-ovsbr1_bluenet,NORMAL',
    );
  });

  it('render no IPv4 flow on an IPv6-only bridge', () => {
    const { ip: _ip, ...v6only } = dual;
    expect(bridgeFlows('blue-owner', v6only).filter((f) => /\bip\b|arp/.test(f))).toEqual([]);
  });
});
