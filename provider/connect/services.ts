/**
 * ServiceNetwork (upstream §3.5): the connect's load-balancer group `cnc_svc_<cnc>` holding the
 * ClusterIP load balancers of every connected network, attached to the zone's pod switches of
 * each network. The load balancers are rendered here from the Inventory's services the way
 * upstream's services controller names them (network-scoped `Service_<ns>/<name>_<PROTO>_cluster`,
 * external ids kind/owner/network), one per protocol, with empty backends: the Inventory lists
 * no endpoints.
 */
import type { Service } from '../model/inventory';
import type { DesiredRow } from '../nb/desired';
import { networkPrefix } from '../topology/names';
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
          external_ids: { 'k8s.ovn.org/kind': 'Service', 'k8s.ovn.org/owner': `${service.namespace}/${service.name}`, 'k8s.ovn.org/network': network },
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
  const parents = input.networks.flatMap((n) => podSwitches(n, localNodes).map((sw) => ({ table: 'Logical_Switch', identity: sw, column: 'load_balancer_group' })));
  const balancers = [...new Set(input.networks.flatMap((n) => n.loadBalancers))].sort();
  return { table: 'Load_Balancer_Group', columns: { name: serviceGroupName(input.name), load_balancer: balancers }, parents };
}
