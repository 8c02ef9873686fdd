/**
 * Validation of every ClusterNetworkConnect before allocation, all problems at once (upstream
 * stops at the first): the CRD rules (specRules.ts), selection (select.ts), then
 * InsufficientNetworks (a warning only, as upstream accepts it), ConnectSubnetConflict,
 * OverlappingNetworkSubnets, IPFamilyMismatch and,
 * across connects, ConnectSubnetOverlap (reported on both connects: no first writer wins).
 * Message texts are upstream's where upstream has one. The result is alloc's ConnectRequest.
 */
import { networkIdsOf } from '../alloc/cluster';
import type { ConnectRequest } from '../alloc/connects';
import { type Cidr, type Family, familyName, mustParseCidr, overlaps } from '../model/cidr';
import type { Cluster } from '../model/cluster';
import type { ClusterNetworkConnect } from '../model/cnc';
import { type Network, networkFamilies } from '../model/network';
import { type Problem, problem } from '../model/problem';
import { type Warning, warning } from '../model/warnings';
import { selectNetworks } from './select';
import { checkSpec, type ValidConnectSubnet } from './specRules';

/** The Layer3 transit switch subnets (ClusterManager.V4/V6TransitSubnet), never checked upstream. */
export const layer3TransitSubnets = ['100.88.0.0/16', 'fd97::/64'];

/**
 * `previousIds`: the previous plan's network ids, and `taken` the ids other owners hold
 * (alloc/others.ts), so owner keys in messages are the ones allocated.
 */
export function validateConnects(
  cluster: Cluster,
  previousIds: Record<string, number> = {},
  taken: ReadonlyMap<number, string> = new Map(),
): ConnectRequest[] {
  const requests = cluster.connects.map((cnc) => validateConnect(cnc, cluster));
  const ids = networkIdsOf(cluster, previousIds, taken).ids;
  const ownerKey = (name: string): string => {
    const network = cluster.networks.find((n) => n.name === name);
    const id = ids[name];
    return network && id !== undefined ? `${network.topology === 'Layer2' ? 'layer2' : 'layer3'}_${id}` : name;
  };
  crossValidate(requests, ownerKey);
  return requests;
}

export function validateConnect(cnc: ClusterNetworkConnect, cluster: Cluster): ConnectRequest {
  const spec = checkSpec(cnc);
  const request: ConnectRequest = {
    name: cnc.name,
    ref: cnc.ref,
    connectSubnets: spec.connectSubnets.map((s) => ({ cidr: s.cidr, networkPrefix: s.networkPrefix })),
    networks: [],
    problems: spec.problems,
    subnetAnnotation: cnc.subnetAnnotation,
    tunnelKeyAnnotation: cnc.tunnelKeyAnnotation,
  };
  if (spec.problems.length > 0) return request;
  const selection = selectNetworks(cnc, cluster);
  request.networks = selection.networks.map((n) => n.name);
  const add = (reason: Problem['reason'], field: string, message: string) =>
    request.problems.push(problem(reason, cnc.ref, field, message));
  request.problems.push(...selection.problems);
  const warning = insufficientNetworks(cnc, selection.networks.length);
  if (warning) request.warnings = [warning];
  checkConflicts(cnc, spec.connectSubnets, selection.networks, cluster, add);
  checkNetworkOverlaps(cnc.name, selection.networks, add);
  checkFamilies(selection.networks, spec.connectSubnets, add);
  return request;
}

/**
 * Fewer than two networks: a warning, not a refusal. Upstream has no InsufficientNetworks check
 * (network-connect-upstream.md 4.5): its cluster manager still allocates the tunnel key and the
 * subnets of the networks there are (clustermanager/networkconnect/controller_test.go "1. CNC
 * created with 0 matching networks only has tunnel ID annotation"), and ovnkube-controller makes
 * the connect router and the one network's links (ovn/controller/networkconnect/controller_test.go
 * "should create connect router when CNC is created", "should create ports and routes when CNC has
 * only one allocated network"). A pipeline often makes the connect before its networks.
 */
function insufficientNetworks(cnc: ClusterNetworkConnect, count: number): Warning | undefined {
  if (count >= 2) return undefined;
  const which = count === 0 ? 'no network is selected' : 'only 1 network is selected';
  return warning(
    'InsufficientNetworks',
    cnc.ref,
    'spec.networkSelectors',
    `${which}, minimum 2 networks required for connection: the connect router is made and networks join it as they are selected`,
  );
}

type Add = (reason: Problem['reason'], field: string, message: string) => void;

function checkConflicts(
  cnc: ClusterNetworkConnect,
  subnets: ValidConnectSubnet[],
  networks: Network[],
  cluster: Cluster,
  add: Add,
): void {
  const connectText = `ClusterNetworkConnect.connectSubnets with subnets [${subnets.map((s) => s.cidr).join(' ')}]`;
  const connect = subnets.map((s) => s.parsed);
  const check = (prefix: string, what: string, cidrs: string[], shown = cidrs, kind = '') => {
    if (cidrs.some((c) => connect.some((k) => overlaps(k, mustParseCidr(c))))) {
      add(
        'ConnectSubnetConflict',
        'spec.connectSubnets',
        `validation failed for CNC ${cnc.name}: ${prefix} overlap with cluster network connect subnets: ${what} with ${kind}subnets [${shown.join(' ')}] and ${connectText}`,
      );
    }
  };
  const inv = cluster.inventory;
  check('cluster subnets', 'service subnet', inv.serviceCIDRs);
  check('cluster subnets', 'masquerade subnet', inv.masqueradeSubnets);
  check('cluster subnets', 'default network cluster subnet', inv.clusterSubnets);
  check('cluster subnets', 'default network join subnet', inv.defaultJoinSubnets);
  for (const node of inv.nodes)
    for (const [net, pins] of Object.entries(node.hostSubnets))
      check('cluster subnets', `node ${node.name} host subnet of ${net}`, pins);
  for (const n of networks) {
    check(
      'selected networks',
      `network ${n.name}`,
      n.subnets.map((s) => s.cidr),
      n.subnets.map(showSubnet),
    );
    check('selected networks', `network ${n.name}`, n.transitSubnets, n.transitSubnets, 'transit ');
    check('selected networks', `network ${n.name}`, n.joinSubnets, n.joinSubnets, 'join ');
    const l3Transit = layer3TransitSubnets.filter((c) => inv.ipFamilies.includes(mustParseCidr(c).family));
    if (n.topology === 'Layer3')
      check('selected networks', `network ${n.name}`, l3Transit, l3Transit, 'Layer3 transit ');
  }
}

function showSubnet(s: { cidr: string; hostSubnet?: number }): string {
  return s.hostSubnet === undefined ? s.cidr : `${s.cidr}/${s.hostSubnet}`;
}

/**
 * Upstream's CheckNetworksOverlap: each later network against the earlier ones, naming the later
 * first, subnets as plain CIDRs.
 */
function checkNetworkOverlaps(cnc: string, networks: Network[], add: Add): void {
  networks.forEach((b, i) => {
    for (const a of networks.slice(0, i)) {
      const clash = a.subnets.some((x) =>
        b.subnets.some((y) => overlaps(mustParseCidr(x.cidr), mustParseCidr(y.cidr))),
      );
      if (!clash) continue;
      const list = (n: Network) => `[${n.subnets.map((s) => s.cidr).join(' ')}]`;
      add(
        'OverlappingNetworkSubnets',
        'spec.networkSelectors',
        `validation failed for CNC ${cnc}: can not connect selected networks: selected networks have overlapping subnets: network ${b.name} with subnets ${list(b)} and network ${a.name} with subnets ${list(a)}`,
      );
    }
  });
}

function checkFamilies(networks: Network[], subnets: ValidConnectSubnet[], add: Add): void {
  const single = (n: Network): Family | undefined => {
    const families = networkFamilies(n);
    return families.length === 1 ? families[0] : undefined;
  };
  const v4 = networks.find((n) => single(n) === 4);
  const v6 = networks.find((n) => single(n) === 6);
  if (v4 && v6)
    add(
      'IPFamilyMismatch',
      'spec.networkSelectors',
      `IP family conflict: connected network ${v4.name} has only ipv4 subnets, but another connected network ${v6.name} has only ipv6 subnets`,
    );
  for (const n of [v4, v6]) {
    const family = n && single(n);
    if (family && !subnets.some((s) => s.parsed.family === family)) {
      add(
        'IPFamilyMismatch',
        'spec.connectSubnets',
        `IP family conflict: connected network ${n.name} is ${familyName(family)}-only but connectSubnets do not contain an ${familyName(family)} subnet`,
      );
    }
  }
}

/**
 * ConnectSubnetOverlap on every pair of connects that share a network and overlap, naming the
 * shared networks by upstream's owner keys (`layer3_1`).
 */
function crossValidate(requests: ConnectRequest[], ownerKey: (network: string) => string): void {
  const parsed = requests.map((r) => r.connectSubnets.map((s) => mustParseCidr(s.cidr)));
  // looked up, not searched: 16 connects of 30 networks are 230,000 comparisons per plan
  const selected = requests.map((r) => new Set(r.networks));
  requests.forEach((a, i) => {
    requests.forEach((b, j) => {
      if (i === j) return;
      const shared = a.networks.filter((n) => selected[j]!.has(n));
      if (shared.length === 0 || !anyOverlap(parsed[i]!, parsed[j]!)) return;
      a.problems.push(
        problem(
          'ConnectSubnetOverlap',
          a.ref,
          'spec.connectSubnets',
          `cross-validation failed for CNC ${a.name}: connectSubnets overlap detected between CNC ${a.name} and CNC ${b.name} which both select networks [${shared.map(ownerKey).join(' ')}]`,
        ),
      );
    });
  });
}

function anyOverlap(a: Cidr[], b: Cidr[]): boolean {
  return a.some((x) => b.some((y) => overlaps(x, y)));
}
