/**
 * The gateway and management addresses of a network's subnets, as upstream's GetNodeGatewayIP and
 * GetNodeManagementIP (go-controller/pkg/util/multi_network.go) give them: a subnet's first and
 * second address, except on a primary Layer2 network with preconfigured addresses
 * (`--enable-preconfigured-udn-addresses`, model/preconfigured.ts), where they are what
 * allocateInfrastructureIPs chose: the `defaultGatewayIPs` of the family, else the first free
 * address of the family's `infrastructureSubnets`; the management address the next free one there;
 * what is still missing falls back to .1 and .2 (.1 when .2 is the custom gateway).
 */
import { cidrSize, containsAddress, formatAddress, parseAddress, type Cidr, type Family } from '../model/cidr';
import { gatewayIP, hostCidr, managementIP, parseNetwork, type Addr } from './addresses';
import { TopologyInputError } from './errors';
import type { NetworkInput } from './input';

/** One gateway and one management address per network subnet, each with the subnet's prefix. */
export interface Infrastructure {
  gateway: Addr[];
  management: Addr[];
}

/** The first address of `subnets` (in order, each from its own network address) not in `taken`. */
function firstFree(subnets: readonly Cidr[], taken: ReadonlySet<bigint>): bigint | undefined {
  for (const s of subnets) {
    for (let offset = 0n; offset < cidrSize(s); offset++) if (!taken.has(s.base + offset)) return s.base + offset;
  }
  return undefined;
}

const ofFamily = <T extends { family: Family }>(list: readonly T[], family: Family): T | undefined =>
  list.find((x) => x.family === family);

const at = (subnet: Cidr, value: bigint): Addr => ({
  family: subnet.family,
  ip: formatAddress(subnet.family, value),
  prefix: subnet.prefix,
});

/** Upstream's allocateInfrastructureIPs (util/multi_network.go) for one subnet. */
function allocateFor(subnet: Cidr, infra: readonly Cidr[], gateway: bigint | undefined): [Addr, Addr] {
  const own = infra.filter((c) => c.family === subnet.family);
  // the network address, and the IPv4 broadcast address, are never handed out
  const taken = new Set([subnet.base]);
  if (subnet.family === 4) taken.add(subnet.base + cidrSize(subnet) - 1n);
  let gw = gateway;
  let mgmt: bigint | undefined;
  if (own.length > 0) {
    gw ??= firstFree(own, taken);
    if (gw !== undefined) taken.add(gw);
    mgmt = firstFree(own, taken);
  }
  const gwAddr = gw === undefined ? gatewayIP(subnet) : at(subnet, gw);
  if (mgmt !== undefined) return [gwAddr, at(subnet, mgmt)];
  const fallback = managementIP(subnet);
  return [gwAddr, fallback.ip === gwAddr.ip ? gatewayIP(subnet) : fallback];
}

/** The addresses allocateInfrastructureIPs gives these subnets (sorted by family). */
export function infrastructureIPs(
  subnets: readonly Cidr[],
  infrastructureSubnets: readonly Cidr[],
  defaultGatewayIPs: readonly { family: Family; value: bigint }[],
): Infrastructure {
  const pairs = subnets.map((s) =>
    allocateFor(s, infrastructureSubnets, defaultGatewayIPs.find((g) => g.family === s.family)?.value),
  );
  return { gateway: pairs.map((p) => p[0]), management: pairs.map((p) => p[1]) };
}

/** The input's preconfigured addresses, parsed (present only for a primary Layer2 network with the flag on). */
export function resolveInfrastructure(
  preconfigured: NetworkInput['preconfigured'],
  subnets: readonly Cidr[],
): Infrastructure | undefined {
  if (!preconfigured) return undefined;
  const field = 'network.preconfigured';
  const infra = (preconfigured.infrastructureSubnets ?? []).map((t, i) =>
    parseNetwork(t, `${field}.infrastructureSubnets[${i}]`),
  );
  const gateways = (preconfigured.defaultGatewayIPs ?? []).map((t, i) => {
    const parsed = parseAddress(t);
    if (!parsed) throw new TopologyInputError(`${field}.defaultGatewayIPs[${i}]`, t, 'is not an IP address');
    const subnet = ofFamily(subnets, parsed.family);
    if (!subnet || !containsAddress(subnet, parsed.family, parsed.value))
      throw new TopologyInputError(`${field}.defaultGatewayIPs[${i}]`, t, "is not inside the network's subnets");
    return parsed;
  });
  return infrastructureIPs(subnets, infra, gateways);
}

/** The gateway address of a subnet of the network (upstream's GetNodeGatewayIP). */
export function nodeGatewayIP(infrastructure: Infrastructure | undefined, subnet: Cidr): Addr {
  return (infrastructure && ofFamily(infrastructure.gateway, subnet.family)) ?? gatewayIP(subnet);
}

/** The management address of a subnet of the network (upstream's GetNodeManagementIP). */
export function nodeManagementIP(infrastructure: Infrastructure | undefined, subnet: Cidr): Addr {
  return (infrastructure && ofFamily(infrastructure.management, subnet.family)) ?? managementIP(subnet);
}

/**
 * What upstream's pod address allocator keeps out of a primary Layer2 network with preconfigured
 * addresses (clustermanager/network_cluster_controller.go newIPAllocatorForNetwork): its
 * infrastructure subnets, or, without them, the gateway and management addresses as host routes.
 */
export function infrastructureExclusions(infrastructure: Infrastructure, infrastructureSubnets: string[]): string[] {
  if (infrastructureSubnets.length > 0) return infrastructureSubnets;
  return [...infrastructure.gateway, ...infrastructure.management].map(hostCidr);
}
