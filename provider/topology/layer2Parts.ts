/**
 * Columns a primary Layer2 network renders the same way in both topologies (layer2.ts, the transit
 * router; layer2Legacy.ts, the one before it): the layer2 switch's other_config, `gateway_mtu`
 * and the IPv6 router-advertisement configs of the port holding the gateway address.
 */
import type { NetworkContext } from './context';
import { subnetConfig } from './layer3';
import * as names from './names';
import type { NodeContext } from './nodeContext';

/** `gateway_mtu` is the cluster MTU (config.Default.MTU); only the IPv6 RA `mtu` follows the network. */
export function mtuOption(ctx: NetworkContext, nodes: readonly NodeContext[]): Record<string, string> {
  return nodes.every((n) => n.gatewayMtu) ? { gateway_mtu: String(ctx.clusterMtu) } : {};
}

export function raConfigs(ctx: NetworkContext): Record<string, string> {
  return {
    address_mode: 'dhcpv6_stateful',
    send_periodic: 'true',
    max_interval: '900',
    min_interval: '300',
    router_preference: 'LOW',
    mtu: String(ctx.mtu),
  };
}

export function switchConfig(ctx: NetworkContext): Record<string, string> {
  const config = { ...subnetConfig(ctx.subnets) };
  if (ctx.layout === 'per-node') config['interconn-ts'] = names.layer2SwitchName(ctx.p);
  return {
    ...config,
    'requested-tnl-key': String(ctx.tunnelKeys!.switch),
    mcast_snoop: 'true',
    mcast_querier: 'false',
    mcast_flood_unregistered: 'true',
  };
}
