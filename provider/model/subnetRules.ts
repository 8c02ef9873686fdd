/**
 * A network's subnet rules, checked when the cluster is built (networkRules.ts gathers them): the
 * UDN/CUDN CRDs' CEL rules on subnets (count and families, hostSubnet bounds, join subnets, MTU
 * with IPv6) with upstream's words, and the subnets upstream accepts but then fails to serve
 * (a primary /31 host subnet, a Layer3 subnet at the unspecified address).
 */
import { type Family, mustParseCidr } from './cidr';
import type { Network } from './network';
import { type Problem, problem } from './problem';

/** The family of a CIDR the model has already parsed (a network's subnets). */
export const familyOf = (cidr: string): Family => mustParseCidr(cidr).family;

/** The CRDs' maxItems of `subnets`: 400 for Layer3 (secondary networks at most 2, by CEL), 2 for Layer2. */
export const MAX_LAYER3_SUBNETS = 400;

/** Upstream's CRD count and family rules for `subnets` (Layer3 secondary ones by its CEL rules). */
function subnetCountRules(n: Network, path: string): Problem[] {
  const count = n.subnets.length;
  const layer3 = n.topology === 'Layer3';
  const max = layer3 && n.role === 'Primary' ? MAX_LAYER3_SUBNETS : 2;
  if (count > max) {
    const reason =
      layer3 && n.role === 'Secondary'
        ? 'Secondary networks may define at most 2 subnets'
        : `Too many: ${count}: must have at most ${max} items`;
    return [problem('InvalidSpec', n.ref, path, `${path}: ${reason}`)];
  }
  if (count !== 2 || (layer3 && n.role === 'Primary')) return [];
  if (familyOf(n.subnets[0]!.cidr) !== familyOf(n.subnets[1]!.cidr)) return [];
  const reason = layer3
    ? 'When 2 CIDRs are set for Secondary networks, they must be from different IP families'
    : 'When 2 CIDRs are set, they must be from different IP families';
  return [problem('InvalidSpec', n.ref, path, `${path}: ${reason}`)];
}

/**
 * Upstream's parsing of Layer3 subnets (config.ParseClusterSubnetEntries): IPv6 host subnets are
 * /64 and every IPv4 range of a network has one host subnet length.
 */
function hostSubnetLengthRules(n: Network, path: string): Problem[] {
  if (n.topology !== 'Layer3') return [];
  const out: Problem[] = [];
  let firstV4: number | undefined;
  n.subnets.forEach((s, i) => {
    const at = `${path}[${i}].hostSubnet`;
    if (familyOf(s.cidr) === 6) {
      if (s.hostSubnet !== 64)
        out.push(problem('InvalidSpec', n.ref, at, `${at}: IPv6 only supports /64 host subnets`));
      return;
    }
    if (firstV4 === undefined) firstV4 = s.hostSubnet;
    else if (s.hostSubnet !== firstV4)
      out.push(
        problem(
          'InvalidSpec',
          n.ref,
          at,
          `${at}: all IPv4 cluster subnet entries must have the same host subnet length; found ${firstV4} and ${s.hostSubnet}`,
        ),
      );
  });
  return out;
}

/** Upstream's CRD rules of a network's subnets, join subnets, host subnet lengths and MTU. */
export function subnetRules(n: Network, at: string): Problem[] {
  const out: Problem[] = [];
  const path = `${at}subnets`;
  // a secondary Layer2 network without IPAM has none (the CRD's rule with ipam.mode Disabled)
  if (n.subnets.length === 0 && (n.topology === 'Layer3' || n.role === 'Primary'))
    out.push(problem('InvalidSpec', n.ref, path, `${path}: Subnets is required for ${n.role} ${n.topology} topology`));
  out.push(...subnetCountRules(n, path));
  const joins = n.joinSubnets;
  if (joins.length === 2 && familyOf(joins[0]!) === familyOf(joins[1]!))
    out.push(
      problem(
        'InvalidSpec',
        n.ref,
        `${at}joinSubnets`,
        `${at}joinSubnets: When 2 CIDRs are set, they must be from different IP families`,
      ),
    );
  out.push(...hostSubnetLengthRules(n, path));
  n.subnets.forEach((s, i) => {
    if (s.hostSubnet === 32 && familyOf(s.cidr) === 4)
      out.push(
        problem(
          'InvalidSpec',
          n.ref,
          `${path}[${i}].hostSubnet`,
          `${path}[${i}].hostSubnet: HostSubnet must < 32 for ipv4 CIDR (got 32 for ${s.cidr})`,
        ),
      );
    // a primary network's host subnet holds its gateway (.1) and management port (.2): upstream
    // excludes .2 from the node's allocator and fails the node when a /31 has no .2
    // (allocator/ip/subnet/allocator.go "failed to exclude subnet ... not contained"; fuzz seed 24 case 834)
    else if (s.hostSubnet === 31 && familyOf(s.cidr) === 4 && n.topology === 'Layer3' && n.role === 'Primary')
      out.push(
        problem(
          'InvalidSpec',
          n.ref,
          `${path}[${i}].hostSubnet`,
          `${path}[${i}].hostSubnet: a /31 host subnet of ${s.cidr} has no address for the node's management port (its .2): upstream fails to add the node to network ${n.name}; give /30 or shorter`,
        ),
      );
  });
  if (n.mtu < 576 || n.mtu > 65536)
    out.push(problem('InvalidSpec', n.ref, `${at}mtu`, `${at}mtu: ${n.mtu} must be from 576 to 65536`));
  else if (n.mtu < 1280 && n.subnets.some((s) => familyOf(s.cidr) === 6)) {
    out.push(
      problem(
        'InvalidSpec',
        n.ref,
        `${at}mtu`,
        `${at}mtu: MTU should be greater than or equal to 1280 when IPv6 subnet is used (got ${n.mtu})`,
      ),
    );
  }
  return out;
}

/**
 * A Layer3 network's subnet at the unspecified address (0.0.0.0/N, ::/N): upstream gives its pods
 * a route to each network subnet and refuses a route to the unspecified address as a default
 * route, so no pod of it starts (util/pod_annotation.go: "bad podNetwork data: default route ...
 * should be specified as gateway"; measured by the oracle's fuzz, seed 24 case 156).
 */
export function unspecifiedSubnetRules(n: Network, at: string): Problem[] {
  if (n.topology !== 'Layer3') return [];
  return n.subnets.flatMap((s, i) =>
    mustParseCidr(s.cidr).base === 0n
      ? [
          problem(
            'InvalidSpec',
            n.ref,
            `${at}subnets[${i}]`,
            `subnet "${s.cidr}" of network ${n.name} starts at the unspecified address: upstream routes pods to it and refuses that route as a default route (bad podNetwork data), so no pod of the network would start`,
          ),
        ]
      : [],
  );
}
