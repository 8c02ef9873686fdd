/**
 * A primary network's ClusterIP load balancers, as upstream's services controller writes them:
 * network-scoped `<P>Service_<ns>/<name>_<PROTO>_cluster`, one per protocol, external ids
 * kind/owner/network/role, VIPs for every cluster IP and port, each backed by the endpoints of
 * the service's namespace on the network. The Inventory lists no EndpointSlices, so a service's
 * endpoints are the network's pods of its namespace, on the service's port (the lab's convention:
 * every pod of a namespace serves its services), so a network's ClusterIP, and ServiceNetwork,
 * carry traffic from the YAML alone. Every pod of the network backs its services in every zone,
 * as upstream's load balancers hold every endpoint of the cluster.
 */
import { mustParseCidr, parseCidr } from '../model/cidr';
import { dict, own } from '../model/dict';
import { KIND_KEY, NETWORK_KEY, ROLE_KEY, SERVICE_OWNER_KEY } from '../model/externalIds';
import type { Service } from '../model/inventory';
import { nth } from './addresses';
import type { RenderInput } from './input';
import { networkPrefix } from './names';
import type { DesiredRow } from './rows';

/** Upstream's default masquerade subnets (config.go), for a family the cluster names none of. */
const DEFAULT_MASQUERADE = { 4: '169.254.169.0/29', 6: 'fd69::/125' } as const;

/**
 * `hairpin_snat_ip` of a service load balancer: the OVN service hairpin masquerade address (the
 * 5th of each masquerade subnet, config/utils.go AllocateV4/V6MasqueradeIPs), IPv4 then IPv6,
 * both always, upstream's default subnet standing in for a family the cluster lacks
 * (controller/services/loadbalancer.go buildLB).
 */
export function hairpinSnatIp(masqueradeSubnets: readonly string[]): string {
  return ([4, 6] as const)
    .map((family) => {
      const own = masqueradeSubnets.flatMap((m) => {
        const c = parseCidr(m);
        return c.ok && c.value.family === family ? [c.value] : [];
      })[0];
      const cidr = own ?? mustParseCidr(DEFAULT_MASQUERADE[family]);
      return nth(cidr, 5).ip;
    })
    .join(' ');
}

/**
 * The options buildLB (controller/services/loadbalancer.go) writes on every load balancer of a
 * ClusterIP service without idling annotations or session affinity (lb_config.go lbOpts: reject,
 * no empty-LB events, no skip_snat).
 */
function loadBalancerOptions(masqueradeSubnets: readonly string[]): Record<string, string> {
  return {
    event: 'false',
    hairpin_snat_ip: hairpinSnatIp(masqueradeSubnets),
    neighbor_responder: 'none',
    reject: 'true',
    skip_snat: 'false',
  };
}

/** A network's endpoints: bare pod addresses by namespace. */
export type Endpoints = Record<string, string[]>;

/** The endpoints of a network's pods (addresses bare or `ip/prefix`), by namespace. */
export function endpointsOf(pods: readonly { namespace: string; ips: readonly string[] }[]): Endpoints {
  const out: Endpoints = dict();
  for (const pod of pods) (out[pod.namespace] ??= []).push(...pod.ips.map((ip) => ip.split('/')[0]!));
  return out;
}

/** Each network's endpoints, from its render inputs (every zone's inputs hold all of a network's pods). */
export function networkEndpoints(inputs: readonly RenderInput[]): Record<string, Endpoints> {
  return dict(inputs.map((input) => [input.network.name, endpointsOf(input.pods ?? [])]));
}

/** `ip:port` or `[ip]:port` -> the address and the port. */
export function parseVip(vip: string): { ip: string; port: string } | undefined {
  const match = /^\[([0-9a-fA-F:.]+)\]:(\d+)$/.exec(vip) ?? /^([0-9.]+):(\d+)$/.exec(vip);
  return match ? { ip: match[1]!, port: match[2]! } : undefined;
}

/** The backends of one VIP: the endpoints of the VIP's family, sorted, on the VIP's port. */
export function backendsOf(vip: string, endpoints: readonly string[]): string {
  const parsed = parseVip(vip);
  if (!parsed) return '';
  const v6 = parsed.ip.includes(':');
  const ips = endpoints.filter((ip) => ip.includes(':') === v6).sort();
  return ips.map((ip) => (v6 ? `[${ip}]:${parsed.port}` : `${ip}:${parsed.port}`)).join(',');
}

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

/**
 * The ClusterIP load balancers of a network: its namespaces' services, one per protocol, backed by
 * `endpoints`, with the options of the cluster's masquerade subnets.
 */
export function loadBalancerRows(
  network: string,
  namespaces: string[],
  services: Service[],
  endpoints: Endpoints,
  masqueradeSubnets: readonly string[],
): DesiredRow[] {
  return balanced(namespaces, services).map(({ service, protocol }) => {
    const serving = own(endpoints, service.namespace) ?? [];
    const vips: Record<string, string> = {};
    for (const port of service.ports.filter((p) => p.protocol.toUpperCase() === protocol)) {
      for (const ip of service.clusterIPs) vips[vip(ip, port.port)] = backendsOf(vip(ip, port.port), serving);
    }
    return {
      table: 'Load_Balancer',
      columns: {
        name: loadBalancerName(network, service, protocol),
        protocol: protocol.toLowerCase(),
        vips,
        options: loadBalancerOptions(masqueradeSubnets),
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
