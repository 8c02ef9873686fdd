/**
 * One node's facts for one network, parsed and checked from the RenderInput (context.ts resolves
 * the network around them): its host subnets, gateway, transit-switch IPs, SNAT port range and
 * Layer2 topology version. Every error names the field, the value and the reason.
 */
import type { Cidr, Family } from '../model/cidr';
import { own } from '../model/dict';
import { DEFAULT_EPHEMERAL_PORT_RANGE, isValidPortRange } from '../model/portRange';
import { byFamily, parseCidrList, parseInterface, parseIP, transitSwitchIP, type Addr } from './addresses';
import { TopologyInputError } from './errors';
import type { ClusterInput, GatewayInput, NodeInput, RenderInput } from './input';
import { legacyGatewayTunnelId, LEGACY_TUNNEL_ID_TOP } from './legacyChecks';

export interface GatewayContext {
  bridge: string;
  mac: string;
  ips: Addr[];
  nextHops: { family: Family; ip: string }[];
  vlan: number;
}

export interface NodeContext {
  name: string;
  id: number;
  chassisId: string;
  /** Layer3 host subnets of this network, one per network family. */
  hostSubnets: Cidr[];
  gateway?: GatewayContext;
  /**
   * An Uplink CUDN whose UplinkState on this node is missing or not resolved: upstream's
   * nodeGatewayConfig fails (uplink_gateway.go uplinkGatewayConfig, "waiting for UplinkState
   * ...") before SyncGateway, so none of the node's gateway is written (see gatewayWaits users).
   */
  gatewayWaits: boolean;
  transitSwitchIPs: Addr[];
  gatewayMtu: boolean;
  /** `external_port_range` of this node's SNATs; undefined: none. */
  portRange?: string;
  /** Primary Layer2: the node still runs the topology before the transit router (layer2Upgrade.ts). */
  legacy: boolean;
  /** Primary Layer2: its old-topology gateway port key on the layer2 switch (layer2Upgrade.ts). */
  legacyTunnelId: number;
}

function gatewayContext(gw: GatewayInput, field: string): GatewayContext {
  if (!/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i.test(gw.mac))
    throw new TopologyInputError(`${field}.mac`, gw.mac, 'is not a MAC address');
  return {
    bridge: gw.bridge,
    mac: gw.mac.toLowerCase(),
    ips: gw.ips.map((t, i) => parseInterface(t, `${field}.ips[${i}]`)).sort(byFamily),
    nextHops: gw.nextHops.map((t, i) => parseIP(t, `${field}.nextHops[${i}]`)).sort(byFamily),
    vlan: gw.vlan ?? 0,
  };
}

/**
 * The node's gateway for this network: an Uplink CUDN's from its UplinkState (never the node's
 * own), else the node's.
 */
function gatewayOf(node: NodeInput, net: RenderInput['network'], field: string): GatewayContext | undefined {
  if (!net.uplink) return node.gateway ? gatewayContext(node.gateway, `${field}.gateway`) : undefined;
  const gateway = own(net.uplink.gateways, node.name);
  return gateway ? gatewayContext(gateway, `network.uplink.gateways.${node.name}`) : undefined;
}

export function nodeContext(
  node: NodeInput,
  index: number,
  cluster: ClusterInput,
  net: RenderInput['network'],
  transitSwitches: Cidr[],
  families: Family[],
  needsHostSubnets: boolean,
): NodeContext {
  const field = `nodes[${index}]`;
  if (!Number.isInteger(node.id) || node.id < 1)
    throw new TopologyInputError(`${field}.id`, node.id, 'is not a positive integer node id');
  if (!node.chassisId) throw new TopologyInputError(`${field}.chassisId`, node.chassisId, 'is empty');
  const raw = own(node.hostSubnets, net.name);
  const hostSubnets = needsHostSubnets ? parseCidrList(raw, `${field}.hostSubnets.${net.name}`) : [];
  const tsIPs = node.transitSwitchIPs
    ? node.transitSwitchIPs.map((t, i) => parseInterface(t, `${field}.transitSwitchIPs[${i}]`)).sort(byFamily)
    : transitSwitches.filter((c) => families.includes(c.family)).map((c) => transitSwitchIP(c, node.id));
  const gateway = gatewayOf(node, net, field);
  return {
    name: node.name,
    id: node.id,
    chassisId: node.chassisId,
    hostSubnets,
    gateway,
    gatewayWaits: net.uplink !== undefined && gateway === undefined,
    transitSwitchIPs: tsIPs,
    gatewayMtu: node.gatewayMtuSupport !== false,
    portRange: portRangeOf(node, cluster, field),
    legacy: node.layer2TopologyVersion === '1.0',
    legacyTunnelId: legacyTunnelIdOf(node, net.name, field),
  };
}

/** The node's old-topology gateway port key (legacyChecks.ts legacyGatewayTunnelId), checked. */
function legacyTunnelIdOf(node: NodeInput, network: string, field: string): number {
  const pinned = legacyGatewayTunnelId(node, network);
  if (!Number.isInteger(pinned) || pinned < 1 || pinned >= LEGACY_TUNNEL_ID_TOP - 1)
    throw new TopologyInputError(
      `${field}.layer2GatewayTunnelIds.${network}`,
      pinned,
      'is not a tunnel key from 1 to 32766',
    );
  return pinned;
}

/** The node's SNAT port range, else the cluster's, else upstream's default; "" means none. */
function portRangeOf(node: NodeInput, cluster: ClusterInput, field: string): string | undefined {
  const range = node.ephemeralPortRange ?? cluster.ephemeralPortRange ?? DEFAULT_EPHEMERAL_PORT_RANGE;
  if (range !== '' && !isValidPortRange(range)) {
    const at = node.ephemeralPortRange === undefined ? 'cluster.ephemeralPortRange' : `${field}.ephemeralPortRange`;
    throw new TopologyInputError(at, range, 'is not a port range <min>-<max>');
  }
  return range === '' ? undefined : range;
}
