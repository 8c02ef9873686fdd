/**
 * Inventory (ovnk/v1alpha1): what a cluster has besides the network objects: namespaces, nodes
 * (ids, chassis, labels, host-subnet pins), service and masquerade CIDRs, the default network's
 * subnets, and the gateway mode. Parsing fills upstream's defaults and checks every CIDR.
 */
import { type AdoptedAllocations, parseAdopted } from './adopted';
import type { Family } from './cidr';
import { cidrList } from './cidrList';
import { FieldReader, type Json } from './fields';
import { type InventoryNode, parseNodes } from './inventoryNode';
import type { LoadedDocument } from './load';
import { DEFAULT_EPHEMERAL_PORT_RANGE, readPortRange } from './portRange';
import type { Problem } from './problem';
import { parseTargets, type Targets } from './targets';
import { DEFAULT_LAYOUT, LAYOUTS, type Layout } from './zones';

export const namespaceNameLabel = 'kubernetes.io/metadata.name';

export interface Namespace {
  name: string;
  /** Includes `kubernetes.io/metadata.name`, which Kubernetes sets on every namespace. */
  labels: Record<string, string>;
}

/**
 * A pod of the lab or tests: it joins the primary network that serves its namespace, and the
 * secondary networks its `networks` name (podNetworks.ts).
 */
export interface InventoryPod {
  name: string;
  namespace: string;
  node: string;
  /** The pod's UID: its ports' `iface-id-ver`. */
  uid?: string;
  /**
   * NADs of secondary networks, as upstream's `k8s.v1.cni.cncf.io/networks` names them: `<name>` or
   * `<namespace>/<name>`.
   */
  networks?: string[];
}

export interface ServicePort {
  protocol: string;
  port: number;
}

export interface Service {
  namespace: string;
  name: string;
  clusterIPs: string[];
  ports: ServicePort[];
}

export interface Inventory {
  name: string;
  zones: Layout;
  serviceCIDRs: string[];
  masqueradeSubnets: string[];
  /** The default network's cluster subnets (checked for conflicts only). */
  clusterSubnets: string[];
  defaultJoinSubnets: string[];
  gatewayMode: 'shared' | 'local';
  /** The cluster MTU (upstream's config.Default.MTU): gateway_mtu of router ports and a network's default MTU. */
  mtu: number;
  /** SNAT port range of every node without its own (upstream's --ephemeral-port-range). */
  ephemeralPortRange: string;
  /** The families the cluster runs: `spec.ipFamilies`, else those of clusterSubnets and serviceCIDRs. */
  ipFamilies: Family[];
  namespaces: Namespace[];
  nodes: InventoryNode[];
  services: Service[];
  pods: InventoryPod[];
  targets?: Targets;
  /** What upstream already allocated (`spec.allocations`): plans take it as previous state. */
  allocations: AdoptedAllocations;
  /**
   * Upstream's --enable-preconfigured-udn-addresses (default off): Layer2 preconfigured addresses
   * are read (preconfigured.ts).
   */
  enablePreconfiguredUDNAddresses: boolean;
  /** Upstream's --enable-egress-ip (default off): the gateway bridges' priority-103 drop of un-SNATed pod traffic. */
  enableEgressIP: boolean;
  /**
   * Take over the rows ovn-kubernetes wrote for the planned networks (no ovnk owner marker), e.g. to
   * upgrade a Layer2 network it rendered (runtime/adoptUpstream.ts); default off: an apply refuses them.
   */
  adoptUpstreamRows: boolean;
}

/**
 * Upstream's defaults (../shared/reference/network-connect-upstream.md section 5), but the
 * masquerade subnets: upstream's built-in /29 and /125 hold no user-defined network's masquerade
 * addresses (topology/masqueradeFit.ts), so ours are what its deployments with user-defined
 * networks give (`--v4-masquerade-subnet 169.254.0.0/17`, `--v6-masquerade-subnet fd69::/112`).
 */
export const inventoryDefaults = {
  serviceCIDRs: ['172.16.1.0/24'],
  masqueradeSubnets: ['169.254.0.0/17', 'fd69::/112'],
  clusterSubnets: ['10.128.0.0/14'],
  defaultJoinSubnets: ['100.64.0.0/16', 'fd98::/64'],
  mtu: 1400,
} as const;

export function parseInventory(doc: LoadedDocument, problems: Problem[]): Inventory {
  const r = new FieldReader(doc.ref, problems);
  const spec = r.record(doc.body.spec, 'spec') ?? {};
  const cidrs = (key: keyof typeof inventoryDefaults & string, fallback: readonly string[]) =>
    cidrList(r, spec[key], `spec.${key}`, fallback);
  const serviceCIDRs = cidrs('serviceCIDRs', inventoryDefaults.serviceCIDRs);
  const clusterSubnets = cidrs('clusterSubnets', inventoryDefaults.clusterSubnets);
  return {
    name: doc.metadata.name,
    zones: r.oneOf(spec.zones, 'spec.zones', LAYOUTS) ?? DEFAULT_LAYOUT,
    serviceCIDRs,
    masqueradeSubnets: perFamily(
      r,
      spec.masqueradeSubnets,
      'spec.masqueradeSubnets',
      inventoryDefaults.masqueradeSubnets,
    ),
    clusterSubnets,
    defaultJoinSubnets: cidrs('defaultJoinSubnets', inventoryDefaults.defaultJoinSubnets),
    gatewayMode: r.oneOf(spec.gatewayMode, 'spec.gatewayMode', ['shared', 'local'] as const) ?? 'shared',
    mtu: r.integer(spec.mtu, 'spec.mtu') ?? inventoryDefaults.mtu,
    ephemeralPortRange:
      readPortRange(r, spec.ephemeralPortRange, 'spec.ephemeralPortRange') ?? DEFAULT_EPHEMERAL_PORT_RANGE,
    ipFamilies: families(r, spec.ipFamilies, [...clusterSubnets, ...serviceCIDRs]),
    namespaces: (r.list(spec.namespaces, 'spec.namespaces') ?? []).flatMap((n, i) =>
      parseNamespace(r, n, `spec.namespaces[${i}]`),
    ),
    nodes: parseNodes(r, r.list(spec.nodes, 'spec.nodes') ?? []),
    services: (r.list(spec.services, 'spec.services') ?? []).flatMap((s, i) =>
      parseService(r, s, `spec.services[${i}]`),
    ),
    pods: (r.list(spec.pods, 'spec.pods') ?? []).flatMap((p, i) => parsePod(r, p, `spec.pods[${i}]`)),
    targets: parseTargets(r, spec.targets),
    allocations: parseAdopted(r, spec.allocations),
    enablePreconfiguredUDNAddresses: flag(
      r,
      spec.enablePreconfiguredUDNAddresses,
      'spec.enablePreconfiguredUDNAddresses',
    ),
    enableEgressIP: flag(r, spec.enableEgressIP, 'spec.enableEgressIP'),
    adoptUpstreamRows: flag(r, spec.adoptUpstreamRows, 'spec.adoptUpstreamRows'),
  };
}

/**
 * One CIDR per family, as upstream's separate v4 and v6 flags (config.Gateway.V4MasqueradeSubnet,
 * V6MasqueradeSubnet): a family the list does not give keeps its default.
 */
function perFamily(r: FieldReader, value: Json, field: string, defaults: readonly string[]): string[] {
  const given = cidrList(r, value, field);
  const familyOf = (c: string): Family => (c.includes(':') ? 6 : 4);
  given.forEach((c, i) => {
    const first = given.findIndex((o) => familyOf(o) === familyOf(c));
    if (first !== i)
      r.wrong(`${field}[${i}]`, c, `one subnet per IP family (${field}[${first}] is IPv${familyOf(c)} too)`);
  });
  return ([4, 6] as const).flatMap((f) => {
    const chosen = given.find((c) => familyOf(c) === f) ?? defaults.find((c) => familyOf(c) === f);
    return chosen ? [chosen] : [];
  });
}

function families(r: FieldReader, value: Json, cidrs: string[]): Family[] {
  const given = r.strings(value, 'spec.ipFamilies');
  if (given)
    return given.flatMap((f, i) =>
      f === 'IPv4'
        ? [4 as const]
        : f === 'IPv6'
          ? [6 as const]
          : (r.wrong(`spec.ipFamilies[${i}]`, f, 'IPv4 or IPv6') ?? []),
    );
  const found = new Set(cidrs.map((c) => (c.includes(':') ? 6 : 4) as Family));
  return ([4, 6] as const).filter((f) => found.has(f));
}

function parseNamespace(r: FieldReader, value: Json, field: string): Namespace[] {
  const map = r.record(value, field);
  const name = map && (r.string(map.name, `${field}.name`) ?? r.missing(`${field}.name`));
  if (!map || name === undefined) return [];
  return [{ name, labels: { ...r.labels(map.labels, `${field}.labels`), [namespaceNameLabel]: name } }];
}

function flag(r: FieldReader, value: Json, field: string): boolean {
  if (value === undefined || value === null) return false;
  return typeof value === 'boolean' ? value : (r.wrong(field, value, 'true or false') ?? false);
}

function parsePod(r: FieldReader, value: Json, field: string): InventoryPod[] {
  const map = r.record(value, field);
  if (!map) return [];
  const name = r.string(map.name, `${field}.name`) ?? r.missing(`${field}.name`);
  const namespace = r.string(map.namespace, `${field}.namespace`) ?? r.missing(`${field}.namespace`);
  const node = r.string(map.node, `${field}.node`) ?? r.missing(`${field}.node`);
  const uid = r.string(map.uid, `${field}.uid`);
  const networks = r.strings(map.networks, `${field}.networks`);
  if (name === undefined || namespace === undefined || node === undefined) return [];
  return [{ name, namespace, node, ...(uid === undefined ? {} : { uid }), ...(networks ? { networks } : {}) }];
}

function parseService(r: FieldReader, value: Json, field: string): Service[] {
  const map = r.record(value, field);
  if (!map) return [];
  const namespace = r.string(map.namespace, `${field}.namespace`) ?? r.missing(`${field}.namespace`);
  const name = r.string(map.name, `${field}.name`) ?? r.missing(`${field}.name`);
  const ports = (r.list(map.ports, `${field}.ports`) ?? []).flatMap((p, i) => {
    const port = r.record(p, `${field}.ports[${i}]`);
    const number = port && r.integer(port.port, `${field}.ports[${i}].port`);
    return port && number !== undefined
      ? [{ protocol: r.string(port.protocol, `${field}.ports[${i}].protocol`) ?? 'TCP', port: number }]
      : [];
  });
  if (namespace === undefined || name === undefined) return [];
  return [{ namespace, name, clusterIPs: r.strings(map.clusterIPs, `${field}.clusterIPs`) ?? [], ports }];
}
