/**
 * Network rules checked when the cluster is built (the CLI's exit 3), with upstream's words where
 * upstream has them: the UDN/CUDN CRDs' CEL rules (subnet count and families, hostSubnet bounds,
 * MTU with IPv6), the overlap checks of upstream's NAD parsing ("illegal network configuration:
 * user defined subnet ... overlaps cluster subnet ...") and the inventory's pods (unknown node,
 * no primary network, listed twice). `renderRefusals` holds what only the runtime refuses
 * (exit 1), as upstream's controllers refuse them at run time rather than its CRDs: networks of
 * a family the cluster does not run and a second primary network in a namespace; `ovnk plan`
 * and the connect validation keep seeing those networks as they are. Pods' secondary networks
 * are checked here too (podNetworks.ts).
 */
import { activeNetworkRules } from './active';
import { type Cidr, type Family, mustParseCidr, overlaps } from './cidr';
import type { Cluster } from './clusterShape';
import { defaultTransitSubnets, type Network } from './network';
import { podAttachments } from './podNetworks';
import { type Problem, problem } from './problem';

const familyOf = (cidr: string): Family => mustParseCidr(cidr).family;

/** `spec.network.layer3.` (CUDN) or `spec.layer3.` (UDN). */
export function configPath(n: Network): string {
  const key = n.topology === 'Layer3' ? 'layer3' : n.topology === 'Layer2' ? 'layer2' : 'localnet';
  return `${n.kind === 'ClusterUserDefinedNetwork' ? 'spec.network.' : 'spec.'}${key}.`;
}

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

function subnetRules(n: Network, at: string): Problem[] {
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

function familyRules(n: Network, cluster: Cluster, at: string): Problem[] {
  const families = cluster.inventory.ipFamilies;
  return ([4, 6] as const)
    .filter((f) => !families.includes(f) && n.subnets.some((s) => familyOf(s.cidr) === f))
    .map((f) =>
      problem(
        'InvalidSpec',
        n.ref,
        `${at}subnets`,
        `network ${n.name} is attempting to use ipv${f} subnets but the cluster does not support ipv${f}`,
      ),
    );
}

/**
 * Upstream's internal subnets a network's subnets and join subnets must not overlap
 * (util/multi_network.go SubnetOverlapCheck): a Layer3 network's also the transit switch subnets.
 */
function internalSubnets(cluster: Cluster, n: Network): { label: string; cidr: Cidr; text: string }[] {
  const inv = cluster.inventory;
  const tag = (label: string, list: readonly string[]) =>
    list.map((text) => ({ label, text, cidr: mustParseCidr(text) }));
  return [
    ...tag('cluster subnet', inv.clusterSubnets),
    ...tag('service subnet', inv.serviceCIDRs),
    ...tag('built-in join subnet', inv.defaultJoinSubnets),
    ...tag('masquerade subnet', inv.masqueradeSubnets),
    ...(n.topology === 'Layer3' ? tag('transit switch subnet', defaultTransitSubnets) : []),
  ];
}

function overlapRules(n: Network, cluster: Cluster, at: string): Problem[] {
  const out: Problem[] = [];
  const internal = internalSubnets(cluster, n);
  const check = (kind: string, field: string, text: string, others: { label: string; cidr: Cidr; text: string }[]) => {
    const hit = others.find((o) => overlaps(o.cidr, mustParseCidr(text)));
    if (hit)
      out.push(
        problem(
          'InvalidSpec',
          n.ref,
          field,
          `illegal network configuration: ${kind} "${text}" overlaps ${hit.label} "${hit.text}"`,
        ),
      );
  };
  const own = n.subnets.map((s) => ({ label: 'user defined subnet', text: s.cidr, cidr: mustParseCidr(s.cidr) }));
  // upstream checks each subnet against the internal ones and the network's earlier subnets
  n.subnets.forEach((s, i) =>
    check('user defined subnet', `${at}subnets[${i}]`, s.cidr, [...internal, ...own.slice(0, i)]),
  );
  if (n.role !== 'Primary') return out;
  n.joinSubnets.forEach((j, i) =>
    check('user defined join subnet', `${at}joinSubnets[${i}]`, j, [...own, ...internal]),
  );
  return out;
}

/** Two primary networks serving one namespace: the second (by name) is the problem. */
function primaryPerNamespace(cluster: Cluster): Problem[] {
  const first = new Map<string, Network>();
  const out: Problem[] = [];
  for (const n of cluster.networks.filter((x) => x.role === 'Primary' && x.topology !== 'Localnet')) {
    for (const ns of n.namespaces) {
      const before = first.get(ns);
      if (before)
        out.push(
          problem(
            'InvalidSpec',
            n.ref,
            '',
            `namespace ${ns} already has primary network ${before.name} (${before.ref}); ${n.name} cannot be a second primary network there`,
          ),
        );
      else first.set(ns, n);
    }
  }
  return out;
}

function podRules(cluster: Cluster): Problem[] {
  const { inventory } = cluster;
  const nodes = new Set(inventory.nodes.map((n) => n.name));
  const served = new Set(
    cluster.networks.filter((n) => n.role === 'Primary' && n.topology !== 'Localnet').flatMap((n) => n.namespaces),
  );
  const seen = new Set<string>();
  const ref = `Inventory/${inventory.name}`;
  return inventory.pods.flatMap((pod, i): Problem[] => {
    const at = `spec.pods[${i}]`;
    const key = `${pod.namespace}/${pod.name}`;
    const found: Problem[] = [];
    if (seen.has(key)) found.push(problem('DuplicateObject', ref, at, `${at}: pod ${key} is listed twice`));
    seen.add(key);
    // an inventory without nodes gets them later (`--lab`); only a listed set can be checked
    if (nodes.size > 0 && !nodes.has(pod.node))
      found.push(
        problem(
          'InvalidField',
          ref,
          `${at}.node`,
          `${at}.node "${pod.node}" is not a node of the inventory (nodes: ${[...nodes].join(', ') || 'none'})`,
        ),
      );
    if (!served.has(pod.namespace) && (pod.networks ?? []).length === 0)
      found.push(
        problem(
          'InvalidField',
          ref,
          `${at}.namespace`,
          `${at}.namespace "${pod.namespace}" has no primary network (no UserDefinedNetwork in it, no ClusterUserDefinedNetwork selecting it) and ${at}.networks names no secondary one`,
        ),
      );
    for (const p of podAttachments(cluster, pod).problems) {
      const field = `${at}.networks[${p.index}]`;
      found.push(problem(p.reason, ref, field, `${field} "${pod.networks![p.index]}" ${p.message}`));
    }
    return found;
  });
}

/**
 * A Layer3 network's subnet at the unspecified address (0.0.0.0/N, ::/N): upstream gives its pods
 * a route to each network subnet and refuses a route to the unspecified address as a default
 * route, so no pod of it starts (util/pod_annotation.go: "bad podNetwork data: default route ...
 * should be specified as gateway"; measured by the oracle's fuzz, seed 24 case 156).
 */
function unspecifiedSubnetRules(n: Network, at: string): Problem[] {
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

/** Every network rule; empty when the networks can be planned. */
export function networkRules(cluster: Cluster): Problem[] {
  const perNetwork = cluster.networks.flatMap((n) => {
    const at = configPath(n);
    return [...subnetRules(n, at), ...overlapRules(n, cluster, at), ...unspecifiedSubnetRules(n, at)];
  });
  return [...perNetwork, ...podRules(cluster), ...activeNetworkRules(cluster)];
}

/**
 * What the runtime refuses before rendering (exit 1), kept out of buildCluster so `ovnk plan` and
 * the connect validation still see these networks: a network using a family the cluster does not
 * run (upstream's NAD check), a second primary network in a namespace, and EVPN Layer2 networks.
 */
export function renderRefusals(cluster: Cluster): Problem[] {
  const families = cluster.networks.flatMap((n) => familyRules(n, cluster, configPath(n)));
  return [...families, ...primaryPerNamespace(cluster), ...evpnLayer2(cluster)];
}

/**
 * EVPN Layer2 networks: upstream's layer2 switch then holds a MAC-VRF port with ARP/NS deny ACLs
 * (base_secondary_layer2_network_controller.go initializeLogicalSwitch), which we do not render yet.
 */
function evpnLayer2(cluster: Cluster): Problem[] {
  return cluster.networks
    .filter((n) => n.namespaces.length > 0 && n.transport === 'EVPN' && n.topology === 'Layer2')
    .map((n) =>
      problem(
        'UnsupportedNetworkType',
        n.ref,
        `${n.kind === 'ClusterUserDefinedNetwork' ? 'spec.network.' : 'spec.'}transport`,
        `${n.name}: EVPN Layer2 networks are not supported yet (their MAC-VRF port is not rendered; EVPN Layer3 networks are)`,
      ),
    );
}
