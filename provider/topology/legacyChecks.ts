/**
 * What the old Layer2 topology (layer2Legacy.ts, layer2Upgrade.ts) needs, checked once per network
 * when any of its nodes is still on it: upstream ran that topology only with one node per zone
 * ("this will work only for IC with one node per zone", gateway.go createGWRouterPort), and we
 * render it for the overlay in shared gateway mode without route advertisement only (the local
 * gateway mode's routes and policies and the advertised SNATs of that topology are not rendered).
 * The gateway port keys must be distinct and apart from the pods' keys (upstream hands both out of
 * one allocator per network), and no node's join IP may be the transitional port's address
 * (getLastJoinIPs refuses the same).
 */
import { addressBits, type Cidr } from '../model/cidr';
import { TopologyInputError } from './errors';
import type { RenderInput } from './input';

/** One past upstream's largest per-network tunnel id (MaxLogicalPortTunnelKey 32767 - 1). */
export const LEGACY_TUNNEL_ID_TOP = 32768;

/**
 * A node's old-topology gateway port key on a network: its pin, else counted down from the top of
 * upstream's per-network id range by node id (upstream hands keys out in arrival order from one
 * allocator with the pods', which take ours from 1 up).
 */
export const legacyGatewayTunnelId = (
  node: { id: number; layer2GatewayTunnelIds?: Record<string, number> },
  network: string,
): number =>
  Object.hasOwn(node.layer2GatewayTunnelIds ?? {}, network)
    ? node.layer2GatewayTunnelIds![network]!
    : LEGACY_TUNNEL_ID_TOP - node.id;

/** The part of a network's context (context.ts, which calls this) the checks read. */
interface Base {
  all: readonly { name: string; id: number; legacy: boolean; legacyTunnelId: number }[];
  role: string;
  topology: string;
  cluster: { gatewayMode: string };
  advertised: boolean;
  interconnect: boolean;
  joins: readonly Cidr[];
}

export function checkLegacyLayer2(input: RenderInput, base: Base, byName: ReadonlyMap<string, number>): void {
  if (base.role !== 'primary' || base.topology !== 'layer2') return;
  const legacy = base.all.filter((n) => n.legacy);
  if (legacy.length === 0) return;
  const field = `nodes[${byName.get(legacy[0]!.name)}].layer2TopologyVersion`;
  const refuse = (why: string) => {
    throw new TopologyInputError(field, '1.0', why);
  };
  if (input.zone.layout !== 'per-node')
    refuse('the topology before the transit router is rendered only in the per-node layout, as upstream ran it');
  if (base.cluster.gatewayMode !== 'shared') refuse('the old Layer2 topology is rendered in shared gateway mode only');
  if (base.advertised || !base.interconnect)
    refuse('the old Layer2 topology is rendered only for a network on the overlay that is not advertised');
  const keys = new Map<number, string>();
  for (const node of base.all) {
    const at = `nodes[${byName.get(node.name)}].layer2GatewayTunnelIds.${input.network.name}`;
    const other = keys.get(node.legacyTunnelId);
    if (other !== undefined)
      throw new TopologyInputError(at, node.legacyTunnelId, `is node ${other}'s gateway port key too`);
    keys.set(node.legacyTunnelId, node.name);
  }
  (input.pods ?? []).forEach((pod, i) => {
    const holder = pod.tunnelId === undefined ? undefined : keys.get(pod.tunnelId);
    if (holder !== undefined)
      throw new TopologyInputError(`pods[${i}].tunnelId`, pod.tunnelId, `is node ${holder}'s old gateway port key`);
  });
  for (const join of base.joins) {
    const last = 2 ** Math.min(addressBits(join.family) - join.prefix, 30) - 2;
    const node = base.all.find((n) => n.id === last);
    if (node)
      throw new TopologyInputError(
        `nodes[${byName.get(node.name)}].id`,
        node.id,
        'takes the last join address, which the transitional upgrade port needs (upstream getLastJoinIPs)',
      );
  }
}
