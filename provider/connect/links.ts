/**
 * A link: one connect-router <-> network-router pair as every zone derives it (upstream's
 * GetP2PAddresses and port-key formula, via alloc/p2p.ts): Layer3 has one per node (offset
 * 2 x node-id in the network's slice), Layer2 one per network (its /31, /127). Keys are computed
 * in bigint, so IPv6 prefixes that overflow upstream's int64 give the intended values.
 */
import type { ConnectSubnet } from '../alloc/connectSubnets';
import { layer2PortKey, layer3PortKey, p2pPair, type P2PPair } from '../alloc/p2p';
import { type Cidr, type Family, formatAddress } from '../model/cidr';
import type { ConnectedNetwork, ConnectInput, ConnectNode } from './input';

export class ConnectRenderError extends Error {
  override name = 'ConnectRenderError';
}

export interface Side {
  family: Family;
  /** Bare address. */
  ip: string;
  /** `ip/31` or `ip/127`. */
  cidr: string;
}

export interface Link {
  network: ConnectedNetwork;
  /** Layer3 only. */
  node?: ConnectNode;
  /** Upstream's `node-id` external id: the node's id, 0 for Layer2. */
  nodeId: number;
  /** Connect-router sides (even addresses), IPv4 first. */
  connectSide: Side[];
  /** Network-router sides (odd addresses), IPv4 first. */
  networkSide: Side[];
  /** `requested-tnl-key` of the connect-router port. */
  key: number;
}

function side(c: Cidr): Side {
  const ip = formatAddress(c.family, c.base);
  return { family: c.family, ip, cidr: `${ip}/${c.prefix}` };
}

function connectSubnetFor(input: ConnectInput, family: Family): ConnectSubnet {
  const found = input.connectSubnets.find((c) => c.cidr.family === family);
  if (!found)
    throw new ConnectRenderError(
      `connect ${input.name}: no connect subnet of IP family IPv${family} for the network's allocation`,
    );
  return found;
}

function pairs(network: ConnectedNetwork, idx: number, input: ConnectInput): P2PPair[] {
  return network.connectSubnets.map((subnet) => {
    const pair = p2pPair(subnet, idx);
    if (!pair.ok) throw new ConnectRenderError(`connect ${input.name}, network ${network.name}: ${pair.why}`);
    return pair.value;
  });
}

/** The link of `network` for `node` (Layer3) or the network's only link (Layer2, node omitted). */
export function linkOf(input: ConnectInput, network: ConnectedNetwork, node?: ConnectNode): Link {
  const first = network.connectSubnets[0];
  if (!first) throw new ConnectRenderError(`connect ${input.name}: network ${network.name} has no connect subnet`);
  const connect = connectSubnetFor(input, first.family);
  const layer3 = network.topology === 'layer3';
  if (layer3 && !node)
    throw new ConnectRenderError(`connect ${input.name}: a Layer3 link of ${network.name} needs a node`);
  const nodeId = layer3 ? node!.id : 0;
  const found = pairs(network, nodeId, input);
  const key = layer3 ? layer3PortKey(first, connect, nodeId) : layer2PortKey(first, connect);
  return {
    network,
    node: layer3 ? node : undefined,
    nodeId,
    connectSide: found.map((p) => side(p.first)),
    networkSide: found.map((p) => side(p.second)),
    key: Number(key),
  };
}

/** The side of `family`, if the link has one. */
export function sideOf(sides: Side[], family: Family): Side | undefined {
  return sides.find((s) => s.family === family);
}
