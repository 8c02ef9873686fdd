/**
 * Network rules checked when the cluster is built (the CLI's exit 3), with upstream's words where
 * upstream has them: the UDN/CUDN CRDs' CEL rules (subnet count and families, hostSubnet bounds,
 * MTU with IPv6: subnetRules.ts), the overlap checks of upstream's NAD parsing ("illegal network configuration:
 * user defined subnet ... overlaps cluster subnet ...") and the inventory's pods (unknown node,
 * no primary network, listed twice). `renderRefusals` holds what only the runtime refuses
 * (exit 1), as upstream's controllers refuse them at run time rather than its CRDs: networks of
 * a family the cluster does not run and a second primary network in a namespace; `ovnk plan`
 * and the connect validation keep seeing those networks as they are. Pods' secondary networks
 * are checked here too (podNetworks.ts).
 */
import { activeNetworkRules } from './active';
import { type Cidr, mustParseCidr, overlaps } from './cidr';
import type { Cluster } from './clusterShape';
import { defaultTransitSubnets, type Network } from './network';
import { podAttachments } from './podNetworks';
import { type Problem, problem } from './problem';
import { familyOf, subnetRules, unspecifiedSubnetRules } from './subnetRules';

/** `spec.network.layer3.` (CUDN) or `spec.layer3.` (UDN). */
export function configPath(n: Network): string {
  const key = n.topology === 'Layer3' ? 'layer3' : n.topology === 'Layer2' ? 'layer2' : 'localnet';
  return `${n.kind === 'ClusterUserDefinedNetwork' ? 'spec.network.' : 'spec.'}${key}.`;
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
