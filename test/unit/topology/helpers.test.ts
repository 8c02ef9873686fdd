import { describe, expect, it } from 'vitest';
import { mustParseCidr } from '../../../provider/model/cidr';
import {
  assignPodIPs,
  layer2TransitSubnets,
  macFromIP,
  masqueradeIPs,
  networkPrefix,
  podPort,
  renderNetwork,
  renderSharedRows,
  transitPair,
  TopologyInputError,
} from '../../../provider/topology';
import { exampleA, exampleE, rowOf } from './fixtures';

describe('names and MACs', () => {
  it('turns dashes and slashes of a network name into dots and appends an underscore', () => {
    expect(networkPrefix('cluster_udn_blue-network')).toBe('cluster_udn_blue.network_');
    expect(podPort('namespace1/blue-net', 'namespace1', 'myPod')).toBe('namespace1.blue.net_namespace1_myPod');
  });

  it('derives IPv4 MACs from the octets and IPv6 MACs from SHA-256 of the canonical text', () => {
    expect(macFromIP('169.254.0.4')).toBe('0a:58:a9:fe:00:04');
    expect(macFromIP('fd99::1')).toBe('0a:58:2b:11:86:0d');
    expect(macFromIP('fd99:0:0:0::4')).toBe('0a:58:29:37:8e:56');
  });
});

describe('derived addresses', () => {
  it('places the Layer2 transit pair at 2 x node id, /31 and /127', () => {
    const v4 = transitPair(mustParseCidr('100.88.0.0/16'), 2);
    expect([v4.router, v4.gateway].map((a) => `${a.ip}/${a.prefix}`)).toEqual(['100.88.0.4/31', '100.88.0.5/31']);
    const v6 = transitPair(mustParseCidr('fd97::/64'), 4);
    expect([v6.router, v6.gateway].map((a) => `${a.ip}/${a.prefix}`)).toEqual(['fd97::8/127', 'fd97::9/127']);
  });

  it('computes the per-network masquerade IPs as upstream', () => {
    const m = masqueradeIPs(mustParseCidr('169.254.0.0/17'), 2);
    expect([m.gatewayRouter.ip, m.management.ip, m.dummyNextHop.ip, m.host.ip]).toEqual([
      '169.254.0.13',
      '169.254.0.14',
      '169.254.0.4',
      '169.254.0.2',
    ]);
  });
});

describe('transit subnets', () => {
  it('keeps the default when nothing overlaps', () => {
    expect(layer2TransitSubnets({ networkSubnets: ['10.100.0.0/16', 'fd00:10::/64'] })).toEqual([
      '100.88.0.0/16',
      'fd97::/64',
    ]);
  });

  it('shifts to the next same-size subnet past every overlap', () => {
    expect(layer2TransitSubnets({ networkSubnets: ['100.88.0.0/24'], joinSubnets: ['100.89.0.0/16'] })).toEqual([
      '100.90.0.0/16',
    ]);
    expect(layer2TransitSubnets({ networkSubnets: ['fd97::/48'] })).toEqual(['fd97:0:1::/64']);
  });

  it('renders only the families of the network', () => {
    expect(layer2TransitSubnets({ networkSubnets: ['fd00::/64'] })).toEqual(['fd97::/64']);
  });
});

describe('pod addresses', () => {
  const pods = [
    { namespace: 'b', name: 'x' },
    { namespace: 'a', name: 'y' },
    { namespace: 'a', name: 'x' },
  ];

  it('assigns in namespace/name order, skipping network, gateway and management addresses', () => {
    expect(assignPodIPs({ pods, subnets: ['10.0.1.0/24', 'fd00::/64'] })).toEqual({
      'a/x': ['10.0.1.3', 'fd00::3'],
      'a/y': ['10.0.1.4', 'fd00::4'],
      'b/x': ['10.0.1.5', 'fd00::5'],
    });
  });

  it('keeps previous assignments and fills the gaps', () => {
    const out = assignPodIPs({ pods, subnets: ['10.0.1.0/24'] }, { 'b/x': ['10.0.1.3'], 'a/y': ['10.0.1.1'] });
    expect(out).toEqual({ 'b/x': ['10.0.1.3'], 'a/x': ['10.0.1.4'], 'a/y': ['10.0.1.5'] });
  });

  it('never hands out the broadcast address and reports a full subnet', () => {
    const four = ['a', 'b', 'c', 'd'].map((name) => ({ namespace: 'n', name }));
    expect(Object.values(assignPodIPs({ pods: four, subnets: ['10.0.1.0/29'] })).flat()).toEqual([
      '10.0.1.3',
      '10.0.1.4',
      '10.0.1.5',
      '10.0.1.6',
    ]);
    const five = [...four, { namespace: 'n', name: 'e' }];
    expect(() => assignPodIPs({ pods: five, subnets: ['10.0.1.0/29'] })).toThrow(
      'pods: "n/e" cannot get an address: subnet 10.0.1.0/29 is full',
    );
    expect(() => assignPodIPs({ pods: four.slice(0, 1), subnets: ['10.0.1.0/30'] })).toThrow(TopologyInputError);
  });
});

describe('shared rows', () => {
  it('renders the default Copp with a rate-limiter meter per protocol and the acl-logging meter', () => {
    const rows = renderSharedRows();
    const copp = rows.find((r) => r.table === 'Copp')!.columns;
    expect(copp).toMatchObject({
      name: 'ovnkube-default',
      meters: { arp: 'arp-rate-limiter', 'icmp6-error': 'icmp6-error-rate-limiter' },
    });
    const meters = rows.filter((r) => r.table === 'Meter').map((r) => r.columns.name);
    for (const m of Object.values(copp.meters as Record<string, string>)) expect(meters).toContain(m);
    expect(meters).toContain('acl-logging');
  });
});

describe('input errors', () => {
  it('names the field, the value and the reason for a bad host subnet', () => {
    const input = exampleA();
    input.nodes[0]!.hostSubnets = { isolatednet: ['192.168.1.5/24'] };
    expect(() => renderNetwork(input)).toThrow(
      'nodes[0].hostSubnets.isolatednet[0]: "192.168.1.5/24" is not a network address',
    );
  });

  it('refuses a Layer3 node without a host subnet for the network', () => {
    const input = exampleA();
    input.nodes[0]!.hostSubnets = {};
    expect(() => renderNetwork(input)).toThrow(/nodes\[0\]\.hostSubnets\.isolatednet/);
  });

  it('refuses a Layer2 network without datapath keys', () => {
    const input = exampleE();
    delete input.network.tunnelKeys;
    expect(() => renderNetwork(input)).toThrow(/network\.tunnelKeys/);
  });

  it('refuses a pod attached through a NAD of another network', () => {
    const input = exampleA();
    input.pods![0]!.nadKey = 'other/net';
    expect(() => renderNetwork(input)).toThrow('pods[0].nadKey: "other/net" is not a NAD of network isolatednet');
  });

  it('refuses a per-node zone with two local nodes and a zone naming an unknown node', () => {
    expect(() => renderNetwork({ ...exampleE(['node-a', 'node-b'], 'per-node') })).toThrow(/exactly one node/);
    expect(() => renderNetwork({ ...exampleE(['node-z']) })).toThrow(
      'zone.localNodes[0]: "node-z" is not a node of the input',
    );
  });

  it('derives a mac for the management port of a dual-stack Layer2 network from its IPv4 address', () => {
    const input = exampleE();
    input.cluster.ipFamilies = ['ipv4', 'ipv6'];
    input.cluster.masqueradeSubnets = ['169.254.0.0/17', 'fd69::/112'];
    input.network.subnets = [{ cidr: 'fd00:10::/64' }, { cidr: '10.100.0.0/16' }];
    input.network.joinSubnets = ['fd99::/64', '100.65.0.0/16'];
    input.network.transitSubnets = ['100.88.0.0/16', 'fd97::/64'];
    const rows = renderNetwork(input);
    expect(rowOf(rows, 'Logical_Switch_Port', 'k8s-cluster_udn_green_node-a').addresses).toEqual([
      '0a:58:0a:64:00:02 10.100.0.2 fd00:10::2',
    ]);
    expect(rowOf(rows, 'Logical_Router_Port', 'rtotr-GR_cluster_udn_green_node-a').networks).toEqual([
      '100.65.0.2/16',
      'fd99::2/64',
      '100.88.0.5/31',
      'fd97::5/127',
    ]);
    expect(
      rowOf(rows, 'Logical_Router_Port', 'trtos-cluster_udn_green_ovn_layer2_switch').ipv6_ra_configs,
    ).toMatchObject({ address_mode: 'dhcpv6_stateful', mtu: '1400' });
    expect(rowOf(rows, 'Logical_Router', 'GR_cluster_udn_green_node-a').options.lb_force_snat_ip).toBe(
      '100.65.0.2 fd99::2',
    );
  });
});

describe('row keys', () => {
  it('escapes IPv6 colons in ovnk.io/key so distinct routes never share a key', () => {
    const input = exampleE();
    input.cluster.ipFamilies = ['ipv4', 'ipv6'];
    input.cluster.masqueradeSubnets = ['169.254.0.0/17', 'fd69::/112'];
    input.network.subnets = [{ cidr: '10.100.0.0/16' }, { cidr: 'fd00:10::/64' }];
    input.network.joinSubnets = ['100.65.0.0/16', 'fd99::/64'];
    input.network.transitSubnets = ['100.88.0.0/16', 'fd97::/64'];
    const rows = renderNetwork(input);
    const route = rowOf(
      rows,
      'Logical_Router_Static_Route',
      'udn-route:cluster_udn_green_transit_router:src-ip:fd00%3A10%3A%3A/64:fd97%3A%3A5',
    );
    expect(route).toMatchObject({ ip_prefix: 'fd00:10::/64', nexthop: 'fd97::5', policy: 'src-ip' });
  });
});
