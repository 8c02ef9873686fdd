/**
 * The network model shared by ClusterUserDefinedNetwork and UserDefinedNetwork: the OVN network
 * name (`cluster_udn_<name>`, `<namespace>_<name>`), topology, role, subnets, join and transit
 * subnets, MTU and transport, parsed from the upstream `network` spec shape
 * (topology + layer3 / layer2 / localnet). cudn.ts and udn.ts say where that shape lives.
 */
import { type Family, firstClearBlock, mustParseCidr, formatCidr, parseCidr } from './cidr';
import { cidrList } from './cidrList';
import type { FieldReader, Json } from './fields';
import type { LoadedDocument } from './load';
import { failure, type Outcome, success } from './outcome';
import { parsePreconfigured, type PreconfiguredAddresses } from './preconfigured';
import { problem } from './problem';
import type { LabelSelector } from './selector';

export type Topology = 'Layer3' | 'Layer2' | 'Localnet';
export type Role = 'Primary' | 'Secondary';
export type Transport = 'Geneve' | 'NoOverlay' | 'EVPN';

/** `spec.noOverlay` of a NoOverlay network (the CRD requires it there and forbids it elsewhere). */
export interface NoOverlay {
  /** SNAT of pod traffic leaving the cluster (upstream's NoOverlaySNATEnabled / Disabled). */
  outboundSNAT: 'Enabled' | 'Disabled';
  /**
   * Whether ovn-kubernetes (Managed) or the user (Unmanaged) advertises the pod routes: no
   * Northbound row depends on it.
   */
  routing: 'Managed' | 'Unmanaged';
}

export const networkIdAnnotation = 'k8s.ovn.org/network-id';
/** Upstream's NAD annotation of a primary Layer2 network: [16711683 + network id, the transit router's key]. */
export const tunnelKeysAnnotation = 'k8s.ovn.org/tunnel-keys';
export const defaultJoinSubnets = ['100.65.0.0/16', 'fd99::/64'] as const;
export const defaultTransitSubnets = ['100.88.0.0/16', 'fd97::/64'] as const;

export interface NetworkSubnet {
  cidr: string;
  /** Layer3 only: the prefix length of each node's host subnet. */
  hostSubnet?: number;
}

export interface Network {
  kind: 'ClusterUserDefinedNetwork' | 'UserDefinedNetwork';
  /** The object reference used in problem paths. */
  ref: string;
  objectName: string;
  namespace?: string;
  /** The OVN network name: `cluster_udn_<name>` or `<namespace>_<name>`. */
  name: string;
  topology: Topology;
  role: Role;
  subnets: NetworkSubnet[];
  joinSubnets: string[];
  /** Primary Layer2 only: the transit-router subnets (default shifted off the network's own). */
  transitSubnets: string[];
  mtu: number;
  transport: Transport;
  /** NoOverlay transport only. */
  noOverlay?: NoOverlay;
  /** The object's labels (what a CUDN network selector matches). */
  labels: Record<string, string>;
  /** CUDN only. */
  namespaceSelector?: LabelSelector;
  /** Inventory namespaces the network serves; filled when the cluster is built. */
  namespaces: string[];
  /** From the `k8s.ovn.org/network-id` annotation. */
  pinnedId?: number;
  /** Localnet only: the bridge mapping's network (`network_name`) and the access VLAN, if any. */
  localnet?: { physicalNetworkName: string; vlan?: number };
  /** Localnet only: addresses pods never get (`excludeSubnets`). */
  excludeSubnets?: string[];
  /**
   * Layer2 only: `defaultGatewayIPs`, `infrastructureSubnets`, `reservedSubnets` as given; used
   * only with the Inventory's enablePreconfiguredUDNAddresses (preconfigured.ts).
   */
  preconfigured?: PreconfiguredAddresses;
  /**
   * From the `k8s.ovn.org/tunnel-keys` annotation (as written; alloc/cluster.ts checks it against
   * the id and range).
   */
  pinnedTunnelKeys?: [number, number];
}

export interface NetworkIdentity {
  kind: Network['kind'];
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  namespaceSelector?: LabelSelector;
}

/** Parse the `{topology, layer3|layer2|localnet, transport}` spec found at `field`. */
export function parseNetworkSpec(
  doc: LoadedDocument,
  r: FieldReader,
  spec: Record<string, Json>,
  field: string,
  identity: NetworkIdentity,
  mtu: number,
): Network | undefined {
  const topology =
    r.oneOf(spec.topology, `${field}topology`, ['Layer3', 'Layer2', 'Localnet'] as const) ??
    r.missing(`${field}topology`);
  if (!topology) return undefined;
  const key = topology === 'Layer3' ? 'layer3' : topology === 'Layer2' ? 'layer2' : 'localnet';
  const config = r.record(spec[key], `${field}${key}`) ?? r.missing(`${field}${key}`);
  if (!config) return undefined;
  const at = `${field}${key}.`;
  return {
    ...identity,
    ref: doc.ref,
    objectName: doc.metadata.name,
    topology,
    role: r.oneOf(config.role, `${at}role`, ['Primary', 'Secondary'] as const) ?? r.missing(`${at}role`) ?? 'Primary',
    subnets: parseSubnets(r, config.subnets, `${at}subnets`, topology),
    joinSubnets: cidrList(r, config.joinSubnets, `${at}joinSubnets`, defaultJoinSubnets),
    transitSubnets: [],
    mtu: r.integer(config.mtu, `${at}mtu`) ?? mtu,
    transport: r.oneOf(spec.transport, `${field}transport`, ['Geneve', 'NoOverlay', 'EVPN'] as const) ?? 'Geneve',
    ...parseNoOverlay(r, spec.noOverlay, `${field}noOverlay`),
    namespaces: [],
    pinnedId: pinnedId(r, doc.metadata.annotations[networkIdAnnotation]),
    ...pinnedTunnelKeys(r, doc.metadata.annotations[tunnelKeysAnnotation]),
    ...(topology === 'Localnet' ? localnetFields(r, config, at) : {}),
    ...(topology === 'Layer2' ? layer2Fields(r, config, at) : {}),
  };
}

function layer2Fields(r: FieldReader, config: Record<string, Json>, at: string): Partial<Network> {
  const preconfigured = parsePreconfigured(r, config, at);
  return preconfigured ? { preconfigured } : {};
}

/** `physicalNetworkName`, `vlan.access.id` and `excludeSubnets` of a Localnet spec (the CRD checks their shapes). */
function localnetFields(r: FieldReader, config: Record<string, Json>, at: string): Partial<Network> {
  const physicalNetworkName =
    r.string(config.physicalNetworkName, `${at}physicalNetworkName`) ?? r.missing(`${at}physicalNetworkName`) ?? '';
  const vlan = r.record(config.vlan, `${at}vlan`);
  const access = vlan && r.record(vlan.access, `${at}vlan.access`);
  const id = access ? r.integer(access.id, `${at}vlan.access.id`) : undefined;
  return {
    localnet: { physicalNetworkName, ...(id === undefined ? {} : { vlan: id }) },
    excludeSubnets: cidrList(r, config.excludeSubnets, `${at}excludeSubnets`),
  };
}

function parseNoOverlay(r: FieldReader, value: Json, field: string): { noOverlay?: NoOverlay } {
  if (value === undefined) return {};
  const map = r.record(value, field);
  if (!map) return {};
  const at = (key: string) => `${field}.${key}`;
  const outboundSNAT =
    map.outboundSNAT === undefined
      ? r.missing(at('outboundSNAT'))
      : r.oneOf(map.outboundSNAT, at('outboundSNAT'), ['Enabled', 'Disabled'] as const);
  const routing =
    map.routing === undefined
      ? r.missing(at('routing'))
      : r.oneOf(map.routing, at('routing'), ['Managed', 'Unmanaged'] as const);
  return outboundSNAT && routing ? { noOverlay: { outboundSNAT, routing } } : {};
}

function parseSubnets(r: FieldReader, value: Json, field: string, topology: Topology): NetworkSubnet[] {
  const items = r.list(value, field) ?? [];
  return items.flatMap((item, i): NetworkSubnet[] => {
    const at = `${field}[${i}]`;
    if (topology !== 'Layer3') return cidrList(r, [item], at).map((cidr) => ({ cidr }));
    const map = r.record(item, at);
    const text = map && (r.string(map.cidr, `${at}.cidr`) ?? r.missing(`${at}.cidr`));
    if (!map || text === undefined) return [];
    const parsed = parseCidr(text);
    if (!parsed.ok) {
      r.problems.push(problem('InvalidField', r.object, `${at}.cidr`, `${at}.cidr "${text}" ${parsed.why}`));
      return [];
    }
    const cidr = parsed.value;
    const hostSubnet = r.integer(map.hostSubnet, `${at}.hostSubnet`) ?? (cidr.family === 4 ? 24 : 64);
    if (hostSubnet <= cidr.prefix || hostSubnet > (cidr.family === 4 ? 32 : 128)) {
      return r.wrong(`${at}.hostSubnet`, hostSubnet, `a prefix length longer than the subnet's /${cidr.prefix}`) ?? [];
    }
    return [{ cidr: text, hostSubnet }];
  });
}

function pinnedId(r: FieldReader, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const id = Number(text);
  const field = `metadata.annotations["${networkIdAnnotation}"]`;
  if (!/^\d+$/.test(text) || id < 1 || id > 4095) return r.wrong(field, text, 'a network id from 1 to 4095');
  return id;
}

/**
 * Lets a stack whose transit router key another owner of the Northbound holds pin a free one, as
 * upstream's cluster-manager records it on the NAD.
 */
function pinnedTunnelKeys(r: FieldReader, text: string | undefined): { pinnedTunnelKeys?: [number, number] } {
  if (text === undefined) return {};
  let keys: unknown;
  try {
    keys = JSON.parse(text);
  } catch {
    keys = undefined;
  }
  const field = `metadata.annotations["${tunnelKeysAnnotation}"]`;
  if (!Array.isArray(keys) || keys.length !== 2 || !keys.every((k) => Number.isSafeInteger(k) && k > 0))
    return r.wrong(field, text, 'a JSON list of two tunnel keys, e.g. [16711684,16715779]') ?? {};
  return { pinnedTunnelKeys: [keys[0], keys[1]] };
}

/** The families of a network's subnets. */
export function networkFamilies(network: Network): Family[] {
  const found = new Set(network.subnets.map((s) => mustParseCidr(s.cidr).family));
  return ([4, 6] as const).filter((f) => found.has(f));
}

/**
 * Upstream's transit subnet of a primary Layer2 network: the default (100.88.0.0/16, fd97::/64),
 * moved to the next block of the same size while it overlaps any of `avoid`. A string names the
 * family whose address space ends before a free block.
 */
export function transitSubnetsFor(families: Family[], avoid: string[]): Outcome<string[]> {
  const taken = avoid.map(mustParseCidr);
  const found: string[] = [];
  for (const start of defaultTransitSubnets.map(mustParseCidr).filter((c) => families.includes(c.family))) {
    const block = firstClearBlock(start, taken);
    if (!block) return failure(`no /${start.prefix} after ${formatCidr(start)} is free of the network's subnets`);
    found.push(formatCidr(block));
  }
  return success(found);
}
