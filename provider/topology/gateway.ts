/**
 * A node's gateway router `GR_<P><node>` (both topologies): its options bound to the node's
 * chassis, its masquerade NATs, and, when the node's gateway details are known, the external
 * side: `rtoe-` port, `ext_` switch with the localnet and `etor-` ports, and the
 * masquerade-subnet and default routes (plus, separately, the static MAC bindings).
 */
import { addressBits, formatCidr } from '../model/cidr';
import { gatewayRouterJoinIP, masqueradeIPs, type Addr, type MasqueradeIPs } from './addresses';
import { routerPort, snat, staticRoute, switchPort } from './builders';
import { ofFamily, type NetworkContext } from './context';
import { clusterSubnetSnatScope } from './egressSnat';
import { routerLBGroups } from './groups';
import { macFromIP } from './mac';
import * as names from './names';
import type { NodeContext } from './nodeContext';
import { refs, row, type DesiredRow } from './rows';

export interface GatewayRouterSpec {
  /** The GR's port(s) towards the network: `rtoj-GR_…` (Layer3) or `rtotr-GR_…` (Layer2). */
  uplinkPorts: DesiredRow[];
  /** Routes from the GR towards the pod network. */
  podRoutes: DesiredRow[];
  lbForceSnatIp: string;
  /** Layer2 before the transit router (layer2Legacy.ts): the 1004 policies and management SNAT live on the GR. */
  policies?: DesiredRow[];
  nats?: DesiredRow[];
  /** Layer2 before the transit router: the cluster-subnet SNAT's `outport == "rtoe-…"` match. */
  clusterSubnetSnatMatch?: string;
}

/**
 * Whether some local node has its gateway (none waits for its UplinkState, nodeContext.ts
 * gatewayWaits): what Layer2 writes after SyncGateway depends on it.
 */
export const gatewaySynced = (ctx: NetworkContext): boolean => ctx.local.some((n) => !n.gatewayWaits);

/** The masquerade IPs of this network, one set per cluster family. */
export function networkMasqueradeIPs(ctx: NetworkContext): MasqueradeIPs[] {
  return ctx.masquerades.map((m) => masqueradeIPs(m, ctx.id));
}

/** The gateway router's join addresses, one per cluster family. */
export function gatewayJoinIPs(ctx: NetworkContext, node: NodeContext): Addr[] {
  return ctx.joins.map((j) => gatewayRouterJoinIP(j, node.id));
}

function masqueradeNats(ctx: NetworkContext, node: NodeContext, gr: string, subnetMatch?: string): DesiredRow[] {
  const nats: DesiredRow[] = [];
  for (const masq of networkMasqueradeIPs(ctx)) {
    const family = masq.gatewayRouter.family;
    const join = ofFamily(gatewayJoinIPs(ctx, node), family);
    const base = { externalIp: masq.gatewayRouter.ip, externalPortRange: node.portRange, externalIds: ctx.e2 };
    if (join) nats.push(snat(gr, { ...base, logicalIp: join.ip }));
    for (const subnet of ctx.subnets.filter((s) => s.family === family)) {
      const found = clusterSubnetSnatScope(ctx, node, subnet);
      const scope = subnetMatch && !found.match ? { ...found, match: subnetMatch } : found;
      nats.push(
        snat(gr, { ...base, ...scope, logicalIp: formatCidr(subnet), externalIds: scope.externalIds ?? ctx.e2 }),
      );
    }
  }
  return nats;
}

function externalSide(
  ctx: NetworkContext,
  node: NodeContext,
  gr: string,
): { port: DesiredRow; routes: DesiredRow[]; rows: DesiredRow[] } {
  const gw = node.gateway!;
  const rtoe = names.routerToExternalPort(gr);
  const masqs = networkMasqueradeIPs(ctx);
  const port = routerPort(rtoe, {
    networks: [...gw.ips, ...masqs.map((m) => ({ ...m.gatewayRouter, prefix: addressBits(m.gatewayRouter.family) }))],
    mac: gw.mac,
    externalIds: ctx.e2,
  });
  const localnetOptions: Record<string, string> = { network_name: ctx.physicalNetworkName };
  if (gw.vlan !== 0) localnetOptions.tag_request = String(gw.vlan);
  const localnet = switchPort(names.localnetPort(gw.bridge, ctx.p, node.name), {
    type: 'localnet',
    addresses: ['unknown'],
    options: localnetOptions,
    externalIds: ctx.e2,
  });
  const etor = switchPort(names.externalToRouterPort(gr), {
    type: 'router',
    addresses: [gw.mac],
    options: { 'router-port': rtoe },
    externalIds: ctx.e2,
  });
  const ext = row('Logical_Switch', {
    name: names.externalSwitchName(ctx.p, node.name),
    external_ids: ctx.e3,
    ports: refs([localnet, etor]),
  });
  const routes = [
    ...ctx.masquerades.map((m, i) =>
      staticRoute(gr, {
        prefix: formatCidr(m),
        nexthop: masqs[i]!.dummyNextHop.ip,
        outputPort: rtoe,
        externalIds: ctx.e2,
      }),
    ),
    ...gw.nextHops.map((h) =>
      staticRoute(gr, {
        prefix: h.family === 4 ? '0.0.0.0/0' : '::/0',
        nexthop: h.ip,
        outputPort: rtoe,
        externalIds: ctx.e2,
      }),
    ),
  ];
  return { port, routes, rows: [ext, localnet, etor] };
}

/**
 * The static MAC bindings of a GR's `rtoe-` port for the masquerade next hop and host IPs.
 * Static_MAC_Binding has no external_ids (no owner marker, no `ovnk.io/key`): nb owns these
 * through its ledger, by their index (logical_port, ip).
 */
export function staticMacBindings(ctx: NetworkContext, node: NodeContext): DesiredRow[] {
  if (!node.gateway) return [];
  const rtoe = names.routerToExternalPort(names.gatewayRouterName(ctx.p, node.name));
  return networkMasqueradeIPs(ctx)
    .flatMap((m) => [m.dummyNextHop, m.host])
    .map((a) =>
      row('Static_MAC_Binding', { logical_port: rtoe, ip: a.ip, mac: macFromIP(a.ip), override_dynamic_mac: true }),
    );
}

function gatewayRouterOptions(node: NodeContext, lbForceSnatIp: string): Record<string, string> {
  return {
    always_learn_from_arp_request: 'false',
    dynamic_neigh_routers: 'false',
    chassis: node.chassisId,
    lb_force_snat_ip: lbForceSnatIp,
    mac_binding_age_threshold: '300',
    disable_garp_rarp: 'true',
  };
}

function physicalIds(ctx: NetworkContext, node: NodeContext): Record<string, string> {
  if (!node.gateway || node.gateway.ips.length === 0) return {};
  const all = [...node.gateway.ips.map((a) => a.ip), ...networkMasqueradeIPs(ctx).map((m) => m.gatewayRouter.ip)];
  return { physical_ip: node.gateway.ips[0]!.ip, physical_ips: all.join(',') };
}

/** The gateway router of a local node with everything hanging off it. */
export function renderGatewayRouter(ctx: NetworkContext, node: NodeContext, spec: GatewayRouterSpec): DesiredRow[] {
  const gr = names.gatewayRouterName(ctx.p, node.name);
  const external = node.gateway ? externalSide(ctx, node, gr) : undefined;
  const ports = [...spec.uplinkPorts, ...(external ? [external.port] : [])];
  const routes = [...spec.podRoutes, ...(external?.routes ?? [])];
  const nats = [...masqueradeNats(ctx, node, gr, spec.clusterSubnetSnatMatch), ...(spec.nats ?? [])];
  const policies = spec.policies ?? [];
  const router = row('Logical_Router', {
    name: gr,
    options: gatewayRouterOptions(node, spec.lbForceSnatIp),
    external_ids: { ...physicalIds(ctx, node), ...ctx.e3 },
    copp: names.DEFAULT_COPP,
    load_balancer_group: routerLBGroups(ctx),
    ports: refs(ports),
    static_routes: refs(routes),
    ...(policies.length > 0 ? { policies: refs(policies) } : {}),
    nat: refs(nats),
  });
  return [router, ...ports, ...routes, ...policies, ...nats, ...(external?.rows ?? [])];
}
