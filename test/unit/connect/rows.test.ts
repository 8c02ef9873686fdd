import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderConnect } from '../../../provider/connect/render';
import { prepareZones } from '../../../provider/connect/zones';
import { allocateTopology } from '../../../provider/runtime/plan';
import { yamlOf } from '../../support/objects';
import { byIdentity, externalIds, fixtureText, rowsOf, withChassis, zonesOf } from './rowsHelpers';
import { cnc, namespaceCudn, labInventory } from './world';

const ID = 'ovnkube-network-connect-controller:ClusterNetworkConnect';
const owner = {
  'k8s.ovn.org/owner-controller': 'ovnkube-network-connect-controller',
  'k8s.ovn.org/owner-type': 'ClusterNetworkConnect',
};

describe('the feature doc blue/green example in the per-node zone of ovn-worker (node ids 2, 3, 4)', () => {
  const zone = zonesOf(withChassis(fixtureText('blue-green.yaml'))).get('ovn-worker')!;
  const cncName = 'blue-green-connect';

  it('renders the connect router with the tunnel key, the default Copp and every connect-router port and route', () => {
    const router = byIdentity(zone, 'Logical_Router', 'connect_router_blue-green-connect');
    expect(router.columns).toMatchObject({
      options: { 'requested-tnl-key': '16715779' },
      copp: 'ovnkube-default',
      external_ids: { 'k8s.ovn.org/name': cncName, ...owner },
    });
    expect(router.columns.ports).toHaveLength(6);
    expect(router.columns.static_routes).toHaveLength(6);
    expect(externalIds(router)['k8s.ovn.org/id']).toBeUndefined();
  });

  it('gives the local blue pair the even address on the connect router, MACs from the IPv4 octets, peers and key 0*256+3+1', () => {
    const crtor = byIdentity(
      zone,
      'Logical_Router_Port',
      'crtor-blue-green-connect_cluster_udn_blue-network_ovn-worker',
    );
    const rtocr = byIdentity(
      zone,
      'Logical_Router_Port',
      'rtocr-cluster_udn_blue-network_ovn-worker_blue-green-connect',
    );
    expect(crtor.columns).toEqual({
      name: 'crtor-blue-green-connect_cluster_udn_blue-network_ovn-worker',
      mac: '0a:58:c0:a8:00:06',
      networks: ['192.168.0.6/31'],
      peer: 'rtocr-cluster_udn_blue-network_ovn-worker_blue-green-connect',
      options: { 'requested-tnl-key': '4' },
      external_ids: {
        ...owner,
        'k8s.ovn.org/name': cncName,
        'network-id': '1',
        'node-id': '3',
        'router-name': 'connect_router_blue-green-connect',
        'k8s.ovn.org/id': `${ID}:${cncName}:1:3:connect_router_blue-green-connect`,
      },
    });
    expect(rtocr.columns).toMatchObject({
      mac: '0a:58:c0:a8:00:07',
      networks: ['192.168.0.7/31'],
      peer: crtor.columns.name,
    });
    expect(rtocr.columns.options).toBeUndefined();
    expect(externalIds(rtocr)['router-name']).toBe('cluster_udn_blue.network_ovn_cluster_router');
    expect(rtocr.parents).toEqual([
      { table: 'Logical_Router', identity: 'cluster_udn_blue.network_ovn_cluster_router', column: 'ports' },
    ]);
  });

  it('keys the green network in the second 256-key window (slice 192.168.1.0/24): 1*256+3+1', () => {
    const crtor = byIdentity(
      zone,
      'Logical_Router_Port',
      'crtor-blue-green-connect_cluster_udn_green-network_ovn-worker',
    );
    expect(crtor.columns).toMatchObject({
      mac: '0a:58:c0:a8:01:06',
      networks: ['192.168.1.6/31'],
      options: { 'requested-tnl-key': '260' },
    });
  });

  it("binds the remote nodes' connect-router ports to their chassis, without a peer or a network-router port", () => {
    const remote = byIdentity(
      zone,
      'Logical_Router_Port',
      'crtor-blue-green-connect_cluster_udn_blue-network_ovn-control-plane',
    );
    expect(remote.columns).toMatchObject({
      networks: ['192.168.0.4/31'],
      mac: '0a:58:c0:a8:00:04',
      options: { 'requested-tnl-key': '3', 'requested-chassis': 'chassis-ovn-control-plane' },
    });
    expect(remote.columns.peer).toBeUndefined();
    expect(rowsOf(zone, 'Logical_Router_Port').map((r) => r.columns.name)).not.toContain(
      'rtocr-cluster_udn_blue-network_ovn-control-plane_blue-green-connect',
    );
    expect(
      byIdentity(zone, 'Logical_Router_Port', 'crtor-blue-green-connect_cluster_udn_green-network_ovn-worker2').columns
        .options,
    ).toEqual({ 'requested-tnl-key': '261', 'requested-chassis': 'chassis-ovn-worker2' });
  });

  it("routes every node's host subnet on the connect router via that node's network-router side", () => {
    const routes = rowsOf(zone, 'Logical_Router_Static_Route').map((r) => [
      r.columns.ip_prefix,
      r.columns.nexthop,
      externalIds(r)['k8s.ovn.org/id'],
    ]);
    expect(routes).toEqual([
      ['103.103.0.0/24', '192.168.0.5', `${ID}:${cncName}:1:2:v4`],
      ['103.103.1.0/24', '192.168.0.7', `${ID}:${cncName}:1:3:v4`],
      ['103.103.2.0/24', '192.168.0.9', `${ID}:${cncName}:1:4:v4`],
      ['104.104.0.0/24', '192.168.1.5', `${ID}:${cncName}:2:2:v4`],
      ['104.104.1.0/24', '192.168.1.7', `${ID}:${cncName}:2:3:v4`],
      ['104.104.2.0/24', '192.168.1.9', `${ID}:${cncName}:2:4:v4`],
    ]);
  });

  it("reroutes each network's pod traffic to the other network through the local connect-router side (priority 9001)", () => {
    const policies = rowsOf(zone, 'Logical_Router_Policy');
    expect(policies.map((p) => p.columns)).toEqual([
      {
        priority: 9001,
        action: 'reroute',
        nexthops: ['192.168.0.6'],
        match: 'inport == "rtos-cluster_udn_blue.network_ovn-worker" && ip4.dst == 104.104.0.0/16',
        external_ids: {
          ...owner,
          'k8s.ovn.org/name': cncName,
          'source-network-id': '1',
          'destination-network-id': '2',
          'ip-family': 'v4',
          'router-name': 'cluster_udn_blue.network_ovn_cluster_router',
          'k8s.ovn.org/id': `${ID}:${cncName}:1:2:v4:cluster_udn_blue.network_ovn_cluster_router`,
        },
      },
      {
        priority: 9001,
        action: 'reroute',
        nexthops: ['192.168.1.6'],
        match: 'inport == "rtos-cluster_udn_green.network_ovn-worker" && ip4.dst == 103.103.0.0/16',
        external_ids: {
          ...owner,
          'k8s.ovn.org/name': cncName,
          'source-network-id': '2',
          'destination-network-id': '1',
          'ip-family': 'v4',
          'router-name': 'cluster_udn_green.network_ovn_cluster_router',
          'k8s.ovn.org/id': `${ID}:${cncName}:2:1:v4:cluster_udn_green.network_ovn_cluster_router`,
        },
      },
    ]);
    expect(policies[0]!.parents).toEqual([
      { table: 'Logical_Router', identity: 'cluster_udn_blue.network_ovn_cluster_router', column: 'policies' },
    ]);
  });

  it('groups the services in cnc_svc_<cnc> attached to both local node switches, and has no partial ACLs with PodNetwork on', () => {
    const group = byIdentity(zone, 'Load_Balancer_Group', 'cnc_svc_blue-green-connect');
    expect(group.columns).toEqual({ name: 'cnc_svc_blue-green-connect', load_balancer: [] });
    expect(group.parents!.map((p) => `${p.identity}.${p.column}`)).toEqual([
      'cluster_udn_blue.network_ovn-worker.load_balancer_group',
      'cluster_udn_green.network_ovn-worker.load_balancer_group',
    ]);
    expect(rowsOf(zone, 'ACL')).toEqual([]);
    expect(rowsOf(zone, 'Address_Set')).toEqual([]);
  });

  it('binds a remote node without an Inventory chassis id to its name, as the network rows do', () => {
    const plain = zonesOf(fixtureText('blue-green.yaml')).get('ovn-worker')!;
    const remote = byIdentity(
      plain,
      'Logical_Router_Port',
      'crtor-blue-green-connect_cluster_udn_blue-network_ovn-control-plane',
    );
    expect((remote.columns.options as Record<string, string>)['requested-chassis']).toBe('ovn-control-plane');
    expect(plain.notes).toEqual([]);
  });

  it('says which remote ports it leaves out when a node comes without a chassis id', () => {
    const outcome = allocateTopology(fixtureText('blue-green.yaml'));
    if (!outcome.ok) throw new Error('fixture unusable');
    const prepared = prepareZones(outcome.allocated.cluster, outcome.allocated.allocation);
    const nodes = prepared.nodes.map(({ chassisId: _c, ...n }) => n);
    const plain = renderConnect(
      prepared.connects[0]!,
      nodes,
      prepared.zones.find((z) => z.name === 'ovn-worker')!,
    );
    expect(plain.rows.filter((r) => r.table === 'Logical_Router_Port')).toHaveLength(4);
    expect(plain.notes).toEqual([
      'zone ovn-worker: connect blue-green-connect: node ovn-control-plane has no chassisId, so its remote connect-router ports and their routes are not rendered (upstream skips them too)',
      'zone ovn-worker: connect blue-green-connect: node ovn-worker2 has no chassisId, so its remote connect-router ports and their routes are not rendered (upstream skips them too)',
    ]);
  });
});

describe('dual-stack pairs (colored-enterprise: 192.168.0.0/16 p24 + fd01::/112 p120)', () => {
  const zone = zonesOf(withChassis(fixtureText('colored-enterprise.yaml'))).get('ovn-worker')!;

  it('gives a Layer3 port both families, IPv4 first, and its MAC from the IPv4 address', () => {
    const crtor = byIdentity(
      zone,
      'Logical_Router_Port',
      'crtor-colored-enterprise_cluster_udn_green-network_ovn-worker',
    );
    expect(crtor.columns).toMatchObject({
      networks: ['192.168.1.6/31', 'fd01::106/127'],
      mac: '0a:58:c0:a8:01:06',
      options: { 'requested-tnl-key': '260' },
    });
  });

  it('gives the Layer2 network one pair from its /31 and /127 in the third block, keyed 2*256+0+1, on the transit router', () => {
    const crtor = byIdentity(zone, 'Logical_Router_Port', 'crtor-colored-enterprise_yellow_yellow-network');
    const rtocr = byIdentity(zone, 'Logical_Router_Port', 'rtocr-yellow_yellow-network_colored-enterprise');
    expect(crtor.columns).toMatchObject({
      networks: ['192.168.2.0/31', 'fd01::200/127'],
      mac: '0a:58:c0:a8:02:00',
      options: { 'requested-tnl-key': '513' },
    });
    expect(externalIds(crtor)['node-id']).toBe('0');
    expect(rtocr.columns).toMatchObject({ networks: ['192.168.2.1/31', 'fd01::201/127'], mac: '0a:58:c0:a8:02:01' });
    expect(rtocr.parents?.map((p) => p.identity)).toEqual(['yellow_yellow.network_transit_router']);
  });

  it('routes both families of a network to the same-family side of its pair', () => {
    const routes = rowsOf(zone, 'Logical_Router_Static_Route').filter((r) => externalIds(r)['network-id'] === '3');
    expect(routes.map((r) => [r.columns.ip_prefix, r.columns.nexthop, externalIds(r)['ip-family']])).toEqual([
      ['105.105.0.0/16', '192.168.2.1', 'v4'],
      ['fd00:105::/64', 'fd01::201', 'v6'],
    ]);
  });

  it('writes one policy per destination and family, the Layer2 source entering from its switch port', () => {
    const fromYellow = rowsOf(zone, 'Logical_Router_Policy').filter((p) => externalIds(p)['source-network-id'] === '3');
    expect(fromYellow.map((p) => [p.columns.match, p.columns.nexthops])).toEqual([
      ['inport == "trtos-yellow_yellow.network_ovn_layer2_switch" && ip4.dst == 103.103.0.0/16', ['192.168.2.0']],
      ['inport == "trtos-yellow_yellow.network_ovn_layer2_switch" && ip6.dst == fd00:103::/60', ['fd01::200']],
      ['inport == "trtos-yellow_yellow.network_ovn_layer2_switch" && ip4.dst == 104.104.0.0/16', ['192.168.2.0']],
      ['inport == "trtos-yellow_yellow.network_ovn_layer2_switch" && ip6.dst == fd00:104::/60', ['fd01::200']],
    ]);
  });

  it("derives an IPv6-only port's MAC from the first four bytes of SHA-256 of its address text", () => {
    const v6 = {
      clusterSubnets: ['fd00:10:128::/48'],
      serviceCIDRs: ['fd00:10:96::/112'],
      masqueradeSubnets: ['fd69::/125'],
      defaultJoinSubnets: ['fd98::/64'],
    };
    const text = yamlOf(
      labInventory({ nodes: 1, namespaces: [{ name: 'a' }, { name: 'b' }], inventory: v6 }),
      namespaceCudn('a', 'a', [{ cidr: 'fd00:a::/48', hostSubnet: 64 }]),
      namespaceCudn('b', 'b', [{ cidr: 'fd00:b::/48', hostSubnet: 64 }]),
      cnc('six', { connectSubnets: [{ cidr: 'fd01::/112', networkPrefix: 120 }] }),
    );
    const only = zonesOf(text).get('node-0')!;
    const port = byIdentity(only, 'Logical_Router_Port', 'crtor-six_cluster_udn_a_node-0');
    const digest = createHash('sha256').update('fd01::4').digest();
    const expected = ['0a', '58', ...[...digest.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0'))].join(':');
    expect(port.columns).toMatchObject({
      networks: ['fd01::4/127'],
      mac: expected,
      options: { 'requested-tnl-key': '3' },
    });
  });
});
