/**
 * The management port of a network on a node and what serves it: the `k8s-` LSP holding the
 * subnet's second address, the allow-from-management ACL (upstream's NetpolNode ACL), the 1004
 * reroute policies that send traffic for the node's own addresses to the management port, and
 * the SNAT that gives traffic to the management port the network's management masquerade IP.
 */
import { formatCidr, type Cidr } from '../model/cidr';
import { objectIds } from '../model/dbObjectIds';
import { NAME_KEY } from '../model/externalIds';
import { reroutePolicy, snat, switchPort } from './builders';
import { ofFamily, type NetworkContext } from './context';
import { managementSnatScopes } from './egressSnat';
import { networkMasqueradeIPs } from './gateway';
import { nodeManagementIP } from './infrastructure';
import { macFromIPs } from './mac';
import { ACL_LOGGING_METER, networkControllerName } from './names';
import { row, type DesiredRow } from './rows';

/** The management addresses of these subnets (upstream's GetNodeManagementIP), bare. */
function managementIPs(ctx: NetworkContext, subnets: readonly Cidr[]): string[] {
  return subnets.map((s) => nodeManagementIP(ctx.infrastructure, s).ip);
}

/** `"<mac> <ip4> [<ip6>]"` of the management port of these subnets. */
export function managementAddresses(ctx: NetworkContext, subnets: readonly Cidr[]): string {
  const ips = managementIPs(ctx, subnets);
  return [macFromIPs(ips), ...ips].join(' ');
}

export function managementPortRow(ctx: NetworkContext, name: string, subnets: readonly Cidr[]): DesiredRow {
  return switchPort(name, { addresses: [managementAddresses(ctx, subnets)] });
}

/** Upstream's NetpolNode ACL: allow-related from the management IP, one per family. */
export function managementAcls(ctx: NetworkContext, switchName: string, subnets: readonly Cidr[]): DesiredRow[] {
  const controller = networkControllerName(ctx.name);
  return subnets.map((s) => {
    const ip = nodeManagementIP(ctx.infrastructure, s).ip;
    return row('ACL', {
      priority: 1001,
      direction: 'to-lport',
      action: 'allow-related',
      match: `ip${s.family}.src==${ip}`,
      tier: 2,
      meter: ACL_LOGGING_METER,
      external_ids: objectIds(controller, 'NetpolNode', [
        [NAME_KEY, switchName],
        ['ip', ip],
      ]),
    });
  });
}

/** 1004 reroute policies: traffic from `inport` to the node's own addresses goes to the management IP. */
export function hostAddressPolicies(
  ctx: NetworkContext,
  router: string,
  inport: string,
  comment: string,
  hostIPs: readonly { family: 4 | 6; ip: string }[],
  subnets: readonly Cidr[],
): DesiredRow[] {
  return hostIPs.flatMap((host) => {
    const subnet = ofFamily(subnets, host.family);
    if (!subnet) return [];
    const match = `inport == "${inport}" && ip${host.family}.dst == ${host.ip} /* ${comment} */`;
    return [reroutePolicy(router, 1004, match, nodeManagementIP(ctx.infrastructure, subnet).ip, ctx.e2)];
  });
}

export interface ManagementSnatOptions {
  portRange?: string;
  gatewayPort?: string;
}

/** SNAT of traffic towards the management port to the network's management masquerade IP. */
export function managementSnats(
  ctx: NetworkContext,
  router: string,
  logicalPort: string,
  subnets: readonly Cidr[],
  options: ManagementSnatOptions,
): DesiredRow[] {
  const dstMac = `eth.dst == ${macFromIPs(managementIPs(ctx, subnets))}`;
  return networkMasqueradeIPs(ctx).flatMap((masq) =>
    subnets
      .filter((s) => s.family === masq.management.family)
      .flatMap((s) =>
        managementSnatScopes(ctx, s.family, dstMac).map((scope) =>
          snat(router, {
            externalIp: masq.management.ip,
            logicalIp: formatCidr(s),
            logicalPort,
            ...scope,
            externalPortRange: options.portRange,
            gatewayPort: options.gatewayPort,
            externalIds: ctx.e2,
          }),
        ),
      ),
  );
}
