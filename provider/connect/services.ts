/**
 * The Inventory's ClusterIP services as upstream's services controller renders them for a
 * primary network: network-scoped `Service_<ns>/<name>_<PROTO>_cluster` load balancers (external
 * ids kind/owner/network/role), one per protocol, with empty backends (the Inventory lists no
 * endpoints), held by the network's `<P>clusterLBGroup` on its node switches and gateway routers,
 * so a network's own ClusterIP works without any connect. And ServiceNetwork (upstream §3.5):
 * the connect's group `cnc_svc_<cnc>` holding the same load balancers of every connected
 * network, attached to the zone's pod switches of each network.
 */
import type { Service } from '../model/inventory';
import type { Network } from '../model/network';
import type { DesiredRow, ParentRef } from '../nb/desired';
import { gatewayRouterName, layer2SwitchName, networkPrefix, nodeSwitchName } from '../topology/names';
import { serviceGroupName } from './ids';
import type { ConnectInput } from './input';
import { podSwitches } from './networkNames';

export function loadBalancerName(network: string, service: Service, protocol: string): string {
  return `${networkPrefix(network)}Service_${service.namespace}/${service.name}_${protocol.toUpperCase()}_cluster`;
}

/** A ClusterIP service that has addresses (headless services have none). */
function isClusterIP(service: Service): boolean {
  return service.clusterIPs.length > 0 && !service.clusterIPs.includes('None') && service.ports.length > 0;
}

function vip(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** The ClusterIP load balancers of a network: its namespaces' services, one per protocol. */
export function loadBalancerRows(network: string, namespaces: string[], services: Service[]): DesiredRow[] {
  const rows: DesiredRow[] = [];
  for (const service of services.filter((s) => namespaces.includes(s.namespace) && isClusterIP(s))) {
    const protocols = [...new Set(service.ports.map((p) => p.protocol.toUpperCase()))].sort();
    for (const protocol of protocols) {
      const vips: Record<string, string> = {};
      for (const port of service.ports.filter((p) => p.protocol.toUpperCase() === protocol)) {
        for (const ip of service.clusterIPs) vips[vip(ip, port.port)] = '';
      }
      rows.push({
        table: 'Load_Balancer',
        columns: {
          name: loadBalancerName(network, service, protocol),
          protocol: protocol.toLowerCase(),
          vips,
          external_ids: {
            'k8s.ovn.org/kind': 'Service',
            'k8s.ovn.org/owner': `${service.namespace}/${service.name}`,
            'k8s.ovn.org/network': network,
            'k8s.ovn.org/role': 'primary',
          },
        },
      });
    }
  }
  return rows;
}

/**
 * The group row, with the zone's pod switches of every connected network as its parents (a weak
 * reference set; the group has no external_ids and is owned through nb's ledger).
 */
export function serviceGroup(input: ConnectInput, localNodes: string[]): DesiredRow {
  const parents = input.networks.flatMap((n) =>
    podSwitches(n, localNodes).map((sw) => ({ table: 'Logical_Switch', identity: sw, column: 'load_balancer_group' })),
  );
  const balancers = [...new Set(input.networks.flatMap((n) => n.loadBalancers))].sort();
  return {
    table: 'Load_Balancer_Group',
    columns: { name: serviceGroupName(input.name), load_balancer: balancers },
    parents,
  };
}

/** Upstream's network-scoped cluster-wide load-balancer group (types.ClusterLBGroupName). */
export const clusterLBGroupName = (network: string): string => `${networkPrefix(network)}clusterLBGroup`;

/** The network's node switches, Layer2 switch and gateway routers among a zone's rows, as group parents. */
function groupParents(network: string, nodes: string[], rows: DesiredRow[]): ParentRef[] {
  const p = networkPrefix(network);
  const present = new Set(
    rows
      .filter((r) => r.table === 'Logical_Switch' || r.table === 'Logical_Router')
      .map((r) => `${r.table}\u0000${String(r.columns.name)}`),
  );
  const wanted = [
    ...[...nodes.map((n) => nodeSwitchName(p, n)), layer2SwitchName(p)].map(
      (name) => ['Logical_Switch', name] as const,
    ),
    ...nodes.map((n) => ['Logical_Router', gatewayRouterName(p, n)] as const),
  ];
  return wanted
    .filter(([table, name]) => present.has(`${table}\u0000${name}`))
    .map(([table, identity]) => ({ table, identity, column: 'load_balancer_group' }));
}

/**
 * The services controller's rows for one zone: for every primary network whose switches are among
 * the zone's `rows`, its ClusterIP load balancers and its `<P>clusterLBGroup` holding them,
 * attached where upstream attaches that group. Load balancers already in `rows` (a ServiceNetwork
 * connect rendered them) are not repeated. `nodes`: every node name of the cluster.
 */
export function networkServiceRows(
  networks: Network[],
  services: Service[],
  nodes: string[],
  rows: DesiredRow[],
): DesiredRow[] {
  const rendered = new Set(rows.filter((r) => r.table === 'Load_Balancer').map((r) => String(r.columns.name)));
  return networks
    .filter((n) => n.role === 'Primary')
    .flatMap((network) => {
      const balancers = loadBalancerRows(network.name, network.namespaces, services);
      const parents = balancers.length === 0 ? [] : groupParents(network.name, nodes, rows);
      if (parents.length === 0) return [];
      const names = balancers.map((r) => r.columns.name as string);
      const group: DesiredRow = {
        table: 'Load_Balancer_Group',
        columns: { name: clusterLBGroupName(network.name), load_balancer: names },
        parents,
      };
      return [...balancers.filter((r) => !rendered.has(r.columns.name as string)), group];
    });
}
