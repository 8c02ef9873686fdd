/**
 * Model + allocation -> the renderer's inputs: the zones of the inventory (central: one zone
 * `central` with every node local; per-node: one zone per node, named after it) and, per zone,
 * one RenderInput per network in use (primary or secondary, Localnet included), with its pods and
 * their addresses.
 *
 * Chassis ids come from the Inventory; when a node has none the node name is used (OVS's
 * system-id is commonly the host name), so the render stays deterministic. Gateway details are
 * passed only when the node has a gateway bridge, its MAC and node IPs. Pod addresses are
 * assigned once per cluster (not per zone, podInputs.ts) and stay stable against `previousPods`.
 * Layer2 pods get a tunnel id (`requested-tnl-key`, pod-tunnels.ts) in the per-node layout
 * only, where every zone must give the same pod the same port key; in the central layout one
 * northd sees every pod and picks the keys itself, so none is assigned or kept.
 */
import type { ClusterAllocation } from '../alloc/cluster';
import { servedNodeNames } from '../alloc/served';
import { familyName } from '../model/cidr';
import { type Cluster, inUse } from '../model/cluster';
import { uplinksOf } from '../model/cudn';
import { dict, own } from '../model/dict';
import type { InventoryNode } from '../model/inventoryNode';
import type { Network } from '../model/network';
import { advertisesCudnPodNetwork } from '../model/routeAdvertisements';
import { inventoryZones, type Zone } from '../model/zones';
import { forNetwork } from './errors';
import type { ClusterInput, GatewayInput, NetworkInput, NodeInput, PodInput, RenderInput } from './input';
import { podKey } from './pod-ips';
import { assignPodTunnels, type PodTunnels } from './pod-tunnels';
import { assignNetworkPods, usesPreconfigured } from './podInputs';

/** Pod addresses per OVN network name, then per `namespace/name`. */
export type PodAssignments = Record<string, Record<string, string[]>>;

export interface ZoneRenderInputs {
  zone: Zone;
  /** One per rendered network, sorted by network name. */
  inputs: RenderInput[];
}

export interface TopologyInputs {
  zones: ZoneRenderInputs[];
  /** Every pod's addresses: keep them (e.g. in state) and pass them back as `previousPods`. */
  pods: PodAssignments;
  /** Layer2 pods' tunnel ids (per-node layout only): keep them and pass them back as `previousTunnels`. */
  tunnels: PodTunnels;
}

/** Networks that serve a namespace and got a network id: primary and secondary, Localnet included. */
export function renderedNetworks(cluster: Cluster, allocation: ClusterAllocation): Network[] {
  return cluster.networks.filter((n) => inUse(n) && own(allocation.networkIds, n.name) !== undefined);
}

/** The renderer's inputs for every zone (or only `zoneName`). */
export function topologyInputs(
  cluster: Cluster,
  allocation: ClusterAllocation,
  previousPods: PodAssignments = {},
  zoneName?: string,
  previousTunnels: PodTunnels = {},
  uplinkGateways: UplinkGateways = new Map(),
): TopologyInputs {
  const clusterInput = clusterInputOf(cluster);
  const nodes = nodeInputs(cluster, allocation);
  const networks = renderedNetworks(cluster, allocation).map((n) => ({
    network: n,
    input: forNetwork(n.name, () => networkInput(cluster, n, allocation, uplinkGateways)),
  }));
  const pods: PodAssignments = dict();
  const tunnels: PodTunnels = dict();
  const podInputs = new Map<string, PodInput[]>();
  for (const { network } of networks) {
    forNetwork(network.name, () => {
      const assigned = assignNetworkPods(cluster, allocation, network, own(previousPods, network.name) ?? {});
      pods[network.name] = assigned.ips;
      const ids = needsTunnelIds(cluster, network)
        ? assignPodTunnels(network.name, assigned.inputs, own(previousTunnels, network.name))
        : undefined;
      if (ids) tunnels[network.name] = ids;
      podInputs.set(
        network.name,
        ids ? assigned.inputs.map((p) => ({ ...p, tunnelId: ids[podKey(p)] })) : assigned.inputs,
      );
    });
  }
  const zones = inventoryZones(cluster.inventory).filter((z) => zoneName === undefined || z.name === zoneName);
  return {
    pods,
    tunnels,
    zones: zones.map((zone) => ({
      zone,
      inputs: networks.map(({ network, input }) => ({
        cluster: clusterInput,
        network: input,
        nodes,
        zone,
        pods: podInputs.get(network.name) ?? [],
      })),
    })),
  };
}

export function clusterInputOf(cluster: Cluster): ClusterInput {
  const { inventory } = cluster;
  return {
    ipFamilies: inventory.ipFamilies.map(familyName),
    masqueradeSubnets: inventory.masqueradeSubnets,
    gatewayMode: inventory.gatewayMode,
    mtu: inventory.mtu,
    ephemeralPortRange: inventory.ephemeralPortRange,
  };
}

/** The NAD keys of a network: `<namespace>/<object name>` for each namespace it serves. */
export function nadKeysOf(network: Network): string[] {
  return network.namespaces.map((ns) => `${ns}/${network.objectName}`);
}

/**
 * Uplink name -> node -> the external side of the gateway routers of the CUDNs on that Uplink,
 * from the node's UplinkState (the runtime converts the states: provider/uplink/routerGateway.ts).
 */
export type UplinkGateways = ReadonlyMap<string, ReadonlyMap<string, GatewayInput>>;

/** An Uplink CUDN's Uplink and the gateways its UplinkStates give (a node without one: no gateway at all). */
function uplinkOf(network: Network, gateways: UplinkGateways): NetworkInput['uplink'] {
  const name = uplinksOf(network)?.[0];
  if (name === undefined) return undefined;
  return { name, gateways: dict(gateways.get(name) ?? []) };
}

function networkInput(
  cluster: Cluster,
  network: Network,
  allocation: ClusterAllocation,
  gateways: UplinkGateways,
): NetworkInput {
  const uplink = uplinkOf(network, gateways);
  const keys = own(allocation.datapathKeys.networks, network.name);
  const layer2 = network.topology === 'Layer2';
  const active = servedNodeNames(cluster, network, allocation);
  // upstream's services controller serves primary networks only (RegisterServiceNetwork)
  const services =
    network.role === 'Primary'
      ? cluster.inventory.services.filter((s) => network.namespaces.includes(s.namespace))
      : [];
  return {
    name: network.name,
    topology: topologyName[network.topology],
    ...(network.role === 'Secondary' ? { role: 'secondary' as const } : {}),
    ...localnetOf(network),
    id: own(allocation.networkIds, network.name)!,
    subnets: network.subnets.map((s) =>
      network.topology === 'Layer3' ? { cidr: s.cidr, hostSubnetLength: s.hostSubnet } : { cidr: s.cidr },
    ),
    joinSubnets: network.joinSubnets,
    transitSubnets: layer2 ? network.transitSubnets : undefined,
    mtu: network.mtu,
    tunnelKeys:
      layer2 && keys?.transitRouter !== undefined
        ? { switch: keys.transitSwitch, transitRouter: keys.transitRouter }
        : undefined,
    nadKeys: nadKeysOf(network),
    ...(uplink ? { physicalNetworkName: network.name, uplink } : {}),
    ...(active === undefined ? {} : { activeNodes: active }),
    ...(services.length === 0 ? {} : { services }),
    ...transportOf(network),
    ...(isPodNetworkAdvertised(cluster, network) ? { podNetworkAdvertised: true } : {}),
    ...preconfiguredOf(cluster, network),
  };
}

/**
 * The preconfigured addresses upstream reads: with --enable-preconfigured-udn-addresses, of a
 * primary Layer2 network (util/multi_network.go newLayer2NetConfInfo); otherwise none (warned of,
 * model/warnings.ts).
 */
function preconfiguredOf(cluster: Cluster, network: Network): Pick<NetworkInput, 'preconfigured'> {
  const given = network.preconfigured;
  if (!given || !usesPreconfigured(cluster, network)) return {};
  const { defaultGatewayIPs, infrastructureSubnets } = given;
  if (!defaultGatewayIPs && !infrastructureSubnets) return {};
  return { preconfigured: { defaultGatewayIPs, infrastructureSubnets } };
}

const transportNames = { NoOverlay: 'no-overlay', EVPN: 'evpn' } as const;

function transportOf(network: Network): Pick<NetworkInput, 'transport' | 'outboundSNAT'> {
  if (network.transport === 'Geneve') return {};
  const outboundSNAT = network.noOverlay?.outboundSNAT === 'Enabled' ? { outboundSNAT: true } : {};
  return { transport: transportNames[network.transport], ...outboundSNAT };
}

/** A RouteAdvertisements advertises the CUDN's pod network (PodNetwork has no node selector: every node). */
export function isPodNetworkAdvertised(cluster: Cluster, network: Network): boolean {
  return (
    network.kind === 'ClusterUserDefinedNetwork' &&
    (cluster.routeAdvertisements ?? []).some((ra) => advertisesCudnPodNetwork(ra, network.labels, {}))
  );
}

/** Upstream's TopologyType of each CRD topology. */
const topologyName = { Layer3: 'layer3', Layer2: 'layer2', Localnet: 'localnet' } as const;

/** A Localnet network's `network_name` and VLAN (its localnet port's options). */
function localnetOf(network: Network): Pick<NetworkInput, 'physicalNetworkName' | 'vlan'> {
  if (!network.localnet) return {};
  const { physicalNetworkName, vlan } = network.localnet;
  return { physicalNetworkName, ...(vlan === undefined ? {} : { vlan }) };
}

/** Nodes with an allocated id, sorted by id, each with its host subnets of every network. */
export function nodeInputs(cluster: Cluster, allocation: ClusterAllocation): NodeInput[] {
  const byName = new Map(cluster.inventory.nodes.map((n) => [n.name, n]));
  return Object.entries(allocation.nodeIds)
    .sort((a, b) => a[1] - b[1])
    .map(([name, id]) => {
      const node = byName.get(name);
      const hostSubnets = dict<string[]>();
      for (const [network, owners] of Object.entries(allocation.hostSubnets)) {
        const subnets = own(owners, name);
        if (subnets) hostSubnets[network] = subnets;
      }
      const gateway = node ? gatewayOf(node) : undefined;
      const range = node?.ephemeralPortRange;
      return {
        name,
        id,
        chassisId: node?.chassisId ?? name,
        hostSubnets,
        ...(gateway ? { gateway } : {}),
        ...(range === undefined ? {} : { ephemeralPortRange: range }),
        ...(node?.transitSwitchIPs === undefined ? {} : { transitSwitchIPs: node.transitSwitchIPs }),
        ...(node?.gatewayMtuSupport === undefined ? {} : { gatewayMtuSupport: node.gatewayMtuSupport }),
        ...(node?.layer2TopologyVersion === undefined ? {} : { layer2TopologyVersion: node.layer2TopologyVersion }),
        ...(node?.layer2GatewayTunnelIds === undefined ? {} : { layer2GatewayTunnelIds: node.layer2GatewayTunnelIds }),
      };
    });
}

function gatewayOf(node: InventoryNode): GatewayInput | undefined {
  if (!node.gatewayBridge || !node.gatewayMac || node.nodeIPs.length === 0) return undefined;
  return { bridge: node.gatewayBridge, mac: node.gatewayMac, ips: node.nodeIPs, nextHops: node.gatewayNextHops };
}

/** Layer2 pods need cluster-wide port keys only when each zone has its own northd. */
const needsTunnelIds = (cluster: Cluster, network: Network): boolean =>
  cluster.inventory.zones === 'per-node' && network.topology === 'Layer2';
