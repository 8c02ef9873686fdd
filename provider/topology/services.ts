/**
 * A primary network's ClusterIP load balancers, as upstream's services controller writes them:
 * network-scoped `<P>Service_<ns>/<name>_<PROTO>_cluster`, one per protocol, external ids
 * kind/owner/network/role, VIPs for every cluster IP and port. Backends are filled later from
 * the plan's pods (provider/runtime/services.ts): the Inventory lists no EndpointSlices.
 */
import type { Service } from '../model/inventory';
import { networkPrefix } from './names';
import type { DesiredRow } from './rows';
import { KIND_KEY, NETWORK_KEY, ROLE_KEY, SERVICE_OWNER_KEY } from '../model/externalIds';

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

/** The network's balanced services: each ClusterIP service of its namespaces, once per protocol. */
function balanced(namespaces: string[], services: Service[]): { service: Service; protocol: string }[] {
  return services
    .filter((s) => namespaces.includes(s.namespace) && isClusterIP(s))
    .flatMap((service) =>
      [...new Set(service.ports.map((p) => p.protocol.toUpperCase()))]
        .sort()
        .map((protocol) => ({ service, protocol })),
    );
}

/** The names of a network's ClusterIP load balancers (what a ServiceNetwork group holds). */
export function loadBalancerNames(network: string, namespaces: string[], services: Service[]): string[] {
  return balanced(namespaces, services).map(({ service, protocol }) => loadBalancerName(network, service, protocol));
}

/** The ClusterIP load balancers of a network: its namespaces' services, one per protocol. */
export function loadBalancerRows(network: string, namespaces: string[], services: Service[]): DesiredRow[] {
  return balanced(namespaces, services).map(({ service, protocol }) => {
    const vips: Record<string, string> = {};
    for (const port of service.ports.filter((p) => p.protocol.toUpperCase() === protocol)) {
      for (const ip of service.clusterIPs) vips[vip(ip, port.port)] = '';
    }
    return {
      table: 'Load_Balancer',
      columns: {
        name: loadBalancerName(network, service, protocol),
        protocol: protocol.toLowerCase(),
        vips,
        external_ids: {
          [KIND_KEY]: 'Service',
          [SERVICE_OWNER_KEY]: `${service.namespace}/${service.name}`,
          [NETWORK_KEY]: network,
          [ROLE_KEY]: 'primary',
        },
      },
    };
  });
}
