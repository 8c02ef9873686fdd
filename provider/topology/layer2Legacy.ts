/**
 * A primary Layer2 network in the zone of a node that still runs the topology before the transit
 * router (OKEP-5094 "Introduction", the current topology; upstream at 8871cd9 with
 * config.Layer2UsesTransitRouter false, which it keeps for nodes without the
 * `k8s.ovn.org/layer2-topology-version` annotation). The gateway router sits on the layer2 switch:
 *
 * - GR port `rtos-<P>ovn_layer2_switch` with the join IPs and the subnets' gateway addresses, its
 *   MAC from the first join IP, IPv6 RA configs (gateway.go createGWRouterPort, transitRouterInfo nil);
 * - switch port `stor-<P>ovn_layer2_switch` of type router, `requested-tnl-key` the node's
 *   gateway port key (gateway.go createGWRouterPeerSwitchPort);
 * - the 1004 policies on the GR, inport `rtos-…` (gateway.go SyncGateway, policybasedroutes.go);
 * - the management SNAT on the GR with logical_port `rtoj-GR_…` (layer2_user_defined_network_controller.go
 *   addOrUpdateUDNClusterSubnetEgressSNAT: upstream names the join-switch port prefix here, a port
 *   the GR does not have; written as upstream writes it);
 * - the cluster-subnet SNAT matched on `outport == "rtoe-GR_…"` (gateway.go
 *   GetNetworkScopedClusterSubnetSNATMatch, layer2OldTopo);
 * - no GR pod routes, no transit router;
 * - every other node, upgraded or not, as a `remote` port `stor-<P>ovn_layer2_switch_<node>` with
 *   its join MAC and IPs and its gateway port key, bound to its chassis
 *   (layer2_user_defined_network_controller.go addSwitchPortForRemoteNodeGR).
 */
import { NODE_KEY } from '../model/externalIds';
import { cidrText } from './addresses';
import { routerPort, routerTypePort, switchPort } from './builders';
import type { NetworkContext } from './context';
import { gatewayJoinIPs, renderGatewayRouter } from './gateway';
import { switchLBGroups } from './groups';
import { nodeGatewayIP } from './infrastructure';
import { mtuOption, raConfigs, switchConfig } from './layer2Parts';
import { macFromIP } from './mac';
import { hostAddressPolicies, managementAcls, managementPortRow, managementSnats } from './management';
import * as names from './names';
import type { NodeContext } from './nodeContext';
import { SwitchParts } from './parts';
import { remoteBlock, type RemoteRow } from './remoteRows';
import type { DesiredRow } from './rows';

/** A node's `remote` stand-in on the layer2 switch, as the old topology's zones hold it. */
export function legacyRemotePort(ctx: NetworkContext, node: NodeContext): DesiredRow {
  const joins = gatewayJoinIPs(ctx, node);
  return switchPort(names.legacyRemoteGatewayPort(ctx.p, node.name), {
    type: 'remote',
    addresses: [[macFromIP(joins[0]!.ip), ...joins.map(cidrText)].join(' ')],
    options: { 'requested-tnl-key': String(node.legacyTunnelId), 'requested-chassis': node.chassisId },
    externalIds: { ...ctx.e2, [NODE_KEY]: node.name },
  });
}

function gatewayRouter(ctx: NetworkContext, node: NodeContext): DesiredRow[] {
  const gr = names.gatewayRouterName(ctx.p, node.name);
  const rtos = names.legacyGatewayToSwitchPort(ctx.p);
  const joins = gatewayJoinIPs(ctx, node);
  const v6 = ctx.subnets.some((s) => s.family === 6) && ctx.cluster.ipFamilies.includes('ipv6');
  const uplink = routerPort(rtos, {
    networks: [...joins, ...ctx.subnets.map((s) => nodeGatewayIP(ctx.infrastructure, s))],
    mac: macFromIP(joins[0]!.ip),
    options: mtuOption(ctx, [node]),
    externalIds: ctx.e2,
    ipv6RaConfigs: v6 ? raConfigs(ctx) : undefined,
  });
  const switchName = names.layer2SwitchName(ctx.p);
  return renderGatewayRouter(ctx, node, {
    uplinkPorts: [uplink],
    podRoutes: [],
    lbForceSnatIp: joins.map((j) => j.ip).join(' '),
    policies: hostAddressPolicies(ctx, gr, rtos, switchName, node.gateway?.ips ?? [], ctx.subnets),
    nats: managementSnats(ctx, gr, names.routerToJoinPort(gr), ctx.subnets, { portRange: node.portRange }),
    clusterSubnetSnatMatch: `outport == "${names.routerToExternalPort(gr)}"`,
  });
}

/** Every row of a primary Layer2 network in the (per-node) zone of a node on the old topology. */
export function renderLegacyLayer2(ctx: NetworkContext, podPorts: DesiredRow[]): DesiredRow[] {
  const node = ctx.local[0]!;
  const switchName = names.layer2SwitchName(ctx.p);
  const sw = new SwitchParts();
  // the GR and its peer switch port are gatewayInit's (createGWRouterPeerSwitchPort): none while
  // the node waits for its UplinkState
  if (!node.gatewayWaits)
    sw.ports.push(
      routerTypePort(names.legacySwitchToGatewayPort(ctx.p), names.legacyGatewayToSwitchPort(ctx.p), ctx.e2, {
        'requested-tnl-key': String(node.legacyTunnelId),
      }),
    );
  sw.ports.push(managementPortRow(ctx, names.managementPort(ctx.p, node.name), ctx.subnets), ...podPorts);
  sw.acls.push(...managementAcls(ctx, switchName, ctx.subnets));
  if (ctx.remoteCount > 0) {
    // the same rows in every old-topology zone: built once per network (remoteRows.ts)
    const rowsOf = (n: NodeContext): RemoteRow[] => [{ column: 'ports', row: legacyRemotePort(ctx, n) }];
    const { block, local } = remoteBlock(ctx, 'layer2-legacy-remote', rowsOf);
    sw.remote.ports = () => block.zoneIds('ports', local);
  }
  return [
    ...(node.gatewayWaits ? [] : gatewayRouter(ctx, node)),
    ...sw.build({
      name: switchName,
      other_config: switchConfig(ctx),
      external_ids: ctx.e3,
      load_balancer_group: switchLBGroups(ctx),
    }),
  ];
}
