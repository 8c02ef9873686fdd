/**
 * What every zone derives from a connect allocation without storing it (upstream
 * ovnkube-controller): the point-to-point pair of a node (Layer3: offset 2 * node-id in the
 * network's slice; Layer2: offset 0 of its /31) and the connect-router port tunnel key.
 * Keys are computed in bigint: upstream's 64-bit `2^(128 - p)` overflows for IPv6 p <= 65, ours
 * does not, and the checks in portChecks.ts refuse what OVN would refuse.
 */
import { type Cidr, addressBits, containsAddress, formatAddress, formatCidr, mask } from '../model/cidr';
import { failure, type Outcome, success } from '../model/outcome';
import type { ConnectSubnet } from './connectSubnets';

/** Upstream caps the per-network key window at 5000 (the node-id maximum). */
export const maxNodesCap = 5000n;

export interface P2PPair {
  /** The connect-router side (even address). */
  first: Cidr;
  /** The network-router side (odd address). */
  second: Cidr;
}

/** The pair at offset 2 * idx of `subnet`; a failure carries upstream's error text. */
export function p2pPair(subnet: Cidr, idx: number): Outcome<P2PPair> {
  const first = subnet.base + 2n * BigInt(idx);
  const prefix = addressBits(subnet.family) - 1;
  if (!containsAddress(subnet, subnet.family, first + 1n)) {
    return failure(
      `failed to generate P2P subnet for node ID ${idx}: generated ip ${formatAddress(subnet.family, first)} from the idx ${idx} is out of range in the network ${formatCidr(subnet)}`,
    );
  }
  return success({
    first: { family: subnet.family, base: first, prefix },
    second: { family: subnet.family, base: first + 1n, prefix },
  });
}

/** min(2^(bits - p), 5000). */
export function maxNodes(connect: ConnectSubnet): bigint {
  const window = 1n << BigInt(addressBits(connect.cidr.family) - connect.networkPrefix);
  return window > maxNodesCap ? maxNodesCap : window;
}

/** Which /networkPrefix slice of the connect subnet holds `subnet`. */
export function networkIndex(subnet: Cidr, connect: ConnectSubnet): bigint {
  const hostBits = BigInt(addressBits(subnet.family) - connect.networkPrefix);
  return (mask(subnet.base, subnet.family, connect.networkPrefix) - connect.cidr.base) >> hostBits;
}

/** Layer2: which /31 (/127) of its block the network's subnet is. */
export function layer2SubIndex(subnet: Cidr, connect: ConnectSubnet): bigint {
  return (subnet.base - mask(subnet.base, subnet.family, connect.networkPrefix)) >> 1n;
}

/** Layer3: `networkIndex * maxNodes + nodeId + 1`. */
export function layer3PortKey(subnet: Cidr, connect: ConnectSubnet, nodeId: number): bigint {
  return networkIndex(subnet, connect) * maxNodes(connect) + BigInt(nodeId) + 1n;
}

/** Layer2: `networkIndex * maxNodes + subIndex + 1`. */
export function layer2PortKey(subnet: Cidr, connect: ConnectSubnet): bigint {
  return networkIndex(subnet, connect) * maxNodes(connect) + layer2SubIndex(subnet, connect) + 1n;
}
