/**
 * Resolves and checks a RenderInput into the parsed facts every renderer file needs: the
 * network prefix, CIDRs per family, the zone's local and remote nodes (sorted by node id, so
 * the render does not depend on input order; nodeContext.ts parses each) and upstream's common
 * external_ids sets.
 */
import type { Cidr, Family } from '../model/cidr';
import { NETWORK_KEY, ROLE_KEY, TOPOLOGY_KEY } from '../model/externalIds';
import type { Layout } from '../model/zones';
import { parseCidrList, parseInterface } from './addresses';
import { TopologyInputError } from './errors';
import { resolveInfrastructure, type Infrastructure } from './infrastructure';
import type { ClusterInput, NetworkRole, NetworkTopology, NodeInput, RenderInput } from './input';
import { checkLegacyLayer2 } from './legacyChecks';
import { networkPrefix } from './names';
import { nodeContext, type NodeContext } from './nodeContext';
import type { RemoteBlock } from './remoteRows';
import type { StringMap } from './rows';
import { DEFAULT_TRANSIT_SWITCH_SUBNETS } from './transit';

export interface NetworkContext {
  name: string;
  p: string;
  topology: NetworkTopology;
  role: NetworkRole;
  id: number;
  /** The network's MTU (IPv6 RA `mtu`). */
  mtu: number;
  /** The cluster MTU (upstream's config.Default.MTU): `gateway_mtu` of router ports. */
  clusterMtu: number;
  layout: Layout;
  cluster: ClusterInput;
  /** Empty for a secondary Layer2 or Localnet network without IPAM. */
  subnets: Cidr[];
  /** Primary networks only (secondary ones have no join switch or gateway router). */
  joins: Cidr[];
  masquerades: Cidr[];
  /** Primary Layer2 only, one per network family. */
  transits: Cidr[];
  tunnelKeys?: { switch: number; transitRouter: number };
  /** Primary Layer2 with preconfigured addresses: its gateway and management addresses (infrastructure.ts). */
  infrastructure?: Infrastructure;
  /**
   * `network_name` of the localnet ports: the network's own, else the cluster's, else `physnet`
   * (Localnet: its name).
   */
  physicalNetworkName: string;
  /** Localnet only: `tag_request` of its localnet port; 0 means none. */
  vlan: number;
  local: NodeContext[];
  /** How many nodes the zone holds as remote (per-node layout: every active node but its own). */
  remoteCount: number;
  /** Primary Layer2: how many of the network's nodes are still on the old topology (layer2Upgrade.ts). */
  legacyCount: number;
  /** Every node the network is active on, sorted by id (the same objects in every zone's context). */
  all: NodeContext[];
  /** Per network, shared by every zone's context: what renderers build once for all zones (remoteRows.ts). */
  memo: Map<string, unknown>;
  /** This zone's remote rows taken from a shared block (remoteRows.ts), merged into the zone's rows by render.ts. */
  remoteBlocks: RemoteBlock[];
  /** East/west traffic over the interconnect; not for NoOverlay and EVPN (upstream's hasInterconnectTransport). */
  interconnect: boolean;
  /** NoOverlay: the gateway router routes only its node's host subnets to the cluster router. */
  noOverlay: boolean;
  /** The pod network counts as advertised (upstream's util.IsPodNetworkAdvertisedAtNode). */
  advertised: boolean;
  /** NoOverlay with outbound SNAT: the network's `no-overlay-snat-exemption` address set exists. */
  snatExemption: boolean;
  /** Every node's IPs, bare, sorted (the cluster's `node-ips` address set). */
  clusterNodeIPs: string[];
  /** {network, topology} */
  e2: StringMap;
  /** E2 + role (`primary` or `secondary`) */
  e3: StringMap;
}

/** Upstream's default config.Default.MTU. */
export const DEFAULT_CLUSTER_MTU = 1400;

function clusterFamilies(cluster: ClusterInput): Family[] {
  const families = cluster.ipFamilies.map((f, i) => {
    if (f !== 'ipv4' && f !== 'ipv6')
      throw new TopologyInputError(`cluster.ipFamilies[${i}]`, f, 'is not ipv4 or ipv6');
    return f === 'ipv4' ? 4 : 6;
  });
  if (families.length === 0) throw new TopologyInputError('cluster.ipFamilies', [], 'names no family');
  return [...new Set(families)].sort() as Family[];
}

/** Keep one CIDR per wanted family; a missing family is an error naming the field. */
function forFamilies(cidrs: Cidr[], families: Family[], field: string, raw: unknown): Cidr[] {
  return families.map((family) => {
    const found = cidrs.find((c) => c.family === family);
    if (!found) throw new TopologyInputError(field, raw, `has no IPv${family} subnet`);
    return found;
  });
}

/** The input's nodes by name (index in the input); a repeated name or id is an error. */
function checkUnique(input: RenderInput): Map<string, number> {
  const names = new Map<string, number>();
  const ids = new Set<number>();
  input.nodes.forEach((n, i) => {
    if (names.has(n.name)) throw new TopologyInputError(`nodes[${i}].name`, n.name, 'is listed twice');
    if (ids.has(n.id)) throw new TopologyInputError(`nodes[${i}].id`, n.id, 'is used by another node');
    names.set(n.name, i);
    ids.add(n.id);
  });
  return names;
}

function layoutOf(input: RenderInput): Layout {
  const layout = input.zone.layout;
  if (layout === 'per-node' && input.zone.localNodes.length !== 1) {
    throw new TopologyInputError(
      'zone.localNodes',
      input.zone.localNodes,
      'must name exactly one node in the per-node layout',
    );
  }
  return layout;
}

/**
 * What resolve gives for one network whatever the zone: built once per network, input nodes and
 * cluster (memoised), since a per-node cluster resolves each network once per zone and every
 * zone's remote nodes are the same rows (remoteRows.ts).
 */
type NetworkBase = Omit<NetworkContext, 'layout' | 'local' | 'remoteCount' | 'remoteBlocks'>;

interface Known {
  nodes: unknown;
  cluster: unknown;
  base: NetworkBase;
  byName: ReadonlyMap<string, number>;
}

const bases = new WeakMap<RenderInput['network'], Known>();

function baseOf(input: RenderInput): Known {
  const known = bases.get(input.network);
  if (known && known.nodes === input.nodes && known.cluster === input.cluster) return known;
  const byName = checkUnique(input);
  const fresh = { nodes: input.nodes, cluster: input.cluster, base: resolveBase(input), byName };
  checkLegacyLayer2(input, fresh.base, byName);
  bases.set(input.network, fresh);
  return fresh;
}

/** The network's active nodes by name, once per network. */
export function nodeByName(ctx: Pick<NetworkContext, 'all' | 'memo'>): ReadonlyMap<string, NodeContext> {
  let known = ctx.memo.get('nodeByName') as Map<string, NodeContext> | undefined;
  if (known === undefined) {
    known = new Map(ctx.all.map((n) => [n.name, n]));
    ctx.memo.set('nodeByName', known);
  }
  return known;
}

/** Parse and check the input; every error names the field, the value and the reason. */
export function resolve(input: RenderInput): NetworkContext {
  const { base, byName } = baseOf(input);
  input.zone.localNodes.forEach((name, i) => {
    if (!byName.has(name)) throw new TopologyInputError(`zone.localNodes[${i}]`, name, 'is not a node of the input');
  });
  const layout = layoutOf(input);
  // looked up, not filtered: a per-node cluster resolves every network once per zone (issue 25.4)
  const local = [...new Set(input.zone.localNodes)].flatMap((name) => {
    const node = nodeByName(base).get(name);
    return node === undefined ? [] : [node];
  });
  local.sort((a, b) => a.id - b.id);
  return {
    ...base,
    layout,
    local,
    remoteCount: layout === 'per-node' ? base.all.length - local.length : 0,
    remoteBlocks: [],
  };
}

function resolveBase(input: RenderInput): NetworkBase {
  const { cluster, network: net } = input;
  const families = clusterFamilies(cluster);
  const role = roleOf(net);
  const primary = role === 'primary';
  const subnets = parseCidrList(
    net.subnets?.map((s) => s.cidr),
    'network.subnets',
  );
  if (subnets.length === 0 && (primary || net.topology === 'layer3'))
    throw new TopologyInputError('network.subnets', net.subnets, 'is empty');
  const transitSwitches = parseCidrList(
    cluster.transitSwitchSubnets ?? DEFAULT_TRANSIT_SWITCH_SUBNETS,
    'cluster.transitSwitchSubnets',
  );
  const active = net.activeNodes === undefined ? undefined : new Set(net.activeNodes);
  const nodes = input.nodes
    .map((n, i) => ({ n, i }))
    .filter(({ n }) => active === undefined || active.has(n.name))
    .map(({ n, i }) => nodeContext(n, i, cluster, net, transitSwitches, families, net.topology === 'layer3'))
    .sort((a, b) => a.id - b.id);
  const e2 = { [NETWORK_KEY]: net.name, [TOPOLOGY_KEY]: net.topology };
  const noOverlay = net.transport === 'no-overlay';
  const layer2Primary = primary && net.topology === 'layer2';
  return {
    name: net.name,
    p: networkPrefix(net.name),
    topology: net.topology,
    role,
    id: net.id,
    mtu: net.mtu,
    clusterMtu: cluster.mtu ?? DEFAULT_CLUSTER_MTU,
    cluster,
    subnets,
    joins: primary ? clusterWide(net.joinSubnets, families, 'network.joinSubnets') : [],
    masquerades: primary ? clusterWide(cluster.masqueradeSubnets, families, 'cluster.masqueradeSubnets') : [],
    transits: layer2Primary ? layer2Transits(input, subnets) : [],
    tunnelKeys: layer2Primary ? layer2Keys(input) : undefined,
    infrastructure: layer2Primary ? resolveInfrastructure(net.preconfigured, subnets) : undefined,
    physicalNetworkName:
      net.physicalNetworkName ?? (net.topology === 'localnet' ? net.name : (cluster.physicalNetworkName ?? 'physnet')),
    vlan: vlanOf(net),
    all: nodes,
    legacyCount: layer2Primary ? nodes.filter((n) => n.legacy).length : 0,
    memo: new Map(),
    interconnect: net.transport === undefined,
    noOverlay,
    advertised: net.transport !== undefined || net.podNetworkAdvertised === true,
    snatExemption: noOverlay && net.outboundSNAT === true,
    clusterNodeIPs: clusterNodeIPs(input.nodes),
    e2,
    e3: { ...e2, [ROLE_KEY]: role },
  };
}

/** The bare addresses of every node's gateway IPs (what upstream reads from the host-cidrs annotations). */
function clusterNodeIPs(nodes: readonly NodeInput[]): string[] {
  const ips = nodes.flatMap((n, i) =>
    (n.gateway?.ips ?? []).map((t, j) => parseInterface(t, `nodes[${i}].gateway.ips[${j}]`).ip),
  );
  return [...new Set(ips)].sort();
}

/** A cluster-wide list (join, masquerade subnets): one CIDR per cluster family. */
function clusterWide(raw: unknown, families: Family[], field: string): Cidr[] {
  return forFamilies(parseCidrList(raw, field), families, field, raw);
}

/** Upstream renders Localnet networks as secondary only (the CUDN CRD allows no other role). */
function roleOf(net: RenderInput['network']): NetworkRole {
  const role = net.role ?? 'primary';
  if (role !== 'primary' && role !== 'secondary')
    throw new TopologyInputError('network.role', role, 'is not primary or secondary');
  if (net.topology === 'localnet' && role !== 'secondary')
    throw new TopologyInputError('network.role', role, 'must be secondary for a localnet network');
  return role;
}

function vlanOf(net: RenderInput['network']): number {
  const vlan = net.vlan ?? 0;
  if (!Number.isInteger(vlan) || vlan < 0 || vlan > 4094)
    throw new TopologyInputError('network.vlan', vlan, 'is not a VLAN id from 1 to 4094');
  if (vlan !== 0 && net.topology !== 'localnet')
    throw new TopologyInputError('network.vlan', vlan, 'is only for a localnet network');
  return vlan;
}

function layer2Transits(input: RenderInput, subnets: Cidr[]): Cidr[] {
  const raw = input.network.transitSubnets;
  if (!raw)
    throw new TopologyInputError(
      'network.transitSubnets',
      raw,
      'is required for a Layer2 network (see layer2TransitSubnets)',
    );
  const families = [...new Set(subnets.map((s) => s.family))];
  return forFamilies(parseCidrList(raw, 'network.transitSubnets'), families, 'network.transitSubnets', raw);
}

function layer2Keys(input: RenderInput): { switch: number; transitRouter: number } {
  const keys = input.network.tunnelKeys;
  if (!keys || !Number.isInteger(keys.switch) || !Number.isInteger(keys.transitRouter)) {
    throw new TopologyInputError(
      'network.tunnelKeys',
      keys,
      'must give integer switch and transitRouter datapath keys for a Layer2 network',
    );
  }
  return keys;
}

/** The network subnet, join subnet, ... of one family, if the list has it. */
export function ofFamily<T extends { family: Family }>(list: readonly T[], family: Family): T | undefined {
  return list.find((x) => x.family === family);
}
