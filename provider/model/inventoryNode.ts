/**
 * One node of the Inventory (`spec.nodes[]`): what upstream's node annotations and its
 * l3-gateway-config would say, parsed field by field; every problem names its field path.
 */
import { parseCidrLoose } from './cidr';
import { cidrList } from './cidrList';
import { dict } from './dict';
import type { FieldReader, Json } from './fields';
import { type Layer2TopologyVersion, layer2Version } from './layer2Version';
import { readPortRange } from './portRange';
import { problem } from './problem';

export const minNodeId = 2;
export const maxNodeId = 5000;

export interface InventoryNode {
  name: string;
  /** `k8s.ovn.org/node-id` when pinned; otherwise alloc/ assigns one. */
  id?: number;
  chassisId?: string;
  labels: Record<string, string>;
  gatewayBridge?: string;
  /** Host-subnet pins by OVN network name. */
  hostSubnets: Record<string, string[]>;
  /** The node's addresses with prefix on the gateway bridge (upstream's l3-gateway-config ip-addresses). */
  nodeIPs: string[];
  /** The gateway bridge's MAC (l3-gateway-config mac-address). */
  gatewayMac?: string;
  /** Default-route next hops of the gateway (l3-gateway-config next-hops). */
  gatewayNextHops: string[];
  /**
   * CUDN names active on this node (as Dynamic UDN would narrow them); absent: every network is
   * active here, as upstream without Dynamic UDN.
   */
  networks?: string[];
  /** The node's SNAT port range (its kernel's ip_local_port_range); default the Inventory's. */
  ephemeralPortRange?: string;
  /** Whether the node supports `gateway_mtu` (upstream's k8s.ovn.org/gateway-mtu-support); default true. */
  gatewayMtuSupport?: boolean;
  /**
   * Pin of the node's Layer3 transit-switch addresses (upstream's annotation
   * `k8s.ovn.org/node-transit-switch-port-ifaddr`, when adopting); default transit subnet base + node id.
   */
  transitSwitchIPs?: string[];
  /**
   * The Layer2 topology this node's ovnkube-controller renders (upstream's node annotation
   * `k8s.ovn.org/layer2-topology-version`): `"2.0"`, the transit router (OKEP-5094, the default),
   * or `"1.0"`, the topology before it (gateway routers on the layer2 switch; upstream: no
   * annotation). Nodes not yet upgraded keep `"1.0"`; see layer2Upgrade.ts.
   */
  layer2TopologyVersion?: Layer2TopologyVersion;
  /**
   * Per OVN network name, the tunnel key of the node's gateway-router port on a primary Layer2
   * switch in the old topology (upstream's `k8s.ovn.org/udn-layer2-node-gateway-router-lrp-tunnel-ids`);
   * default 32767 - node id + 1 (pods take keys from 1 up).
   */
  layer2GatewayTunnelIds?: Record<string, number>;
}

export function parseNodes(r: FieldReader, items: Json[]): InventoryNode[] {
  const nodes = items.flatMap((n, i) => parseNode(r, n, `spec.nodes[${i}]`));
  const seen = new Map<string | number, number>();
  nodes.forEach((node, i) => {
    for (const key of [node.name, node.id]) {
      if (key === undefined) continue;
      const first = seen.get(key);
      if (first !== undefined)
        r.problems.push(
          problem(
            'DuplicateObject',
            r.object,
            `spec.nodes[${i}]`,
            `spec.nodes[${i}] repeats ${typeof key === 'number' ? 'node id' : 'node name'} ${JSON.stringify(key)} of spec.nodes[${first}]`,
          ),
        );
      else seen.set(key, i);
    }
  });
  return nodes;
}

function parseNode(r: FieldReader, value: Json, field: string): InventoryNode[] {
  const map = r.record(value, field);
  const name = map && (r.string(map.name, `${field}.name`) ?? r.missing(`${field}.name`));
  if (!map || name === undefined) return [];
  let id = r.integer(map.id, `${field}.id`);
  if (id !== undefined && (id < minNodeId || id > maxNodeId))
    id = r.wrong(`${field}.id`, id, `a node id from ${minNodeId} to ${maxNodeId} (0 and 1 are reserved)`);
  const pins = r.record(map.hostSubnets, `${field}.hostSubnets`) ?? {};
  const hostSubnets = dict<string[]>();
  for (const [network, list] of Object.entries(pins))
    hostSubnets[network] = cidrList(r, list, `${field}.hostSubnets.${network}`);
  return [
    {
      name,
      id,
      chassisId: r.string(map.chassisId, `${field}.chassisId`),
      labels: r.labels(map.labels, `${field}.labels`),
      gatewayBridge: r.string(map.gatewayBridge, `${field}.gatewayBridge`),
      hostSubnets,
      nodeIPs: interfaceAddresses(r, map.nodeIPs, `${field}.nodeIPs`),
      gatewayMac: r.string(map.gatewayMac, `${field}.gatewayMac`),
      gatewayNextHops: r.strings(map.gatewayNextHops, `${field}.gatewayNextHops`) ?? [],
      ...(map.networks !== undefined ? { networks: r.strings(map.networks, `${field}.networks`) ?? [] } : {}),
      ...optionalRange(r, map.ephemeralPortRange, `${field}.ephemeralPortRange`),
      ...optionalFlag(r, map.gatewayMtuSupport, `${field}.gatewayMtuSupport`),
      ...(map.transitSwitchIPs !== undefined
        ? { transitSwitchIPs: interfaceAddresses(r, map.transitSwitchIPs, `${field}.transitSwitchIPs`) }
        : {}),
      ...layer2Version(r, map, field),
    },
  ];
}

function optionalFlag(r: FieldReader, value: Json, field: string): { gatewayMtuSupport?: boolean } {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'boolean') return r.wrong(field, value, 'true or false') ?? {};
  return { gatewayMtuSupport: value };
}

function optionalRange(r: FieldReader, value: Json, field: string): { ephemeralPortRange?: string } {
  const range = readPortRange(r, value, field);
  return range === undefined ? {} : { ephemeralPortRange: range };
}

/** Interface addresses with prefix (`172.18.0.2/16`): host bits are expected here. */
function interfaceAddresses(r: FieldReader, value: Json, field: string): string[] {
  return (r.strings(value, field) ?? []).filter((text, i) => {
    const parsed = parseCidrLoose(text);
    if (parsed.ok) return true;
    r.problems.push(problem('InvalidField', r.object, `${field}[${i}]`, `${field}[${i}] "${text}" ${parsed.why}`));
    return false;
  });
}
