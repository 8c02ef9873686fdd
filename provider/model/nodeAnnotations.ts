/**
 * A Node's upstream annotations as an Inventory node: `k8s.ovn.org/node-id` (id),
 * `k8s.ovn.org/node-chassis-id` (chassisId), `k8s.ovn.org/node-subnets` (hostSubnets of every
 * network but `default`; single-stack values are strings, dual-stack ones lists:
 * util/subnet_annotations.go), the `default` entry of `k8s.ovn.org/l3-gateway-config`
 * (bridge-id, mac-address, ip-addresses or the older ip-address, next-hops or next-hop:
 * util/node_annotations.go) and `k8s.ovn.org/node-primary-ifaddr` (`{"ipv4": .., "ipv6": ..}`,
 * the node addresses when no gateway config lists them). An annotation that cannot be read is a
 * note and is left out; the plan then allocates that value itself. Pure.
 */
import { parseCidr } from './cidr';
import { dict } from './dict';
import { failure, type Outcome, success } from './outcome';

export const nodeAnnotationKeys = {
  id: 'k8s.ovn.org/node-id',
  chassisId: 'k8s.ovn.org/node-chassis-id',
  subnets: 'k8s.ovn.org/node-subnets',
  gateway: 'k8s.ovn.org/l3-gateway-config',
  primaryAddress: 'k8s.ovn.org/node-primary-ifaddr',
} as const;

export interface KubeMeta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface KubeObject {
  metadata?: KubeMeta;
  data?: Record<string, string>;
}

type Node = Record<string, unknown>;

/** The Inventory node of a Node object, and notes on what could not be read. */
export function inventoryNode(object: KubeObject): { node: Node; notes: string[] } {
  const name = object.metadata?.name ?? '';
  const annotations = object.metadata?.annotations ?? {};
  const notes: string[] = [];
  const note = (key: string, why: string) => notes.push(`Node/${name}: ${key} ${why}; the plan allocates it`);
  const node: Node = { name };
  const labels = object.metadata?.labels ?? {};
  if (Object.keys(labels).length > 0) node.labels = { ...labels };
  const id = annotations[nodeAnnotationKeys.id];
  if (id !== undefined && /^\d+$/.test(id) && Number(id) >= 2 && Number(id) <= 5000) node.id = Number(id);
  else note(nodeAnnotationKeys.id, id === undefined ? 'is not written yet' : `"${id}" is not a node id (2..5000)`);
  if (annotations[nodeAnnotationKeys.chassisId]) node.chassisId = annotations[nodeAnnotationKeys.chassisId];
  const subnets = hostSubnets(annotations[nodeAnnotationKeys.subnets]);
  if (!subnets.ok) note(nodeAnnotationKeys.subnets, subnets.why);
  else if (Object.keys(subnets.value).length > 0) node.hostSubnets = subnets.value;
  Object.assign(
    node,
    gatewayFields(annotations, (why) => notes.push(`Node/${name}: ${why}`)),
  );
  return { node, notes };
}

/** `k8s.ovn.org/node-subnets` without `default`, every value a list; a string says why not. */
export function hostSubnets(text: string | undefined): Outcome<Record<string, string[]>> {
  if (text === undefined) return success({});
  const parsed = parseJson(text);
  if (!isRecord(parsed)) return failure(`is not a JSON object: ${JSON.stringify(text)}`);
  const out = dict<string[]>();
  for (const [network, value] of Object.entries(parsed)) {
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list) || list.some((c) => typeof c !== 'string' || !parseCidr(c).ok))
      return failure(`has an entry for ${network} that is not a CIDR or a list of CIDRs: ${JSON.stringify(value)}`);
    if (network !== 'default') out[network] = list as string[];
  }
  return success(out);
}

function gatewayFields(annotations: Record<string, string>, note: (why: string) => void): Node {
  const out: Node = {};
  const text = annotations[nodeAnnotationKeys.gateway];
  const parsed = text === undefined ? undefined : parseJson(text);
  const config = isRecord(parsed) && isRecord(parsed.default) ? parsed.default : undefined;
  if (text !== undefined && !config) note(`${nodeAnnotationKeys.gateway} has no "default" entry: ${text}`);
  if (config) {
    if (typeof config['bridge-id'] === 'string' && config['bridge-id']) out.gatewayBridge = config['bridge-id'];
    if (typeof config['mac-address'] === 'string' && config['mac-address']) out.gatewayMac = config['mac-address'];
    const ips = listOf(config['ip-addresses'], config['ip-address']);
    if (ips.length > 0) out.nodeIPs = ips;
    const hops = listOf(config['next-hops'], config['next-hop']);
    if (hops.length > 0) out.gatewayNextHops = hops;
  }
  if (out.nodeIPs === undefined) {
    const primary = parseJson(annotations[nodeAnnotationKeys.primaryAddress] ?? '');
    const ips = isRecord(primary) ? listOf([primary.ipv4, primary.ipv6]) : [];
    if (ips.length > 0) out.nodeIPs = ips;
  }
  return out;
}

/** The non-empty strings of a list, else of the single older field. */
function listOf(list: unknown, single?: unknown): string[] {
  const items = Array.isArray(list) ? list : [];
  const strings = items.filter((v): v is string => typeof v === 'string' && v !== '');
  return strings.length > 0 ? strings : typeof single === 'string' && single !== '' ? [single] : [];
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
