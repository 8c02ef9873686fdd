/**
 * What limits a network's egress SNATs when its pod network is advertised or has no overlay
 * (gateway.go updateGWRouterNAT and GetNetworkScopedClusterSubnetSNATMatch, buildUDNEgressSNAT in
 * base_network_controller_user_defined.go, no_overlay_snat_exemption.go):
 * - the gateway router's cluster-subnet SNAT of an advertised network applies only towards node
 *   IPs (`ip4.dst == $<node-ips>`); with NoOverlay outbound SNAT in shared gateway mode it has no
 *   match but `exempted_ext_ips`, the network's `no-overlay-snat-exemption` set (its subnets and
 *   the zone's node IPs), and upstream's NoOverlayClusterSubnetSNAT ids;
 * - the management SNAT of an advertised network in shared gateway mode becomes two SNATs without
 *   match, one per `allowed_ext_ips` set (node IPs, UDN-enabled services); in local gateway mode
 *   it keeps its match and adds the destinations; with NoOverlay outbound SNAT in local mode it
 *   has no match but the exemption set.
 */
import { type Cidr, type Family, formatCidr } from '../model/cidr';
import { objectIds } from '../model/dbObjectIds';
import { NAME_KEY } from '../model/externalIds';
import { destinationMatch, nodeIPsIds, udnServicesIds } from './advertised';
import type { NetworkContext } from './context';
import { networkControllerName } from './names';
import type { NodeContext } from './nodeContext';
import { addressSetFamily, addressSetRef, addressSetRow } from './objectIds';
import type { DesiredRow } from './rows';

const setName = (ids: Record<string, string>): string => addressSetRef(ids).slice(1);

/** The no-overlay-snat-exemption ids (getNoOverlaySNATExemptionAddressSetDbIDs). */
const exemptionIds = (ctx: NetworkContext, family: Family) =>
  objectIds(networkControllerName(ctx.name), 'Cluster', [
    [NAME_KEY, 'no-overlay-snat-exemption'],
    ['ip-family', addressSetFamily(family)],
    ['network', ctx.name],
  ]);

/** The exemption sets (NoOverlay with outbound SNAT, either gateway mode): the subnets and the zone's node IPs. */
export function snatExemptionSets(ctx: NetworkContext): DesiredRow[] {
  if (!ctx.snatExemption) return [];
  const nodeIPs = ctx.local.flatMap((n) => n.gateway?.ips ?? []);
  return ctx.masquerades.map(({ family }) =>
    addressSetRow(exemptionIds(ctx, family), [
      ...ctx.subnets.filter((s) => s.family === family).map(formatCidr),
      ...nodeIPs.filter((a) => a.family === family).map((a) => a.ip),
    ]),
  );
}

export interface SnatScope {
  match?: string;
  allowedExtIps?: string;
  exemptedExtIps?: string;
  externalIds?: Record<string, string>;
}

/** util.IsNoOverlaySNATExemptionNeeded: NoOverlay, outbound SNAT, shared gateway mode. */
const exemptsOnGatewayRouter = (ctx: NetworkContext): boolean =>
  ctx.snatExemption && ctx.cluster.gatewayMode === 'shared';

/** The gateway router's SNAT of cluster subnet `subnet` on `node`. */
export function clusterSubnetSnatScope(ctx: NetworkContext, node: NodeContext, subnet: Cidr): SnatScope {
  const family = subnet.family;
  if (exemptsOnGatewayRouter(ctx)) {
    const ids = objectIds(networkControllerName(ctx.name), 'NoOverlayClusterSubnetSNAT', [
      [NAME_KEY, node.name],
      ['k8s.ovn.org/cidr', formatCidr(subnet).replace(/:/g, '.')],
      ['ip-family', `ip${family}`],
      ['network', ctx.name],
    ]);
    return { exemptedExtIps: setName(exemptionIds(ctx, family)), externalIds: { ...ids, ...ctx.e2 } };
  }
  return ctx.advertised ? { match: destinationMatch(family, [nodeIPsIds(family)]) } : {};
}

/** The management SNAT(s) of one family; `dstMac` is its plain `eth.dst == <mac>` match. */
export function managementSnatScopes(ctx: NetworkContext, family: Family, dstMac: string): SnatScope[] {
  if (!ctx.advertised) return [{ match: dstMac }];
  const sets = [nodeIPsIds(family), udnServicesIds(family)];
  if (ctx.cluster.gatewayMode === 'shared') return sets.map((ids) => ({ allowedExtIps: setName(ids) }));
  if (ctx.snatExemption) return [{ exemptedExtIps: setName(exemptionIds(ctx, family)) }];
  return [{ match: `${dstMac} && ${destinationMatch(family, sets)}` }];
}
