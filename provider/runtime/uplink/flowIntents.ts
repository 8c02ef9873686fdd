/**
 * Which gateway bridge of each node carries which networks' flows, by port names (the ofports are
 * the node's, read when the flows are written): an Uplink CUDN on the bridge of its resolved
 * UplinkState, SNATed to that state's address, with the host interface and MAC it names and the
 * bridge's physical uplink; a primary network without Uplinks on the node's gateway bridge
 * (breth0), SNATed to the node's address with breth0's MAC, its host side the bridge's own port
 * (upstream's shared gateway for UDNs). A network's ct mark and gateway-router masquerade address come from
 * its network id (the allocation's) and the Inventory's masquerade subnet, as the topology
 * computes them; a network without an id yet gets no flows. Pure.
 */
import type { Cluster } from '../../model/cluster';
import { uplinksOf } from '../../model/cudn';
import type { InventoryNode } from '../../model/inventoryNode';
import { masqueradeIPs } from '../../topology/addresses';
import { localnetPort, networkPrefix } from '../../topology/names';
import { isActiveOn } from '../../uplink/active';
import { physicalUplinkOf } from '../../uplink/bridge';
import { findCondition, type UplinkState } from '../../uplink/conditions';
import { type BridgeFlowInput, type BridgeNetwork, masqCtMark } from '../../uplink/flows';
import type { NodeDiscovery, UplinkPlan } from '../../uplink/plan';
import { masqueradeSubnet, networkFlowFacts, serviceFamilies } from './flowFacts';

export interface NetworkIntent {
  network: string;
  /** ovn-controller's patch port of the network's localnet port on this bridge. */
  patch: string;
  ctMark: string;
  /** The gateway router's masquerade addresses, per family of the Inventory's masquerade subnets. */
  masqIp?: string;
  masqIp6?: string;
  /** What its flows beyond egress need (flowFacts.ts). */
  facts: Partial<BridgeNetwork>;
}

export interface BridgeIntent {
  bridge: string;
  /** Interface names; `LOCAL` when the host interface is the bridge's own. */
  physical: string;
  host: string;
  mac: string;
  /** The bridge's addresses (the UplinkState's, or the node's on breth0), per family. */
  ip?: string;
  ip6?: string;
  networks: NetworkIntent[];
  /** The default network's patch port on the node's gateway bridge, where ovn-controller makes one. */
  defaultPatch?: string;
  /** Which renderer, the service CIDRs, EgressIP and the gateway mode (flowFacts.ts). */
  facts: Pick<BridgeFlowInput, 'kind' | 'services' | 'egressIP' | 'localGateway'>;
}

/**
 * The default network's patch port on the gateway bridge: `util.GetPatchPortName(bridge, node)`,
 * `patch-<bridge>_<node>-to-br-int` (its localnet port is `<bridge>_<node>`, GetExtPortName).
 */
export const defaultPatchPortOf = (bridge: string, node: string): string => `patch-${bridge}_${node}-to-br-int`;

/** ovn-controller names a localnet port's patch port `patch-<localnet port>-to-br-int`. */
export const patchPortOf = (bridge: string, network: string, node: string): string =>
  `patch-${localnetPort(bridge, networkPrefix(network), node)}-to-br-int`;

function gatewayRouterMasqIp(cluster: Cluster, networkId: number, family: 4 | 6): string | undefined {
  const subnet = masqueradeSubnet(cluster.inventory, family);
  return subnet && masqueradeIPs(subnet.cidr, networkId).gatewayRouter.ip;
}

/** The first address of each family among `cidrs` (`a.b.c.d/len`, `x::y/len`), without its length. */
function addressesOf(cidrs: readonly string[]): { ip?: string; ip6?: string } {
  const ip = cidrs.find((a) => !a.includes(':'))?.split('/')[0];
  const ip6 = cidrs.find((a) => a.includes(':'))?.split('/')[0];
  return { ...(ip === undefined ? {} : { ip }), ...(ip6 === undefined ? {} : { ip6 }) };
}

function networkIntent(
  cluster: Cluster,
  ids: Readonly<Record<string, number>>,
  network: string,
  bridge: string,
  node: string,
  hostSubnets?: HostSubnets,
): NetworkIntent | undefined {
  const id = ids[network];
  if (id === undefined) return undefined;
  const masqIp = gatewayRouterMasqIp(cluster, id, 4);
  const masqIp6 = gatewayRouterMasqIp(cluster, id, 6);
  if (masqIp === undefined && masqIp6 === undefined) return undefined;
  return {
    network,
    patch: patchPortOf(bridge, network, node),
    ctMark: masqCtMark(id),
    ...(masqIp === undefined ? {} : { masqIp }),
    ...(masqIp6 === undefined ? {} : { masqIp6 }),
    facts: networkFlowFacts(cluster, id, network, node, hostSubnets),
  };
}

/** Host subnets per OVN network name, then per node (the allocation's). */
export type HostSubnets = Readonly<Record<string, Readonly<Record<string, string[]>>>>;

/** The bridge-wide facts of the flows: which of upstream's renderers, the services, EgressIP, the gateway mode. */
function bridgeFacts(cluster: Cluster, kind: 'uplink' | 'gateway'): BridgeIntent['facts'] {
  const { inventory } = cluster;
  return {
    kind,
    services: serviceFamilies(inventory),
    ...(inventory.enableEgressIP ? { egressIP: true } : {}),
    ...(inventory.gatewayMode === 'local' ? { localGateway: true } : {}),
  };
}

function bridgeOfState(
  state: UplinkState,
  found: NodeDiscovery | undefined,
): Omit<BridgeIntent, 'networks' | 'facts'> | undefined {
  const s = state.status;
  const addresses = addressesOf(s.ipAddresses ?? []);
  if (!found?.ok || !s.ovsBridge || !s.macAddress || !s.hostInterfaceName || Object.keys(addresses).length === 0)
    return undefined;
  if (findCondition(s.conditions, 'Resolved')?.status !== 'True') return undefined;
  const physical = physicalUplinkOf(found.value.ovs, s.ovsBridge.name);
  if (!physical.ok) return undefined;
  const bridge = s.ovsBridge.name;
  return {
    bridge,
    physical: physical.value,
    host: s.hostInterfaceName === bridge ? 'LOCAL' : s.hostInterfaceName,
    mac: s.macAddress,
    ...addresses,
  };
}

/** The node's gateway bridge with the primary networks without Uplinks active there. */
function gatewayBridgeIntent(
  cluster: Cluster,
  node: InventoryNode,
  found: NodeDiscovery | undefined,
  ids: Readonly<Record<string, number>>,
  hostSubnets?: HostSubnets,
): BridgeIntent | undefined {
  const bridge = node.gatewayBridge;
  const addresses = addressesOf(node.nodeIPs);
  if (!found?.ok || !bridge || !node.gatewayMac || Object.keys(addresses).length === 0) return undefined;
  const physical = physicalUplinkOf(found.value.ovs, bridge);
  if (!physical.ok) return undefined;
  const networks = cluster.networks
    .filter((n) => n.role === 'Primary' && uplinksOf(n) === undefined && isActiveOn(node, n))
    .flatMap((n) => networkIntent(cluster, ids, n.name, bridge, node.name, hostSubnets) ?? []);
  if (networks.length === 0) return undefined;
  const defaultPatch = defaultPatchPortOf(bridge, node.name);
  return {
    bridge,
    physical: physical.value,
    host: 'LOCAL',
    mac: node.gatewayMac,
    ...addresses,
    networks,
    defaultPatch,
    facts: bridgeFacts(cluster, 'gateway'),
  };
}

/** Per node, the gateway bridges that carry networks and which (nodes with none are absent). */
export function gatewayFlowIntents(
  plan: UplinkPlan,
  cluster: Cluster,
  discovery: ReadonlyMap<string, NodeDiscovery>,
  networkIds: Readonly<Record<string, number>>,
  hostSubnets?: HostSubnets,
): Map<string, BridgeIntent[]> {
  const out = new Map<string, BridgeIntent[]>();
  for (const step of plan.nodes) {
    const bridges = new Map<string, BridgeIntent>();
    for (const { network, bridge } of step.desired) {
      const state = plan.uplinkStates.find((s) => s.spec.nodeName === step.node && s.status.ovsBridge?.name === bridge);
      const base = state && bridgeOfState(state, discovery.get(step.node));
      const intent = networkIntent(cluster, networkIds, network, bridge, step.node, hostSubnets);
      if (!base || !intent) continue;
      const entry = bridges.get(bridge) ?? { ...base, networks: [], facts: bridgeFacts(cluster, 'uplink') };
      entry.networks.push(intent);
      bridges.set(bridge, entry);
    }
    const node = cluster.inventory.nodes.find((n) => n.name === step.node);
    const gateway = node && gatewayBridgeIntent(cluster, node, discovery.get(step.node), networkIds, hostSubnets);
    if (gateway) bridges.set(gateway.bridge, gateway);
    if (bridges.size > 0) out.set(step.node, [...bridges.values()]);
  }
  return out;
}
