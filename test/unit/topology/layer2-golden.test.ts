import { describe, expect, it } from 'vitest';
import { renderNetwork } from '../../../provider/topology';
import { exampleB, exampleE, has, routeLines, rowOf, rowsOf } from './fixtures';

describe('Layer2 example B (upstream test data, IC zone of test-node, stale-node remote)', () => {
  const rows = renderNetwork(exampleB());
  const e2 = { 'k8s.ovn.org/network': 'isolatednet', 'k8s.ovn.org/topology': 'layer2' };

  it('gives the transit router and the layer2 switch their datapath keys', () => {
    expect(rowOf(rows, 'Logical_Router', 'isolatednet_transit_router').options).toEqual({
      'requested-tnl-key': '16715780',
    });
    expect(rowOf(rows, 'Logical_Router', 'isolatednet_transit_router').external_ids).toEqual({
      'k8s-cluster-router': 'yes',
      ...e2,
    });
    expect(rowOf(rows, 'Logical_Switch', 'isolatednet_ovn_layer2_switch').other_config).toEqual({
      subnet: '100.200.0.0/16',
      'interconn-ts': 'isolatednet_ovn_layer2_switch',
      'requested-tnl-key': '16711685',
      mcast_snoop: 'true',
      mcast_querier: 'false',
      mcast_flood_unregistered: 'true',
    });
  });

  it('puts the network gateway on trtos with key 1 and the local gateway chassis', () => {
    expect(rowOf(rows, 'Logical_Router_Port', 'trtos-isolatednet_ovn_layer2_switch')).toEqual({
      name: 'trtos-isolatednet_ovn_layer2_switch',
      networks: ['100.200.0.1/16'],
      mac: '0a:58:64:c8:00:01',
      options: { gateway_mtu: '1400', 'requested-tnl-key': '1' },
      gateway_chassis: ['trtos-isolatednet_ovn_layer2_switch-chassis-test'],
    });
    expect(rowOf(rows, 'Logical_Switch_Port', 'stotr-isolatednet_ovn_layer2_switch')).toEqual({
      name: 'stotr-isolatednet_ovn_layer2_switch',
      type: 'router',
      addresses: ['router'],
      options: { 'router-port': 'trtos-isolatednet_ovn_layer2_switch' },
      external_ids: e2,
    });
  });

  it('joins the gateway router through the /31 pair at 2 x node id with peers', () => {
    expect(rowOf(rows, 'Logical_Router_Port', 'trtor-GR_isolatednet_test-node')).toEqual({
      name: 'trtor-GR_isolatednet_test-node',
      networks: ['100.88.0.8/31'],
      mac: '0a:58:64:58:00:08',
      options: { 'requested-tnl-key': '14' },
      peer: 'rtotr-GR_isolatednet_test-node',
      external_ids: e2,
    });
    expect(rowOf(rows, 'Logical_Router_Port', 'rtotr-GR_isolatednet_test-node')).toEqual({
      name: 'rtotr-GR_isolatednet_test-node',
      networks: ['100.65.0.4/16', '100.88.0.9/31'],
      mac: '0a:58:64:41:00:04',
      options: { gateway_mtu: '1400' },
      peer: 'trtor-GR_isolatednet_test-node',
      external_ids: e2,
    });
  });

  it('routes, reroutes and SNATs on the transit router as upstream', () => {
    expect(routeLines(rows, 'isolatednet_transit_router')).toEqual([
      '100.200.0.0/16 src-ip 100.88.0.9',
      '100.65.0.4 dst-ip 100.88.0.9',
      '100.65.0.5 dst-ip 100.88.0.11',
    ]);
    expect(rowsOf(rows, 'Logical_Router_Policy').map((p) => `${p.priority} ${p.match} -> ${p.nexthops}`)).toEqual([
      '1004 inport == "trtos-isolatednet_ovn_layer2_switch" && ip4.dst == 192.168.126.202 /* isolatednet_ovn_layer2_switch */ -> 100.200.0.2',
    ]);
    const nat = rowOf(rows, 'NAT', 'udn-nat:isolatednet_transit_router:snat:169.254.169.14:100.200.0.0/16');
    expect(nat).toMatchObject({
      logical_port: 'trtos-isolatednet_ovn_layer2_switch',
      match: 'eth.dst == 0a:58:64:c8:00:02',
    });
  });

  it('renders the gateway router with the join IP as lb_force_snat_ip and the pod route via rtotr', () => {
    const gr = rowOf(rows, 'Logical_Router', 'GR_isolatednet_test-node');
    expect(gr.options.lb_force_snat_ip).toBe('100.65.0.4');
    expect(routeLines(rows, 'GR_isolatednet_test-node')).toContain(
      '100.200.0.0/16 dst-ip 100.88.0.8 rtotr-GR_isolatednet_test-node',
    );
  });

  it('renders the remote node as a trtor port bound to its chassis, without peer', () => {
    expect(rowOf(rows, 'Logical_Router_Port', 'trtor-GR_isolatednet_stale-node')).toEqual({
      name: 'trtor-GR_isolatednet_stale-node',
      networks: ['100.88.0.10/31'],
      mac: '0a:58:64:58:00:0a',
      options: { 'requested-tnl-key': '15', 'requested-chassis': 'chassis-stale' },
      external_ids: { ...e2, 'k8s.ovn.org/node': 'stale-node' },
    });
    const route = rowOf(
      rows,
      'Logical_Router_Static_Route',
      'udn-route:isolatednet_transit_router:dst-ip:100.65.0.5:100.88.0.11',
    );
    expect(route.external_ids).toMatchObject({ 'k8s.ovn.org/node': 'stale-node', ...e2 });
    expect(has(rows, 'Logical_Router', 'GR_isolatednet_stale-node')).toBe(false);
  });
});

describe('Layer2 example E (derived, green, zone of node-a)', () => {
  const rows = renderNetwork(exampleE());

  it('derives keys, gateway, management and transit pairs', () => {
    expect(rowOf(rows, 'Logical_Router', 'cluster_udn_green_transit_router').options).toEqual({
      'requested-tnl-key': '16715779',
    });
    expect(rowOf(rows, 'Logical_Switch', 'cluster_udn_green_ovn_layer2_switch').other_config['requested-tnl-key']).toBe(
      '16711686',
    );
    expect(rowOf(rows, 'Logical_Router_Port', 'trtos-cluster_udn_green_ovn_layer2_switch')).toMatchObject({
      networks: ['10.100.0.1/16'],
      mac: '0a:58:0a:64:00:01',
    });
    expect(rowOf(rows, 'Logical_Switch_Port', 'k8s-cluster_udn_green_node-a').addresses).toEqual([
      '0a:58:0a:64:00:02 10.100.0.2',
    ]);
    expect(rowOf(rows, 'Logical_Router_Port', 'trtor-GR_cluster_udn_green_node-a')).toMatchObject({
      networks: ['100.88.0.4/31'],
      options: { 'requested-tnl-key': '12' },
    });
    expect(rowOf(rows, 'Logical_Router_Port', 'rtotr-GR_cluster_udn_green_node-a').networks).toEqual([
      '100.65.0.2/16',
      '100.88.0.5/31',
    ]);
    expect(rowOf(rows, 'Logical_Router_Port', 'trtor-GR_cluster_udn_green_node-b')).toMatchObject({
      networks: ['100.88.0.6/31'],
      options: { 'requested-tnl-key': '13' },
    });
    expect(rowOf(rows, 'Logical_Router_Port', 'trtor-GR_cluster_udn_green_node-c')).toMatchObject({
      networks: ['100.88.0.8/31'],
      options: { 'requested-tnl-key': '14' },
    });
  });

  it('routes on the transit router and the gateway router', () => {
    expect(routeLines(rows, 'cluster_udn_green_transit_router')).toEqual([
      '10.100.0.0/16 src-ip 100.88.0.5',
      '100.65.0.2 dst-ip 100.88.0.5',
      '100.65.0.3 dst-ip 100.88.0.7',
      '100.65.0.4 dst-ip 100.88.0.9',
    ]);
    expect(routeLines(rows, 'GR_cluster_udn_green_node-a')).toContain(
      '10.100.0.0/16 dst-ip 100.88.0.4 rtotr-GR_cluster_udn_green_node-a',
    );
  });

  it('uses the masquerade IPs of network id 3', () => {
    expect(
      rowsOf(rows, 'NAT')
        .map((n) => `${n.external_ip}<-${n.logical_ip}`)
        .sort(),
    ).toEqual(['169.254.0.15<-10.100.0.0/16', '169.254.0.15<-100.65.0.2', '169.254.0.16<-10.100.0.0/16']);
  });
});
