/**
 * A primary Layer2 network while its nodes move to the transit-router topology one at a time
 * (OKEP-5094 "Rolling upgrade and traffic disruption"). Zones of nodes not yet upgraded render the
 * old topology (layer2Legacy.ts); the zone of an upgraded node renders the transit router
 * (layer2.ts) plus, while any other node is old, what upstream at 8871cd9 adds for them
 * (layer2_user_defined_network_controller.go):
 *
 * - `ensureUpgradeTopology`: a router-type port `stotr-<P>ovn_layer2_switch-upgrade` on the layer2
 *   switch with the node's old gateway port key, so the old nodes' `remote` stand-ins for this node
 *   still reach it, peered with `trtos-<P>ovn_layer2_switch-upgrade` on the transit router, which
 *   carries the node's old gateway MAC (its first join IP's) and, as addresses, the last-but-one
 *   address of each join subnet (getLastJoinIPs: an address no node's join IP takes); and the
 *   management-port masquerade IPs added to `trtos-<P>ovn_layer2_switch`, so only that port
 *   answers for them (the OKEP's "move the rtos-GR LRP to the cluster router");
 * - `addRouterSetupForRemoteNodeGR` for an old node: its `remote` stand-in
 *   `stor-<P>ovn_layer2_switch_<node>` (as old zones have it) and a transit-router route to its
 *   join IP via that same join IP, so the longest prefix always wins (no `trtor-` port: the old
 *   node has no transit-router peer); the OKEP's "retain remote stor-GR ports" and "transitory
 *   routes";
 * - `cleanupUpgradeTopology`: once no node is old, none of this is rendered, so an apply removes
 *   it (the OKEP's "After upgrade cleanups"); an upgraded zone's old gateway-router port, switch
 *   port, policies and NATs are no longer rendered either (gateway.go oldLayer2TopoCleanup deletes
 *   the GR and recreates it; an apply here updates the GR in place to the same rows).
 *
 * The OKEP's "keep the node-IP masquerade SNAT on the gateway router": upstream recreates the GR
 * with the new topology's NATs (the cluster-subnet SNAT to the network's masquerade IP stays on the
 * GR; the management SNAT moves to the transit router), and so do we.
 */
import { addressBits, type Cidr } from '../model/cidr';
import { NODE_KEY } from '../model/externalIds';
import { nth, type Addr } from './addresses';
import { routerPort, routerTypePort, staticRoute } from './builders';
import type { NetworkContext } from './context';
import { gatewayJoinIPs, networkMasqueradeIPs } from './gateway';
import { legacyRemotePort } from './layer2Legacy';
import { macFromIP } from './mac';
import * as names from './names';
import type { NodeContext } from './nodeContext';
import type { RemoteRow } from './remoteRows';
import type { DesiredRow } from './rows';

/** An upgraded per-node zone while another node of the network is still on the old topology. */
export function inTransition(ctx: NetworkContext): boolean {
  return ctx.layout === 'per-node' && ctx.legacyCount > 0 && ctx.local[0]?.legacy === false;
}

/** upstream's GetLastIPsFromJoinSubnet: the last-but-one address of each join subnet, with its prefix. */
export function lastJoinIPs(ctx: NetworkContext): Addr[] {
  return ctx.joins.map((j: Cidr) => nth(j, (1n << BigInt(addressBits(j.family) - j.prefix)) - 2n));
}

/** The management masquerade IPs `trtos-` holds during the transition (ensureUpgradeTopology). */
export function transitionAddresses(ctx: NetworkContext): Addr[] {
  return inTransition(ctx) ? networkMasqueradeIPs(ctx).map((m) => m.management) : [];
}

/** The `-upgrade` port pair (ensureUpgradeTopology) of the zone's node. */
export function upgradePorts(
  ctx: NetworkContext,
  node: NodeContext,
): { switchPort: DesiredRow; routerPort: DesiredRow } {
  const joins = gatewayJoinIPs(ctx, node);
  return {
    switchPort: routerTypePort(names.upgradeSwitchPort(ctx.p), names.upgradeRouterPort(ctx.p), ctx.e2, {
      'requested-tnl-key': String(node.legacyTunnelId),
    }),
    routerPort: routerPort(names.upgradeRouterPort(ctx.p), {
      networks: lastJoinIPs(ctx),
      mac: macFromIP(joins[0]!.ip),
    }),
  };
}

/** An old node as an upgraded zone holds it: its `remote` stand-in and join-IP routes (addTransitRouterRoutes). */
export function oldRemoteNode(ctx: NetworkContext, node: NodeContext): RemoteRow[] {
  const externalIds = { [NODE_KEY]: node.name, ...ctx.e2 };
  const router = names.transitRouterName(ctx.p);
  const routes = gatewayJoinIPs(ctx, node).map((j) =>
    staticRoute(router, { prefix: j.ip, nexthop: j.ip, externalIds }),
  );
  return [
    { column: 'switchPorts', row: legacyRemotePort(ctx, node) },
    ...routes.map((row) => ({ column: 'routes', row })),
  ];
}
