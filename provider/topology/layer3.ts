/**
 * A primary Layer3 network in one zone (udn-topology-upstream.md §1-§4): the cluster router
 * `<P>ovn_cluster_router`, the join switch, and per local node the node switch with its
 * `stor-`/`rtos-` pair, management port, gateway router and the routes, 1004 policies and NATs
 * that tie them together. The per-node layout adds the interconnect rows (layer3-ic.ts), except
 * for NoOverlay and EVPN networks (upstream's hasInterconnectTransport); an advertised network
 * adds its isolation rows (advertised.ts).
 *
 * Central layout (one Northbound binding every node; upstream's removed central mode, §10):
 * no transit switch; remote subnets are connected routes of the shared cluster router; every
 * `rtos-` port keeps its gateway chassis (one distributed gateway port per node), so the
 * management SNAT names its `rtos-` port in `gateway_port` (required with several DGPs).
 * GRs keep upstream-current `dynamic_neigh_routers=false`.
 */
import { formatCidr, type Cidr } from '../model/cidr';
import { clusterRouterJoinIP, gatewayIP, managementIP } from './addresses';
import { advertisedIsolation, advertisedPassAcl } from './advertised';
import { gatewayChassis, routerPort, routerTypePort, staticRoute } from './builders';
import { ofFamily, type NetworkContext } from './context';
import { snatExemptionSets } from './egressSnat';
import { gatewayJoinIPs, networkMasqueradeIPs, renderGatewayRouter } from './gateway';
import { switchLBGroups } from './groups';
import { renderLayer3Interconnect } from './layer3-ic';
import { hostAddressPolicies, managementAcls, managementPortRow, managementSnats } from './management';
import * as names from './names';
import type { NodeContext } from './nodeContext';
import { RouterParts, SwitchParts } from './parts';
import type { DesiredRow } from './rows';

/** Node switch other_config: `subnet` (v4) and `ipv6_prefix` (v6 network address). */
export function subnetConfig(subnets: readonly Cidr[]): Record<string, string> {
  const config: Record<string, string> = {};
  const v4 = ofFamily(subnets, 4);
  const v6 = ofFamily(subnets, 6);
  if (v4) config.subnet = formatCidr(v4);
  if (v6) config.ipv6_prefix = formatCidr(v6).split('/')[0] as string;
  return config;
}

/** `gateway_mtu` is the cluster MTU (config.Default.MTU), where the node supports it. */
export function gatewayMtu(ctx: NetworkContext, node: NodeContext): Record<string, string> {
  return node.gatewayMtu ? { gateway_mtu: String(ctx.clusterMtu) } : {};
}

/** Routes on the cluster router for a local node: pod egress (src-ip) and the GR return route. */
function clusterRouterNodeRoutes(ctx: NetworkContext, node: NodeContext, cr: string): DesiredRow[] {
  const joins = gatewayJoinIPs(ctx, node);
  const egress = node.hostSubnets.flatMap((s) => {
    const nexthop = ctx.cluster.gatewayMode === 'local' ? managementIP(s) : ofFamily(joins, s.family);
    return nexthop
      ? [staticRoute(cr, { prefix: formatCidr(s), nexthop: nexthop.ip, srcIp: true, externalIds: ctx.e2 })]
      : [];
  });
  const back = joins.map((j) => staticRoute(cr, { prefix: j.ip, nexthop: j.ip, externalIds: ctx.e2 }));
  return [...egress, ...back];
}

/**
 * The `stor-`/`rtos-` pair between a node's switch and the cluster router, primary or secondary
 * (createNodeLogicalSwitch, syncNodeClusterRouterPort): the router's port, with its gateway chassis,
 * goes into `cr`; the switch's port and the chassis row are returned.
 */
export function nodeRouterLink(
  ctx: NetworkContext,
  node: NodeContext,
  cr: RouterParts,
): { switchPort: DesiredRow; chassis: DesiredRow } {
  const rtos = names.routerToSwitchPort(ctx.p, node.name);
  const chassis = gatewayChassis(names.gatewayChassisName(rtos, node.chassisId), node.chassisId);
  cr.ports.push(
    routerPort(rtos, {
      networks: node.hostSubnets.map(gatewayIP),
      options: gatewayMtu(ctx, node),
      gatewayChassis: [chassis.columns.name as string],
    }),
  );
  return { switchPort: routerTypePort(names.switchToRouterPort(ctx.p, node.name), rtos), chassis };
}

function nodeSwitch(ctx: NetworkContext, node: NodeContext, cr: RouterParts, pods: DesiredRow[]): DesiredRow[] {
  const name = names.nodeSwitchName(ctx.p, node.name);
  const link = nodeRouterLink(ctx, node, cr);
  const sw = new SwitchParts();
  sw.ports.push(link.switchPort);
  sw.ports.push(managementPortRow(ctx, names.managementPort(ctx.p, node.name), node.hostSubnets), ...pods);
  sw.acls.push(...managementAcls(ctx, name, node.hostSubnets));
  if (ctx.advertised) sw.acls.push(advertisedPassAcl(ctx));
  const columns = { name, other_config: subnetConfig(node.hostSubnets), external_ids: ctx.e3 };
  return [...sw.build({ ...columns, load_balancer_group: switchLBGroups(ctx) }), link.chassis];
}

/**
 * The cluster router's rows for a local node: the management SNATs (addNode,
 * addOrUpdateUDNNodeSubnetEgressSNAT) and, with the node's gateway, its routes
 * (gateway.go gatewayInit updateClusterRouterStaticRoutes) and 1004 policies (SyncGateway
 * AddSameNodeIPPolicy), which a node waiting for its UplinkState does not get.
 */
function nodeRouting(ctx: NetworkContext, node: NodeContext, cr: RouterParts): void {
  const crName = names.clusterRouterName(ctx.p);
  const rtos = names.routerToSwitchPort(ctx.p, node.name);
  if (!node.gatewayWaits) {
    const hostIPs = [...(node.gateway?.ips ?? []), ...networkMasqueradeIPs(ctx).map((m) => m.gatewayRouter)];
    cr.routes.push(...clusterRouterNodeRoutes(ctx, node, crName));
    cr.policies.push(
      ...hostAddressPolicies(ctx, crName, rtos, names.nodeSwitchName(ctx.p, node.name), hostIPs, node.hostSubnets),
    );
  }
  const gatewayPort = ctx.layout === 'central' ? rtos : undefined;
  cr.nats.push(
    ...managementSnats(ctx, crName, rtos, node.hostSubnets, {
      portRange: node.portRange,
      gatewayPort,
    }),
  );
}

function nodeGateway(ctx: NetworkContext, node: NodeContext, joinPorts: DesiredRow[]): DesiredRow[] {
  const gr = names.gatewayRouterName(ctx.p, node.name);
  const joins = gatewayJoinIPs(ctx, node);
  const rtoj = routerPort(names.routerToJoinPort(gr), {
    networks: joins,
    options: gatewayMtu(ctx, node),
    externalIds: ctx.e2,
  });
  joinPorts.push(routerTypePort(names.joinToRouterPort(gr), names.routerToJoinPort(gr), ctx.e2));
  const crJoins = ctx.joins.map(clusterRouterJoinIP);
  // NoOverlay: other nodes' pods are reached through the physical network (updateGWRouterStaticRoutes)
  const routed = ctx.noOverlay ? node.hostSubnets : ctx.subnets;
  const podRoutes = routed.flatMap((s) => {
    const nexthop = ofFamily(crJoins, s.family);
    return nexthop ? [staticRoute(gr, { prefix: formatCidr(s), nexthop: nexthop.ip, externalIds: ctx.e2 })] : [];
  });
  return renderGatewayRouter(ctx, node, { uplinkPorts: [rtoj], podRoutes, lbForceSnatIp: 'router_ip' });
}

export function clusterRouterOptions(ctx: NetworkContext): Record<string, string> {
  const options: Record<string, string> = { always_learn_from_arp_request: 'false' };
  if (ctx.cluster.gatewayMode === 'local') options['ct-commit-all'] = 'true';
  return options;
}

/** Every row of a Layer3 network in the zone; `podPorts` maps a node name to its pod LSPs. */
export function renderLayer3(ctx: NetworkContext, podPorts: Map<string, DesiredRow[]>): DesiredRow[] {
  const cr = new RouterParts();
  const join = new SwitchParts();
  const crName = names.clusterRouterName(ctx.p);
  const rows: DesiredRow[] = [];
  cr.ports.push(
    routerPort(names.routerToJoinPort(crName), { networks: ctx.joins.map(clusterRouterJoinIP), externalIds: ctx.e2 }),
  );
  join.ports.push(routerTypePort(names.joinToRouterPort(crName), names.routerToJoinPort(crName)));
  for (const node of ctx.local) {
    rows.push(...nodeSwitch(ctx, node, cr, podPorts.get(node.name) ?? []));
    nodeRouting(ctx, node, cr);
    // layer3_user_defined_network_controller.go addUpdateLocalNodeEvent: no SyncGateway while
    // nodeGatewayConfig fails; the node switch, management port and isolation (addNode) stay
    if (!node.gatewayWaits) rows.push(...nodeGateway(ctx, node, join.ports));
  }
  if (ctx.layout === 'per-node' && ctx.interconnect) rows.push(...renderLayer3Interconnect(ctx, cr));
  if (ctx.advertised)
    rows.push(
      ...advertisedIsolation(
        ctx,
        ctx.local.map((n) => names.switchToRouterPort(ctx.p, n.name)),
      ),
    );
  rows.push(...snatExemptionSets(ctx));
  rows.push(
    ...cr.build({
      name: crName,
      options: clusterRouterOptions(ctx),
      external_ids: { 'k8s-cluster-router': 'yes', ...ctx.e2 },
      copp: names.DEFAULT_COPP,
    }),
  );
  rows.push(...join.build({ name: names.joinSwitchName(ctx.p), external_ids: ctx.e2 }));
  return rows;
}
