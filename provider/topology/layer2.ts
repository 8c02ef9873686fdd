/**
 * A primary Layer2 network on the transit-router topology of OKEP-5094 (§5-§8): the layer2
 * switch, the transit router `<P>transit_router` holding the subnet's first address on
 * `trtos-…` (one gateway address and MAC for every node), and per local node a gateway router
 * joined by the peer ports `trtor-GR_…`/`rtotr-GR_…` on the node's /31 (/127) at 2 x node id,
 * with transit-router port keys 10 + node id. The per-node layout adds upstream's remote
 * `trtor-` ports (requested-chassis, no peer) and join-IP routes for the other nodes.
 *
 * Central layout (one zone; OKEP-5094 lists it as a non-goal, §10), what we render instead:
 * - the transit router is a plain distributed router (`always_learn_from_arp_request=false`,
 *   no datapath key option) and `trtos-` has no gateway chassis, so every chassis answers
 *   for the gateway address;
 * - the layer2 switch has no `interconn-ts` (no ovn-ic);
 * - one management port only, that of the lowest-id node (N ports with the same C.2 address
 *   and MAC on one switch would be ambiguous);
 * - no management SNAT: OVN applies NAT on a distributed router only through a gateway port,
 *   and there is none;
 * - datapath and port tunnel keys other than the transit router's are kept (harmless, stable);
 * - pod egress: one src-ip route per node towards its gateway router (ECMP in OVN), since the
 *   subnet does not say which node a pod is on.
 */
import { formatCidr } from '../model/cidr';
import { NODE_KEY } from '../model/externalIds';
import { transitPair, type Addr } from './addresses';
import { advertisedIsolation, advertisedPassAcl } from './advertised';
import { gatewayChassis, routerPort, routerTypePort, staticRoute } from './builders';
import { ofFamily, type NetworkContext } from './context';
import { gatewayJoinIPs, gatewaySynced, renderGatewayRouter } from './gateway';
import { switchLBGroups } from './groups';
import { nodeGatewayIP, nodeManagementIP } from './infrastructure';
import { renderLegacyLayer2 } from './layer2Legacy';
import { mtuOption, raConfigs, switchConfig } from './layer2Parts';
import { inTransition, oldRemoteNode, transitionAddresses, upgradePorts } from './layer2Upgrade';
import { macFromIPs } from './mac';
import { hostAddressPolicies, managementAcls, managementPortRow, managementSnats } from './management';
import * as names from './names';
import type { NodeContext } from './nodeContext';
import { RouterParts, SwitchParts } from './parts';
import { remoteBlock, type RemoteRow } from './remoteRows';
import type { DesiredRow } from './rows';

/** First tunnel key of the transit router's ports towards gateway routers (`10 + node id`). */
export const TRANSIT_ROUTER_PORT_FIRST_KEY = 10;

function pairs(ctx: NetworkContext, node: NodeContext): { router: Addr[]; gateway: Addr[] } {
  const all = ctx.transits.map((t) => transitPair(t, node.id));
  return { router: all.map((p) => p.router), gateway: all.map((p) => p.gateway) };
}

/** The transit router's side towards the layer2 switch, and the switch's side. */
function switchAttachment(ctx: NetworkContext, tr: RouterParts, sw: SwitchParts): DesiredRow[] {
  const trtos = names.transitRouterToSwitchPort(ctx.p);
  sw.ports.push(routerTypePort(names.switchToTransitRouterPort(ctx.p), trtos, ctx.e2));
  const local = ctx.layout === 'per-node' ? ctx.local[0] : undefined;
  const gc = local ? [gatewayChassis(names.gatewayChassisName(trtos, local.chassisId), local.chassisId)] : [];
  const v6 = ctx.subnets.some((s) => s.family === 6);
  tr.ports.push(
    routerPort(trtos, {
      networks: [...ctx.subnets.map((s) => nodeGatewayIP(ctx.infrastructure, s)), ...transitionAddresses(ctx)],
      options: { ...mtuOption(ctx, ctx.local), 'requested-tnl-key': '1' },
      gatewayChassis: gc.length > 0 ? gc.map((g) => g.columns.name as string) : undefined,
      ipv6RaConfigs: v6 ? raConfigs(ctx) : undefined,
    }),
  );
  return gc;
}

/**
 * The management port and its ACLs (syncNodeManagementPort); the transit router's management
 * SNATs and the isolation pass ACL come after SyncGateway (addOrUpdateUDNClusterSubnetEgressSNAT,
 * addAdvertisedNetworkIsolation), so not while the gateway waits for its UplinkState.
 */
function management(ctx: NetworkContext, tr: RouterParts, sw: SwitchParts): void {
  const owner = ctx.local[0];
  if (!owner) return;
  sw.ports.push(managementPortRow(ctx, names.managementPort(ctx.p, owner.name), ctx.subnets));
  sw.acls.push(...managementAcls(ctx, names.layer2SwitchName(ctx.p), ctx.subnets));
  if (!gatewaySynced(ctx)) return;
  if (ctx.advertised) sw.acls.push(advertisedPassAcl(ctx));
  if (ctx.layout === 'per-node')
    tr.nats.push(
      ...managementSnats(ctx, names.transitRouterName(ctx.p), names.transitRouterToSwitchPort(ctx.p), ctx.subnets, {
        portRange: owner.portRange,
      }),
    );
}

/** A local node: its trtor/rtotr pair, gateway router, egress and join routes, 1004 policies. */
function localNode(ctx: NetworkContext, node: NodeContext, tr: RouterParts): DesiredRow[] {
  const trName = names.transitRouterName(ctx.p);
  const trtor = names.transitRouterToGatewayPort(ctx.p, node.name);
  const rtotr = names.gatewayToTransitRouterPort(ctx.p, node.name);
  const { router, gateway } = pairs(ctx, node);
  const joins = gatewayJoinIPs(ctx, node);
  tr.ports.push(
    routerPort(trtor, {
      networks: router,
      options: { 'requested-tnl-key': String(TRANSIT_ROUTER_PORT_FIRST_KEY + node.id) },
      peer: rtotr,
      externalIds: ctx.e2,
    }),
  );
  for (const s of ctx.subnets) {
    const nexthop =
      ctx.cluster.gatewayMode === 'local' ? nodeManagementIP(ctx.infrastructure, s) : ofFamily(gateway, s.family);
    if (nexthop)
      tr.routes.push(
        staticRoute(trName, { prefix: formatCidr(s), nexthop: nexthop.ip, srcIp: true, externalIds: ctx.e2 }),
      );
  }
  tr.routes.push(...joinRoutes(ctx, node, trName, ctx.e2));
  const switchName = names.layer2SwitchName(ctx.p);
  tr.policies.push(
    ...hostAddressPolicies(
      ctx,
      trName,
      names.transitRouterToSwitchPort(ctx.p),
      switchName,
      node.gateway?.ips ?? [],
      ctx.subnets,
    ),
  );
  const uplink = routerPort(rtotr, {
    networks: [...joins, ...gateway],
    mac: macFromIPs((joins.length > 0 ? joins : gateway).map((a) => a.ip)),
    options: mtuOption(ctx, [node]),
    peer: trtor,
    externalIds: ctx.e2,
  });
  const gr = names.gatewayRouterName(ctx.p, node.name);
  const podRoutes = ctx.subnets.flatMap((s) => {
    const via = ofFamily(router, s.family);
    return via
      ? [staticRoute(gr, { prefix: formatCidr(s), nexthop: via.ip, outputPort: rtotr, externalIds: ctx.e2 })]
      : [];
  });
  return renderGatewayRouter(ctx, node, {
    uplinkPorts: [uplink],
    podRoutes,
    lbForceSnatIp: joins.map((j) => j.ip).join(' '),
  });
}

/** Transit-router routes to a node's GR join IPs through the GR side of its transit pair. */
function joinRoutes(
  ctx: NetworkContext,
  node: NodeContext,
  trName: string,
  externalIds: Record<string, string>,
): DesiredRow[] {
  const { gateway } = pairs(ctx, node);
  return gatewayJoinIPs(ctx, node).flatMap((j) => {
    const via = ofFamily(gateway, j.family);
    return via ? [staticRoute(trName, { prefix: j.ip, nexthop: via.ip, externalIds })] : [];
  });
}

/** A remote node in the per-node layout: its `trtor-` port bound to its chassis, its join route. */
function remoteNode(ctx: NetworkContext, node: NodeContext): RemoteRow[] {
  const externalIds = { ...ctx.e2, [NODE_KEY]: node.name };
  const port = routerPort(names.transitRouterToGatewayPort(ctx.p, node.name), {
    networks: pairs(ctx, node).router,
    options: {
      'requested-tnl-key': String(TRANSIT_ROUTER_PORT_FIRST_KEY + node.id),
      'requested-chassis': node.chassisId,
    },
    externalIds,
  });
  const routes = joinRoutes(ctx, node, names.transitRouterName(ctx.p), { [NODE_KEY]: node.name, ...ctx.e2 });
  return [{ column: 'ports', row: port }, ...routes.map((row) => ({ column: 'routes', row }))];
}

function transitRouterOptions(ctx: NetworkContext): Record<string, string> {
  const options: Record<string, string> =
    ctx.layout === 'per-node'
      ? { 'requested-tnl-key': String(ctx.tunnelKeys!.transitRouter) }
      : { always_learn_from_arp_request: 'false' };
  if (ctx.cluster.gatewayMode === 'local') options['ct-commit-all'] = 'true';
  return options;
}

/** Every row of a Layer2 network in the zone; `podPorts` are the pod LSPs on the layer2 switch. */
export function renderLayer2(ctx: NetworkContext, podPorts: DesiredRow[]): DesiredRow[] {
  if (ctx.layout === 'per-node' && ctx.local[0]?.legacy) return renderLegacyLayer2(ctx, podPorts);
  const tr = new RouterParts();
  const sw = new SwitchParts();
  const rows = switchAttachment(ctx, tr, sw);
  management(ctx, tr, sw);
  sw.ports.push(...podPorts);
  // layer2_user_defined_network_controller.go addUpdateLocalNodeEvent: no SyncGateway (nor what
  // follows it) while nodeGatewayConfig fails; the switch's side of the transit router stays
  // (syncClusterRouterPorts)
  for (const node of ctx.local) if (!node.gatewayWaits) rows.push(...localNode(ctx, node, tr));
  if (inTransition(ctx)) {
    const upgrade = upgradePorts(ctx, ctx.local[0]!);
    sw.ports.push(upgrade.switchPort);
    tr.ports.push(upgrade.routerPort);
  }
  if (ctx.remoteCount > 0) {
    // the same rows in every zone: built once per network (remoteRows.ts); old nodes: layer2Upgrade.ts
    const rowsOf = (node: NodeContext) => (node.legacy ? oldRemoteNode(ctx, node) : remoteNode(ctx, node));
    const { block, local } = remoteBlock(ctx, 'layer2-remote', rowsOf);
    tr.remote.ports = () => block.zoneIds('ports', local);
    tr.remote.routes = () => block.zoneIds('routes', local);
    if (ctx.legacyCount > 0) sw.remote.ports = () => block.zoneIds('switchPorts', local);
  }
  rows.push(
    ...tr.build({
      name: names.transitRouterName(ctx.p),
      options: transitRouterOptions(ctx),
      external_ids: { 'k8s-cluster-router': 'yes', ...ctx.e2 },
      copp: names.DEFAULT_COPP,
    }),
  );
  const isolated = gatewaySynced(ctx) ? [names.switchToTransitRouterPort(ctx.p)] : undefined;
  if (ctx.advertised) rows.push(...advertisedIsolation(ctx, isolated));
  rows.push(
    ...sw.build({
      name: names.layer2SwitchName(ctx.p),
      other_config: switchConfig(ctx),
      external_ids: ctx.e3,
      load_balancer_group: switchLBGroups(ctx),
    }),
  );
  return rows;
}
