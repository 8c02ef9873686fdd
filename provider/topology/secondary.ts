/**
 * A secondary network in one zone, as upstream's user-defined network controllers render the
 * secondary role (go-controller/pkg/ovn/): none of the primary-only pieces (join switch, gateway
 * routers, management ports, SNATs, 1004 policies, cluster port groups, services), so:
 * - Layer3 (layer3_user_defined_network_controller.go init/addNode, base_network_controller.go
 *   createNodeLogicalSwitch and syncNodeClusterRouterPort): the cluster router, per local node
 *   its node switch (`exclude_ips` of the management address stays, as no management port
 *   removes it) with the `stor-`/`rtos-` pair, and the interconnect rows of layer3-ic.ts with
 *   no join-IP routes (zone_ic_handler.go AddRemoteZoneNode);
 * - Layer2 (layer2_user_defined_network_controller.go init, base_secondary_layer2_network_
 *   controller.go initializeLogicalSwitch): the layer2 switch with AddTransitSwitchConfig's
 *   options under datapath key 16711683 + network id, and the pod ports (other nodes' pods as
 *   `remote` ports in the per-node layout);
 * - Localnet (localnet_user_defined_network_controller.go init): the localnet switch, no
 *   load-balancer groups, and its localnet port (`network_name`, `tag_request` = VLAN).
 * Layer3 and Layer2 keep the three empty load-balancer groups of initLoadBalancerGroups.
 * Central layout: as for primary networks, no transit switch and no `interconn-ts`.
 */
import { managementIP } from './addresses';
import { switchPort } from './builders';
import type { NetworkContext } from './context';
import { loadBalancerGroups, switchLBGroups } from './groups';
import { clusterRouterOptions, nodeRouterLink, subnetConfig } from './layer3';
import { BASE_TRANSIT_SWITCH_TUNNEL_KEY, renderLayer3Interconnect } from './layer3-ic';
import * as names from './names';
import type { NodeContext } from './nodeContext';
import { RouterParts, SwitchParts } from './parts';
import type { DesiredRow } from './rows';

/** createNodeLogicalSwitch's other_config: the subnet, and `exclude_ips` = the IPv4 management address. */
function nodeSwitchConfig(node: NodeContext): Record<string, string> {
  const config = subnetConfig(node.hostSubnets);
  const v4 = node.hostSubnets.find((s) => s.family === 4);
  if (v4) config.exclude_ips = managementIP(v4).ip;
  return config;
}

function layer3Node(ctx: NetworkContext, node: NodeContext, cr: RouterParts, pods: DesiredRow[]): DesiredRow[] {
  const link = nodeRouterLink(ctx, node, cr);
  const sw = new SwitchParts();
  sw.ports.push(link.switchPort, ...pods);
  const columns = {
    name: names.nodeSwitchName(ctx.p, node.name),
    other_config: nodeSwitchConfig(node),
    external_ids: ctx.e3,
    load_balancer_group: switchLBGroups(ctx),
  };
  return [...sw.build(columns), link.chassis];
}

function renderLayer3Secondary(ctx: NetworkContext, podPorts: Map<string, DesiredRow[]>): DesiredRow[] {
  const cr = new RouterParts();
  const rows: DesiredRow[] = [];
  for (const node of ctx.local) rows.push(...layer3Node(ctx, node, cr, podPorts.get(node.name) ?? []));
  if (ctx.layout === 'per-node' && ctx.interconnect) rows.push(...renderLayer3Interconnect(ctx, cr));
  rows.push(
    ...cr.build({
      name: names.clusterRouterName(ctx.p),
      options: clusterRouterOptions(ctx),
      external_ids: { 'k8s-cluster-router': 'yes', ...ctx.e2 },
      copp: names.DEFAULT_COPP,
    }),
  );
  return [...rows, ...loadBalancerGroups(ctx, [])];
}

/** AddTransitSwitchConfig's options; the central layout has no ovn-ic, so no `interconn-ts`. */
function layer2SwitchConfig(ctx: NetworkContext): Record<string, string> {
  const config = subnetConfig(ctx.subnets);
  if (ctx.layout === 'per-node') config['interconn-ts'] = names.layer2SwitchName(ctx.p);
  return {
    ...config,
    'requested-tnl-key': String(BASE_TRANSIT_SWITCH_TUNNEL_KEY + ctx.id),
    mcast_snoop: 'true',
    mcast_querier: 'false',
    mcast_flood_unregistered: 'true',
  };
}

function renderLayer2Secondary(ctx: NetworkContext, podPorts: DesiredRow[]): DesiredRow[] {
  const sw = new SwitchParts();
  sw.ports.push(...podPorts);
  const columns = {
    name: names.layer2SwitchName(ctx.p),
    other_config: layer2SwitchConfig(ctx),
    external_ids: ctx.e3,
    load_balancer_group: switchLBGroups(ctx),
  };
  return [...sw.build(columns), ...loadBalancerGroups(ctx, [])];
}

function renderLocalnet(ctx: NetworkContext, podPorts: DesiredRow[]): DesiredRow[] {
  const sw = new SwitchParts();
  const port = switchPort(names.localnetNetworkPort(ctx.p), {
    type: 'localnet',
    addresses: ['unknown'],
    options: { network_name: ctx.physicalNetworkName },
  });
  if (ctx.vlan !== 0) port.columns.tag_request = ctx.vlan;
  sw.ports.push(port, ...podPorts);
  return sw.build({
    name: names.localnetSwitchName(ctx.p),
    other_config: subnetConfig(ctx.subnets),
    external_ids: ctx.e3,
  });
}

/** Every row of a secondary network in the zone; `podPorts` maps a node name to its pod LSPs. */
export function renderSecondary(ctx: NetworkContext, podPorts: Map<string, DesiredRow[]>): DesiredRow[] {
  if (ctx.topology === 'layer3') return renderLayer3Secondary(ctx, podPorts);
  const pods = [...podPorts.values()].flat();
  return ctx.topology === 'layer2' ? renderLayer2Secondary(ctx, pods) : renderLocalnet(ctx, pods);
}
