import { describe, expect, it } from 'vitest';
import { clusterLBGroupName, networkServiceRows } from '../../../provider/connect/services';
import type { Service } from '../../../provider/model/inventory';
import type { Network } from '../../../provider/model/network';
import type { DesiredRow } from '../../../provider/nb/desired';

const network = (name: string, namespaces: string[], role: 'Primary' | 'Secondary' = 'Primary') =>
  ({ name, namespaces, role }) as unknown as Network;
const blue = network('cluster_udn_blue-network', ['blue']);
const green = network('cluster_udn_green-network', ['green']);
const web: Service = {
  namespace: 'blue',
  name: 'web',
  clusterIPs: ['10.96.10.10', 'fd00:10:96::a'],
  ports: [
    { protocol: 'TCP', port: 8080 },
    { protocol: 'UDP', port: 53 },
  ],
};
const row = (table: string, name: string): DesiredRow => ({ table, columns: { name } });
const zoneRows = [
  row('Logical_Switch', 'cluster_udn_blue.network_n1'),
  row('Logical_Switch', 'cluster_udn_blue.network_n2'),
  row('Logical_Switch', 'cluster_udn_blue.network_join'),
  row('Logical_Router', 'GR_cluster_udn_blue.network_n1'),
  row('Logical_Router', 'cluster_udn_blue.network_ovn_cluster_router'),
  row('Logical_Switch', 'cluster_udn_green.network_n1'),
];

describe("the services controller's rows of a zone", () => {
  it("a network with a ClusterIP service gets one load balancer per protocol with upstream's name and external ids, held by its clusterLBGroup", () => {
    const rows = networkServiceRows([blue], [web], ['n1', 'n2'], zoneRows);
    expect(rows.map((r) => [r.table, r.columns.name])).toEqual([
      ['Load_Balancer', 'cluster_udn_blue.network_Service_blue/web_TCP_cluster'],
      ['Load_Balancer', 'cluster_udn_blue.network_Service_blue/web_UDP_cluster'],
      ['Load_Balancer_Group', 'cluster_udn_blue.network_clusterLBGroup'],
    ]);
    expect(rows[0]!.columns.vips).toEqual({ '10.96.10.10:8080': '', '[fd00:10:96::a]:8080': '' });
    expect(rows[0]!.columns.external_ids).toEqual({
      'k8s.ovn.org/kind': 'Service',
      'k8s.ovn.org/owner': 'blue/web',
      'k8s.ovn.org/network': 'cluster_udn_blue-network',
      'k8s.ovn.org/role': 'primary',
    });
    expect(rows[2]!.columns.load_balancer).toEqual([
      'cluster_udn_blue.network_Service_blue/web_TCP_cluster',
      'cluster_udn_blue.network_Service_blue/web_UDP_cluster',
    ]);
  });

  it("the group goes on the network's node switches and gateway routers found in the zone, not on its join switch or cluster router", () => {
    const group = networkServiceRows([blue], [web], ['n1', 'n2', 'n3'], zoneRows).find(
      (r) => r.table === 'Load_Balancer_Group',
    )!;
    expect(group.parents).toEqual([
      { table: 'Logical_Switch', identity: 'cluster_udn_blue.network_n1', column: 'load_balancer_group' },
      { table: 'Logical_Switch', identity: 'cluster_udn_blue.network_n2', column: 'load_balancer_group' },
      { table: 'Logical_Router', identity: 'GR_cluster_udn_blue.network_n1', column: 'load_balancer_group' },
    ]);
  });

  it("a Layer2 network's group goes on its one switch", () => {
    const yellow = network('yellow_yellow', ['blue']);
    const group = networkServiceRows(
      [yellow],
      [web],
      ['n1'],
      [row('Logical_Switch', 'yellow_yellow_ovn_layer2_switch')],
    ).find((r) => r.table === 'Load_Balancer_Group')!;
    expect(group.columns.name).toBe(clusterLBGroupName('yellow_yellow'));
    expect(group.parents).toEqual([
      { table: 'Logical_Switch', identity: 'yellow_yellow_ovn_layer2_switch', column: 'load_balancer_group' },
    ]);
  });

  it('networks without services, secondary networks and networks not rendered in the zone get nothing', () => {
    expect(networkServiceRows([green], [web], ['n1'], zoneRows)).toEqual([]);
    expect(
      networkServiceRows([network('cluster_udn_blue-network', ['blue'], 'Secondary')], [web], ['n1'], zoneRows),
    ).toEqual([]);
    expect(networkServiceRows([blue], [web], ['n1'], [row('Logical_Switch', 'cluster_udn_green.network_n1')])).toEqual(
      [],
    );
  });

  it('load balancers a ServiceNetwork connect already rendered are not repeated, and the group still names them', () => {
    const already = row('Load_Balancer', 'cluster_udn_blue.network_Service_blue/web_TCP_cluster');
    const rows = networkServiceRows([blue], [web], ['n1'], [...zoneRows, already]);
    expect(rows.filter((r) => r.table === 'Load_Balancer').map((r) => r.columns.name)).toEqual([
      'cluster_udn_blue.network_Service_blue/web_UDP_cluster',
    ]);
    expect(rows.find((r) => r.table === 'Load_Balancer_Group')!.columns.load_balancer).toHaveLength(2);
  });

  it('a headless service renders no load balancer', () => {
    expect(networkServiceRows([blue], [{ ...web, clusterIPs: ['None'] }], ['n1'], zoneRows)).toEqual([]);
  });
});
