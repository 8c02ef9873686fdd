import { describe, expect, it } from 'vitest';
import { backendsOf, parseVip, withBackends } from '../../../provider/runtime/services';
import type { PodPlug } from '../../../provider/runtime/pods';

const pod = (namespace: string, name: string, network: string, addresses: string[]): PodPlug => ({
  namespace,
  name,
  node: 'n1',
  network,
  ifaceId: `${namespace}_${name}`,
  mac: '0a:58:00:00:00:01',
  addresses,
  gateways: [],
  mtu: 1400,
});

const blueA = pod('blue', 'a', 'cluster_udn_blue', ['103.103.1.3/24', 'fd00:103:0:1::3/64']);
const blueB = pod('blue', 'b', 'cluster_udn_blue', ['103.103.0.3/24', 'fd00:103::3/64']);
const green = pod('green', 'a', 'cluster_udn_green', ['104.104.0.3/24']);

const balancer = (vips: Record<string, string>, owner = 'blue/web', network = 'cluster_udn_blue') => ({
  table: 'Load_Balancer',
  columns: {
    name: 'lb',
    vips,
    external_ids: { 'k8s.ovn.org/kind': 'Service', 'k8s.ovn.org/owner': owner, 'k8s.ovn.org/network': network },
  },
});

describe("ClusterIP backends from the plan's pods", () => {
  it('a VIP of either family is split into its address and port', () => {
    expect(parseVip('10.96.0.1:80')).toEqual({ ip: '10.96.0.1', port: '80' });
    expect(parseVip('[fd00:10:96::1]:443')).toEqual({ ip: 'fd00:10:96::1', port: '443' });
    expect(parseVip('fd00::1:80')).toBeUndefined();
  });

  it("an IPv4 VIP gets the pods' IPv4 addresses, sorted, on its port; an IPv6 VIP the IPv6 ones in brackets", () => {
    expect(backendsOf('10.96.0.1:80', [blueA, blueB])).toBe('103.103.0.3:80,103.103.1.3:80');
    expect(backendsOf('[fd00:10:96::1]:80', [blueA, blueB])).toBe('[fd00:103:0:1::3]:80,[fd00:103::3]:80');
  });

  it('a service load balancer is backed only by pods of its namespace on its network', () => {
    const row = withBackends(balancer({ '10.96.0.1:80': '' }), [
      blueA,
      green,
      pod('blue', 'c', 'other', ['9.9.9.9/24']),
    ]);
    expect(row.columns.vips).toEqual({ '10.96.0.1:80': '103.103.1.3:80' });
  });

  it('rows that are not service load balancers are returned unchanged', () => {
    const other = { table: 'Load_Balancer', columns: { name: 'x', vips: { '1.1.1.1:1': '' }, external_ids: {} } };
    expect(withBackends(other, [blueA])).toBe(other);
    const sw = { table: 'Logical_Switch', columns: { name: 'blue' } };
    expect(withBackends(sw, [blueA])).toBe(sw);
  });

  it('a service without pods in its namespace keeps empty backends', () => {
    expect(withBackends(balancer({ '10.96.0.1:80': '' }, 'red/db'), [blueA]).columns.vips).toEqual({
      '10.96.0.1:80': '',
    });
  });
});
