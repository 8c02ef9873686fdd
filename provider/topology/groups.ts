/**
 * What every primary network has from its creation, with or without services: the three
 * load-balancer groups of upstream's initLoadBalancerGroups (`<P>clusterLBGroup` holding the
 * network's ClusterIP load balancers, `<P>clusterSwitchLBGroup`, `<P>clusterRouterLBGroup`), and
 * the two port groups of setupClusterPortGroups (base_network_controller.go): the cluster port
 * group, holding the management ports and the allow-hairpinning ACLs of addHairpinAllowACL
 * (base_network_controller_policy.go), and the cluster router port group (empty without
 * multicast). Port group names are upstream's HashForOVN of their `k8s.ovn.org/id`. Node and
 * Layer2 switches hold [cluster, switch] groups, gateway routers [cluster, router] (upstream adds
 * the router group when node ports are enabled, its default; the Inventory has no switch for it).
 */
import { formatAddress } from '../model/cidr';
import { objectIds } from '../model/dbObjectIds';
import { NAME_KEY } from '../model/externalIds';
import { hashForOvn } from '../model/hash';
import type { Service } from '../model/inventory';
import { UPSTREAM_ID_KEY } from '../nb/ownership';
import type { NetworkContext } from './context';
import type { PodInput } from './input';
import { ACL_LOGGING_METER, networkControllerName } from './names';
import { refs, row, type DesiredRow } from './rows';
import { endpointsOf, loadBalancerRows } from './services';

export const clusterLBGroupName = (p: string): string => `${p}clusterLBGroup`;
export const clusterSwitchLBGroupName = (p: string): string => `${p}clusterSwitchLBGroup`;
export const clusterRouterLBGroupName = (p: string): string => `${p}clusterRouterLBGroup`;

/** The groups a node switch or the Layer2 switch holds. */
export const switchLBGroups = (ctx: NetworkContext): string[] => [
  clusterLBGroupName(ctx.p),
  clusterSwitchLBGroupName(ctx.p),
];

/** The groups a gateway router holds. */
export const routerLBGroups = (ctx: NetworkContext): string[] => [
  clusterLBGroupName(ctx.p),
  clusterRouterLBGroupName(ctx.p),
];

function portGroup(ctx: NetworkContext, base: string, ports: string[], acls: DesiredRow[]): DesiredRow {
  const externalIds = objectIds(networkControllerName(ctx.name), 'Cluster', [[NAME_KEY, base]]);
  return row('Port_Group', {
    name: hashForOvn(externalIds[UPSTREAM_ID_KEY]!),
    ports: [...ports].sort(),
    acls: refs(acls),
    external_ids: externalIds,
  });
}

/** The service hairpin masquerade address of each cluster family (masquerade subnet + 5). */
function hairpinMatch(ctx: NetworkContext): string {
  const terms = ctx.masquerades.map((m) => {
    return `ip${m.family}.src == ${formatAddress(m.family, m.base + 5n)}`;
  });
  return terms.length === 1 ? terms[0]! : `(${terms.join(' || ')})`;
}

function hairpinAcl(ctx: NetworkContext, direction: 'Ingress' | 'Egress'): DesiredRow {
  const columns: Record<string, unknown> = {
    priority: 1001,
    direction: direction === 'Ingress' ? 'to-lport' : 'from-lport',
    action: 'allow-related',
    match: hairpinMatch(ctx),
    meter: ACL_LOGGING_METER,
    tier: 2,
    external_ids: objectIds(networkControllerName(ctx.name), 'NetpolDefault', [
      [NAME_KEY, 'allow-hairpinning'],
      ['direction', direction],
    ]),
  };
  if (direction === 'Egress') columns.options = { 'apply-after-lb': 'true' };
  return row('ACL', columns);
}

/**
 * The three groups of initLoadBalancerGroups, which every Layer3 and Layer2 network has, primary
 * or secondary; `services` are the load balancers of `<P>clusterLBGroup`.
 */
export function loadBalancerGroups(ctx: NetworkContext, services: DesiredRow[]): DesiredRow[] {
  return [
    row('Load_Balancer_Group', { name: clusterLBGroupName(ctx.p), load_balancer: refs(services).sort() }),
    row('Load_Balancer_Group', { name: clusterSwitchLBGroupName(ctx.p), load_balancer: [] }),
    row('Load_Balancer_Group', { name: clusterRouterLBGroupName(ctx.p), load_balancer: [] }),
  ];
}

/** The groups of the network in this zone; `managementPorts` are the zone's management LSPs. */
export function networkGroups(ctx: NetworkContext, managementPorts: string[], services: DesiredRow[]): DesiredRow[] {
  const acls = [hairpinAcl(ctx, 'Egress'), hairpinAcl(ctx, 'Ingress')];
  return [
    ...loadBalancerGroups(ctx, services),
    portGroup(ctx, 'clusterPortGroup', managementPorts, acls),
    portGroup(ctx, 'clusterRtrPortGroup', [], []),
    ...acls,
    ...services,
  ];
}

/** The network's ClusterIP load balancers (services.ts), for its `<P>clusterLBGroup`, backed by its pods. */
export function serviceBalancers(ctx: NetworkContext, services: Service[], pods: readonly PodInput[]): DesiredRow[] {
  const namespaces = [...new Set(services.map((s) => s.namespace))];
  return loadBalancerRows(ctx.name, namespaces, services, endpointsOf(pods), ctx.cluster.masqueradeSubnets);
}
