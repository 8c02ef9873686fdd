/**
 * The interconnect rows of a Layer3 network in the per-node layout (§1, §2, §4): the transit
 * switch `<P>transit_switch` with the local `<P>tstor-<node>` router port and `remote` ports for
 * the other nodes, the `<P>rtots-<node>` port on the cluster router, and the `ic-node` routes to
 * the other nodes' host subnets and gateway-router join IPs through their transit-switch IPs.
 * Upstream renders the transit switch in every zone (it is the only layout upstream has); ovn-ic
 * joins the zones' copies. The central layout renders none of this. The other nodes' rows are
 * the same in every zone: built once per network (remoteRows.ts).
 */
import { formatCidr } from '../model/cidr';
import { NETWORK_KEY } from '../model/externalIds';
import { cidrText, hostCidr } from './addresses';
import { routerPort, routerTypePort, staticRoute, switchPort } from './builders';
import { ofFamily, type NetworkContext } from './context';
import { gatewayJoinIPs } from './gateway';
import { macFromIPs } from './mac';
import * as names from './names';
import type { NodeContext } from './nodeContext';
import type { RouterParts } from './parts';
import { SwitchParts } from './parts';
import { remoteBlock } from './remoteRows';
import type { DesiredRow } from './rows';

/** Datapath keys of Layer3 transit switches start here (`BaseTransitSwitchTunnelKey`). */
export const BASE_TRANSIT_SWITCH_TUNNEL_KEY = 16711683;

function remoteTransitPort(ctx: NetworkContext, node: NodeContext): DesiredRow {
  const addresses = node.transitSwitchIPs.map(cidrText);
  return switchPort(names.transitSwitchToRouterPort(ctx.p, node.name), {
    type: 'remote',
    addresses: [[macFromIPs(addresses), ...addresses].join(' ')],
    options: { 'requested-tnl-key': String(node.id), 'requested-chassis': node.chassisId },
    externalIds: { node: node.name },
  });
}

/** Routes to a remote node: its host subnets and its GR join IPs, via its transit-switch IP. */
function remoteRoutes(ctx: NetworkContext, node: NodeContext, cr: string): DesiredRow[] {
  const externalIds = { 'ic-node': node.name, [NETWORK_KEY]: ctx.name };
  const prefixes = [
    ...node.hostSubnets.map((s) => ({ family: s.family, prefix: formatCidr(s) })),
    ...gatewayJoinIPs(ctx, node).map((j) => ({ family: j.family, prefix: hostCidr(j) })),
  ];
  return prefixes.flatMap(({ family, prefix }) => {
    const via = ofFamily(node.transitSwitchIPs, family);
    return via ? [staticRoute(cr, { prefix, nexthop: via.ip, externalIds })] : [];
  });
}

export function renderLayer3Interconnect(ctx: NetworkContext, cr: RouterParts): DesiredRow[] {
  const ts = new SwitchParts();
  const crName = names.clusterRouterName(ctx.p);
  for (const node of ctx.local) {
    const rtots = names.routerToTransitSwitchPort(ctx.p, node.name);
    cr.ports.push(routerPort(rtots, { networks: node.transitSwitchIPs, options: { mcast_flood: 'true' } }));
    ts.ports.push(
      routerTypePort(
        names.transitSwitchToRouterPort(ctx.p, node.name),
        rtots,
        { node: node.name },
        { 'requested-tnl-key': String(node.id) },
      ),
    );
  }
  if (ctx.remoteCount > 0) {
    const { block, local } = remoteBlock(ctx, 'layer3-interconnect', (node) => [
      { column: 'ports', row: remoteTransitPort(ctx, node) },
      ...remoteRoutes(ctx, node, crName).map((row) => ({ column: 'routes', row })),
    ]);
    ts.remote.ports = () => block.zoneIds('ports', local);
    cr.remote.routes = () => block.zoneIds('routes', local);
  }
  const name = names.transitSwitchName(ctx.p);
  return ts.build({
    name,
    other_config: {
      'interconn-ts': name,
      'requested-tnl-key': String(BASE_TRANSIT_SWITCH_TUNNEL_KEY + ctx.id),
      mcast_snoop: 'true',
      mcast_querier: 'false',
      mcast_flood_unregistered: 'true',
    },
    external_ids: ctx.e3,
  });
}
