import { describe, expect, it } from 'vitest';
import { renderNetwork } from '../../../provider/topology';
import { exampleA, exampleD, has, routeLines, rowOf, rowsOf } from './fixtures';

describe('Layer3 example A (upstream test data, IC zone of test-node)', () => {
  const rows = renderNetwork(exampleA());
  const CHASSIS = 'cb9ec8fa-b409-4ef3-9f42-d9283c47aac6';

  it('renders the cluster router with its three ports and upstream external_ids', () => {
    const cr = rowOf(rows, 'Logical_Router', 'isolatednet_ovn_cluster_router');
    expect(cr.ports).toEqual([
      'isolatednet_rtots-test-node',
      'rtoj-isolatednet_ovn_cluster_router',
      'rtos-isolatednet_test-node',
    ]);
    expect(cr.external_ids).toEqual({
      'k8s-cluster-router': 'yes',
      'k8s.ovn.org/network': 'isolatednet',
      'k8s.ovn.org/topology': 'layer3',
    });
    expect(cr.options).toEqual({ always_learn_from_arp_request: 'false' });
    expect(cr.copp).toBe('ovnkube-default');
  });

  it('gives rtos the gateway address, derived MAC, MTU and a gateway chassis', () => {
    const rtos = rowOf(rows, 'Logical_Router_Port', 'rtos-isolatednet_test-node');
    expect(rtos).toMatchObject({
      networks: ['192.168.1.1/24'],
      mac: '0a:58:c0:a8:01:01',
      options: { gateway_mtu: '1400' },
    });
    expect(rtos.external_ids).toBeUndefined();
    expect(rtos.gateway_chassis).toEqual([`rtos-isolatednet_test-node-${CHASSIS}`]);
    expect(rowOf(rows, 'Gateway_Chassis', `rtos-isolatednet_test-node-${CHASSIS}`)).toEqual({
      name: `rtos-isolatednet_test-node-${CHASSIS}`,
      chassis_name: CHASSIS,
      priority: 1,
    });
  });

  it('gives rtots the annotated transit address and rtoj the first join address', () => {
    expect(rowOf(rows, 'Logical_Router_Port', 'isolatednet_rtots-test-node')).toEqual({
      name: 'isolatednet_rtots-test-node',
      networks: ['100.88.0.3/16'],
      mac: '0a:58:64:58:00:03',
      options: { mcast_flood: 'true' },
    });
    expect(rowOf(rows, 'Logical_Router_Port', 'rtoj-isolatednet_ovn_cluster_router')).toMatchObject({
      networks: ['100.65.0.1/16'],
      mac: '0a:58:64:41:00:01',
    });
  });

  it('routes the node subnet to its gateway router and back', () => {
    expect(routeLines(rows, 'isolatednet_ovn_cluster_router')).toEqual([
      '100.65.0.4 dst-ip 100.65.0.4',
      '192.168.1.0/24 src-ip 100.65.0.4',
    ]);
  });

  it('reroutes the node IP and the GR masquerade IP to the management port at 1004', () => {
    const policies = rowsOf(rows, 'Logical_Router_Policy').map((p) => [p.priority, p.match, p.action, p.nexthops]);
    expect(policies).toEqual(
      expect.arrayContaining([
        [
          1004,
          'inport == "rtos-isolatednet_test-node" && ip4.dst == 192.168.126.202 /* isolatednet_test-node */',
          'reroute',
          ['192.168.1.2'],
        ],
        [
          1004,
          'inport == "rtos-isolatednet_test-node" && ip4.dst == 169.254.169.13 /* isolatednet_test-node */',
          'reroute',
          ['192.168.1.2'],
        ],
      ]),
    );
    expect(policies).toHaveLength(2);
  });

  it('SNATs traffic to the management port to the management masquerade IP', () => {
    const nat = rowOf(rows, 'NAT', 'udn-nat:isolatednet_ovn_cluster_router:snat:169.254.169.14:192.168.1.0/24');
    expect(nat).toMatchObject({
      type: 'snat',
      external_ip: '169.254.169.14',
      logical_ip: '192.168.1.0/24',
      logical_port: 'rtos-isolatednet_test-node',
      match: 'eth.dst == 0a:58:c0:a8:01:02',
      options: { stateless: 'false' },
      external_port_range: '32768-60999',
    });
    expect(nat.gateway_port).toBeUndefined();
  });

  it('renders the node switch with stor, the management port and the pod', () => {
    const sw = rowOf(rows, 'Logical_Switch', 'isolatednet_test-node');
    expect(sw.other_config).toEqual({ subnet: '192.168.1.0/24' });
    expect(sw.external_ids).toEqual({
      'k8s.ovn.org/network': 'isolatednet',
      'k8s.ovn.org/topology': 'layer3',
      'k8s.ovn.org/role': 'primary',
    });
    expect(sw.ports).toEqual([
      'k8s-isolatednet_test-node',
      'namespace1.blue.net_namespace1_myPod',
      'stor-isolatednet_test-node',
    ]);
    expect(rowOf(rows, 'Logical_Switch_Port', 'k8s-isolatednet_test-node')).toEqual({
      name: 'k8s-isolatednet_test-node',
      addresses: ['0a:58:c0:a8:01:02 192.168.1.2'],
    });
    expect(rowOf(rows, 'Logical_Switch_Port', 'stor-isolatednet_test-node')).toEqual({
      name: 'stor-isolatednet_test-node',
      type: 'router',
      addresses: ['router'],
      options: { 'router-port': 'rtos-isolatednet_test-node' },
    });
  });

  it('renders the pod port with upstream addresses, options and external_ids', () => {
    expect(rowOf(rows, 'Logical_Switch_Port', 'namespace1.blue.net_namespace1_myPod')).toEqual({
      name: 'namespace1.blue.net_namespace1_myPod',
      addresses: ['0a:58:c0:a8:01:03 192.168.1.3'],
      port_security: ['0a:58:c0:a8:01:03 192.168.1.3'],
      options: { 'requested-chassis': CHASSIS },
      external_ids: {
        namespace: 'namespace1',
        pod: 'true',
        'k8s.ovn.org/network': 'isolatednet',
        'k8s.ovn.org/nad': 'namespace1/blue-net',
        'k8s.ovn.org/topology': 'layer3',
      },
    });
  });

  it('renders the transit switch with its datapath key and the local tstor port', () => {
    const ts = rowOf(rows, 'Logical_Switch', 'isolatednet_transit_switch');
    expect(ts.other_config).toMatchObject({
      'interconn-ts': 'isolatednet_transit_switch',
      'requested-tnl-key': '16711685',
    });
    expect(rowOf(rows, 'Logical_Switch_Port', 'isolatednet_tstor-test-node')).toEqual({
      name: 'isolatednet_tstor-test-node',
      type: 'router',
      addresses: ['router'],
      options: { 'router-port': 'isolatednet_rtots-test-node', 'requested-tnl-key': '4' },
      external_ids: { node: 'test-node' },
    });
  });

  it('renders the gateway router with routes, NATs and both ports', () => {
    const gr = rowOf(rows, 'Logical_Router', 'GR_isolatednet_test-node');
    expect(gr.options).toEqual({
      always_learn_from_arp_request: 'false',
      dynamic_neigh_routers: 'false',
      chassis: CHASSIS,
      lb_force_snat_ip: 'router_ip',
      mac_binding_age_threshold: '300',
      disable_garp_rarp: 'true',
    });
    expect(gr.external_ids).toMatchObject({
      physical_ip: '192.168.126.202',
      physical_ips: '192.168.126.202,169.254.169.13',
      'k8s.ovn.org/role': 'primary',
    });
    // upstream's test overrides the cluster-router join IP with 169.254.169.13; the real value is 100.65.0.1
    expect(routeLines(rows, 'GR_isolatednet_test-node')).toEqual([
      '0.0.0.0/0 dst-ip 192.168.126.1 rtoe-GR_isolatednet_test-node',
      '169.254.169.0/24 dst-ip 169.254.169.4 rtoe-GR_isolatednet_test-node',
      '192.168.0.0/16 dst-ip 100.65.0.1',
    ]);
    const nats = (gr.nat as string[])
      .map((id) => rowOf(rows, 'NAT', id))
      .map((n) => `${n.external_ip}<-${n.logical_ip}`)
      .sort();
    expect(nats).toEqual(['169.254.169.13<-100.65.0.4', '169.254.169.13<-192.168.0.0/16']);
    expect(rowOf(rows, 'Logical_Router_Port', 'rtoj-GR_isolatednet_test-node')).toMatchObject({
      networks: ['100.65.0.4/16'],
      mac: '0a:58:64:41:00:04',
      options: { gateway_mtu: '1400' },
    });
    expect(rowOf(rows, 'Logical_Router_Port', 'rtoe-GR_isolatednet_test-node')).toMatchObject({
      networks: ['192.168.126.202/24', '169.254.169.13/32'],
      mac: '0a:58:c0:a8:7e:ca',
    });
  });

  it('renders the join switch, the external switch and the MAC bindings', () => {
    expect(rowOf(rows, 'Logical_Switch', 'isolatednet_join').ports).toEqual([
      'jtor-GR_isolatednet_test-node',
      'jtor-isolatednet_ovn_cluster_router',
    ]);
    expect(rowOf(rows, 'Logical_Switch_Port', 'jtor-isolatednet_ovn_cluster_router').external_ids).toBeUndefined();
    expect(rowOf(rows, 'Logical_Switch', 'ext_isolatednet_test-node').ports).toEqual([
      'breth0_isolatednet_test-node',
      'etor-GR_isolatednet_test-node',
    ]);
    expect(rowOf(rows, 'Logical_Switch_Port', 'breth0_isolatednet_test-node')).toMatchObject({
      type: 'localnet',
      addresses: ['unknown'],
      options: { network_name: 'physnet' },
    });
    expect(rowOf(rows, 'Logical_Switch_Port', 'etor-GR_isolatednet_test-node')).toMatchObject({
      type: 'router',
      addresses: ['0a:58:c0:a8:7e:ca'],
      options: { 'router-port': 'rtoe-GR_isolatednet_test-node' },
    });
    expect(
      rowsOf(rows, 'Static_MAC_Binding')
        .map((b) => `${b.logical_port} ${b.ip} ${b.mac} ${b.override_dynamic_mac}`)
        .sort(),
    ).toEqual([
      'rtoe-GR_isolatednet_test-node 169.254.169.2 0a:58:a9:fe:a9:02 true',
      'rtoe-GR_isolatednet_test-node 169.254.169.4 0a:58:a9:fe:a9:04 true',
    ]);
  });

  it('renders the allow-from-management ACL on the node switch with upstream ids', () => {
    const acl = rowsOf(rows, 'ACL').find((a) => a.external_ids['k8s.ovn.org/owner-type'] === 'NetpolNode')!;
    expect(acl).toMatchObject({
      priority: 1001,
      direction: 'to-lport',
      action: 'allow-related',
      match: 'ip4.src==192.168.1.2',
      tier: 2,
      meter: 'acl-logging',
    });
    expect(acl.external_ids['k8s.ovn.org/id']).toBe(
      'isolatednet-network-controller:NetpolNode:isolatednet_test-node:192.168.1.2',
    );
    expect(rowOf(rows, 'Logical_Switch', 'isolatednet_test-node').acls).toEqual([acl.external_ids['k8s.ovn.org/id']]);
  });
});

describe('Layer3 example D (derived, zone of node-a of three)', () => {
  const rows = renderNetwork(exampleD());

  it('derives the node-a addresses and MACs', () => {
    expect(rowOf(rows, 'Logical_Router_Port', 'rtos-cluster_udn_blue_node-a')).toMatchObject({
      networks: ['10.128.0.1/24'],
      mac: '0a:58:0a:80:00:01',
    });
    expect(rowOf(rows, 'Logical_Switch_Port', 'k8s-cluster_udn_blue_node-a').addresses).toEqual([
      '0a:58:0a:80:00:02 10.128.0.2',
    ]);
    expect(rowOf(rows, 'Logical_Router_Port', 'rtoj-GR_cluster_udn_blue_node-a')).toMatchObject({
      networks: ['100.65.0.2/16'],
      mac: '0a:58:64:41:00:02',
    });
    expect(rowOf(rows, 'Logical_Router_Port', 'rtoe-GR_cluster_udn_blue_node-a').networks).toEqual([
      '172.18.0.2/16',
      '169.254.0.13/32',
    ]);
    expect(rowOf(rows, 'Logical_Router_Port', 'cluster_udn_blue_rtots-node-a')).toMatchObject({
      networks: ['100.88.0.2/16'],
      mac: '0a:58:64:58:00:02',
    });
  });

  it('routes to local and remote nodes as upstream', () => {
    expect(routeLines(rows, 'cluster_udn_blue_ovn_cluster_router')).toEqual([
      '10.128.0.0/24 src-ip 100.65.0.2',
      '10.128.1.0/24 dst-ip 100.88.0.3',
      '10.128.2.0/24 dst-ip 100.88.0.4',
      '100.65.0.2 dst-ip 100.65.0.2',
      '100.65.0.3/32 dst-ip 100.88.0.3',
      '100.65.0.4/32 dst-ip 100.88.0.4',
    ]);
    expect(routeLines(rows, 'GR_cluster_udn_blue_node-a')).toEqual([
      '0.0.0.0/0 dst-ip 172.18.0.1 rtoe-GR_cluster_udn_blue_node-a',
      '10.128.0.0/16 dst-ip 100.65.0.1',
      '169.254.0.0/17 dst-ip 169.254.0.4 rtoe-GR_cluster_udn_blue_node-a',
    ]);
  });

  it('marks remote-node routes with ic-node', () => {
    const r = rowOf(
      rows,
      'Logical_Router_Static_Route',
      'udn-route:cluster_udn_blue_ovn_cluster_router:dst-ip:10.128.1.0/24:100.88.0.3',
    );
    expect(r.external_ids).toMatchObject({ 'ic-node': 'node-b', 'k8s.ovn.org/network': 'cluster_udn_blue' });
  });

  it('renders 1004 policies for the node IP and the GR masquerade IP, and the NATs', () => {
    expect(
      rowsOf(rows, 'Logical_Router_Policy')
        .map((p) => `${p.match} -> ${p.nexthops}`)
        .sort(),
    ).toEqual([
      'inport == "rtos-cluster_udn_blue_node-a" && ip4.dst == 169.254.0.13 /* cluster_udn_blue_node-a */ -> 10.128.0.2',
      'inport == "rtos-cluster_udn_blue_node-a" && ip4.dst == 172.18.0.2 /* cluster_udn_blue_node-a */ -> 10.128.0.2',
    ]);
    expect(
      rowsOf(rows, 'NAT')
        .map((n) => `${n.external_ip}<-${n.logical_ip}${n.match ? ` ${n.match}` : ''}`)
        .sort(),
    ).toEqual([
      '169.254.0.13<-10.128.0.0/16',
      '169.254.0.13<-100.65.0.2',
      '169.254.0.14<-10.128.0.0/24 eth.dst == 0a:58:0a:80:00:02',
    ]);
  });

  it('renders transit-switch ports for every node, remote ones bound to their chassis (example C)', () => {
    expect(rowOf(rows, 'Logical_Switch', 'cluster_udn_blue_transit_switch').ports).toEqual([
      'cluster_udn_blue_tstor-node-a',
      'cluster_udn_blue_tstor-node-b',
      'cluster_udn_blue_tstor-node-c',
    ]);
    expect(rowOf(rows, 'Logical_Switch_Port', 'cluster_udn_blue_tstor-node-c')).toEqual({
      name: 'cluster_udn_blue_tstor-node-c',
      type: 'remote',
      addresses: ['0a:58:64:58:00:04 100.88.0.4/16'],
      options: { 'requested-tnl-key': '4', 'requested-chassis': 'chassis-node-c' },
      external_ids: { node: 'node-c' },
    });
    expect(has(rows, 'Logical_Switch', 'cluster_udn_blue_node-b')).toBe(false);
    expect(has(rows, 'Logical_Router', 'GR_cluster_udn_blue_node-b')).toBe(false);
  });
});
