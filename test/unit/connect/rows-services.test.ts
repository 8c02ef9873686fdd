import { describe, expect, it } from 'vitest';
import { byIdentity, externalIds, fixtureText, rowsOf, withChassis, zonesOf } from './rowsHelpers';

/** FNV-1a 64 (Fowler/Noll/Vo): offset basis 14695981039346656037, prime 1099511628211, xor then multiply, mod 2^64. */
function fnv1a64(text: string): bigint {
  let hash = 14695981039346656037n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 1099511628211n) % 18446744073709551616n;
  }
  return hash;
}

const serviceOnly = withChassis(fixtureText('colored-enterprise.yaml'))
  .replace(/connectivity:\n(\s+)- PodNetwork/, 'connectivity:\n$1- ServiceNetwork')
  .replace(
    /(kind: Inventory[\s\S]*?spec:\n)/,
    '$1  services:\n    - {namespace: blue, name: api, clusterIPs: [10.96.10.10, "fd00:10:96::a"], ports: [{protocol: TCP, port: 80}, {protocol: UDP, port: 53}]}\n    - {namespace: yellow, name: db, clusterIPs: [10.96.20.20], ports: [{port: 5432}]}\n    - {namespace: green, name: headless, clusterIPs: [None], ports: [{port: 80}]}\n',
  );

describe('ServiceNetwork without PodNetwork (colored-enterprise, zone ovn-worker)', () => {
  const zone = zonesOf(serviceOnly).get('ovn-worker')!;
  const asV4 = `a${fnv1a64('ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:v4')}`;
  const asV6 = `a${fnv1a64('ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:v6')}`;

  it("the independent FNV-1a-64 reproduces upstream's published names for test-cnc", () => {
    expect(`a${fnv1a64('ovnkube-network-connect-controller:ClusterNetworkConnect:test-cnc:v4')}`).toBe(
      'a703533884389692937',
    );
    expect(`a${fnv1a64('ovnkube-network-connect-controller:ClusterNetworkConnect:test-cnc:v6')}`).toBe(
      'a703531685366436515',
    );
  });

  it("renders one address set per family named a + FNV-1a-64 of upstream's id, holding every connected network's subnets", () => {
    expect(rowsOf(zone, 'Address_Set').map((r) => r.columns)).toEqual([
      {
        name: asV4,
        addresses: ['103.103.0.0/16', '104.104.0.0/16', '105.105.0.0/16'],
        external_ids: expect.objectContaining({
          'k8s.ovn.org/name': 'colored-enterprise',
          'ip-family': 'v4',
          'k8s.ovn.org/id': 'ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:v4',
        }),
      },
      {
        name: asV6,
        addresses: ['fd00:103::/60', 'fd00:104::/60', 'fd00:105::/64'],
        external_ids: expect.objectContaining({ 'ip-family': 'v6' }),
      },
    ]);
  });

  it('renders the tier-0 ACLs: 500 pass-service, 475 pass-same-network-<id> per network, 450 drop of new connections', () => {
    const common = { direction: 'from-lport', tier: 0, meter: 'acl-logging', log: false };
    const acls = rowsOf(zone, 'ACL').map((r) => ({ ...r.columns, type: externalIds(r).type, external_ids: undefined }));
    expect(acls).toEqual([
      {
        ...common,
        priority: 500,
        action: 'pass',
        match: '(ip4.dst == 10.96.0.0/16 || ip6.dst == fd00:10:96::/112)',
        type: 'pass-service',
        external_ids: undefined,
      },
      {
        ...common,
        priority: 450,
        action: 'drop',
        match: `(ip4.dst == $${asV4} || ip6.dst == $${asV6}) && ct.new`,
        type: 'drop-pod',
        external_ids: undefined,
      },
      {
        ...common,
        priority: 475,
        action: 'pass',
        match: 'ip4.dst == 103.103.0.0/16 || ip6.dst == fd00:103::/60',
        type: 'pass-same-network-1',
        external_ids: undefined,
      },
      {
        ...common,
        priority: 475,
        action: 'pass',
        match: 'ip4.dst == 104.104.0.0/16 || ip6.dst == fd00:104::/60',
        type: 'pass-same-network-2',
        external_ids: undefined,
      },
      {
        ...common,
        priority: 475,
        action: 'pass',
        match: 'ip4.dst == 105.105.0.0/16 || ip6.dst == fd00:105::/64',
        type: 'pass-same-network-3',
        external_ids: undefined,
      },
    ]);
    for (const row of rowsOf(zone, 'ACL')) {
      expect(row.columns).not.toHaveProperty('name');
      expect(externalIds(row)['k8s.ovn.org/id']).toBe(
        `ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:${externalIds(row).type}`,
      );
    }
  });

  it("attaches the shared ACLs to every local switch and each pass-same-network ACL to its own network's switch only", () => {
    const on = (type: string) =>
      byIdentity(
        zone,
        'ACL',
        `ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:${type}`,
      ).parents!.map((p) => p.identity);
    const switches = [
      'cluster_udn_blue.network_ovn-worker',
      'cluster_udn_green.network_ovn-worker',
      'yellow_yellow.network_ovn_layer2_switch',
    ];
    expect(on('pass-service')).toEqual(switches);
    expect(on('drop-pod')).toEqual(switches);
    expect(on('pass-same-network-3')).toEqual(['yellow_yellow.network_ovn_layer2_switch']);
    expect(
      byIdentity(
        zone,
        'ACL',
        'ovnkube-network-connect-controller:ClusterNetworkConnect:colored-enterprise:pass-same-network-1',
      ).parents,
    ).toEqual([{ table: 'Logical_Switch', identity: 'cluster_udn_blue.network_ovn-worker', column: 'acls' }]);
  });

  it('still programs the ports and the reroute policies (service traffic is DNAT-ed to pods of the other network)', () => {
    expect(rowsOf(zone, 'Logical_Router_Policy')).toHaveLength(12);
    expect(rowsOf(zone, 'Logical_Router_Port').length).toBeGreaterThan(0);
  });

  it('groups the ClusterIP load balancers of connected networks, one per protocol, and skips headless services', () => {
    const names = [
      'cluster_udn_blue.network_Service_blue/api_TCP_cluster',
      'cluster_udn_blue.network_Service_blue/api_UDP_cluster',
      'yellow_yellow.network_Service_yellow/db_TCP_cluster',
    ];
    expect(byIdentity(zone, 'Load_Balancer_Group', 'cnc_svc_colored-enterprise').columns.load_balancer).toEqual(names);
    expect(rowsOf(zone, 'Load_Balancer').map((r) => r.columns.name)).toEqual(names);
    expect(byIdentity(zone, 'Load_Balancer', names[0]!).columns).toEqual({
      name: names[0],
      protocol: 'tcp',
      vips: { '10.96.10.10:80': '', '[fd00:10:96::a]:80': '' },
      // controller/services/loadbalancer.go buildLB: the 5th address of the masquerade subnets
      // (169.254.0.0/17 by default)
      options: {
        event: 'false',
        hairpin_snat_ip: '169.254.0.5 fd69::5',
        neighbor_responder: 'none',
        reject: 'true',
        skip_snat: 'false',
      },
      external_ids: {
        'k8s.ovn.org/kind': 'Service',
        'k8s.ovn.org/owner': 'blue/api',
        'k8s.ovn.org/network': 'cluster_udn_blue-network',
        'k8s.ovn.org/role': 'primary',
      },
    });
  });
});

describe('connectivity with PodNetwork only', () => {
  it('renders neither the load-balancer group nor ACLs nor address sets', () => {
    const zone = zonesOf(withChassis(fixtureText('colored-enterprise.yaml'))).get('ovn-worker')!;
    for (const table of ['Load_Balancer_Group', 'Load_Balancer', 'ACL', 'Address_Set'])
      expect(rowsOf(zone, table)).toEqual([]);
    expect(
      zone.rows.filter(
        (r) => r.table === 'Logical_Switch' || (r.parents ?? []).some((p) => p.table === 'Logical_Switch'),
      ),
    ).toEqual([]);
  });
});
