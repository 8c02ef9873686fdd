/**
 * The `Resolved` decision of one UplinkState from a node's discovered facts, in upstream's order
 * (uplink-upstream.md section 3.4): selection, host interface, MAC, addresses, default gateways,
 * default gateway bridge, bridge, br-int, the default bridge, physical uplink, uplink == host
 * interface; then ours: MTUInvalid. Status fields follow upstream: host data cleared when
 * discovery failed before it, the bridge kept once resolved. Pure.
 */
import type { Family } from '../model/cidr';
import { bridgeOf, physicalUplinkOf, vlanTagOf } from './bridge';
import { condition, type ResolvedFailure, type UplinkState, type UplinkStateStatus } from './conditions';
import type { HostLink, HostRoute, NodeFacts } from './facts';
import { uplinkStateName } from './names';
import type { NodeSelection } from './select';

export interface ResolveInput {
  uplink: string;
  node: string;
  selection: NodeSelection;
  facts: NodeFacts;
  /** The cluster's families: each needs an address on the host interface. */
  families: readonly Family[];
  /** The node's default shared gateway bridge (Inventory `gatewayBridge`). */
  gatewayBridge?: string;
  /** The largest MTU of the networks using this Uplink, and which network asks for it. */
  requiredMtu: { mtu: number; network: string };
}

class Failure {
  constructor(
    readonly reason: ResolvedFailure,
    readonly message: string,
  ) {}
}

export function stateObject(uplink: string, node: string, status: UplinkStateStatus): UplinkState {
  return {
    apiVersion: 'k8s.ovn.org/v1alpha1',
    kind: 'UplinkState',
    metadata: { name: uplinkStateName(uplink, node) },
    spec: { uplinkName: uplink, nodeName: node },
    status,
  };
}

export function resolveUplinkState(input: ResolveInput): UplinkState {
  const status: UplinkStateStatus = { type: 'OVSBridge', conditions: [] };
  try {
    discover(input, status);
    status.conditions.push(condition('Resolved', 'True', 'Resolved', 'Uplink discovery succeeded'));
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    status.conditions.push(condition('Resolved', 'False', error.reason, error.message));
  }
  return stateObject(input.uplink, input.node, status);
}

/**
 * A node two nodeConfigs select: upstream's node controller refuses it before any discovery
 * (pkg/node/uplink/controller.go selectedNodeConfigForNode), so it needs no facts.
 */
export function overlapFailure(uplink: string, node: string): Failure {
  return new Failure('NodeSelectorOverlap', `multiple Uplink "${uplink}" nodeConfigs select node "${node}"`);
}

/** The state of a node two nodeConfigs select, as upstream creates it (initial Resolved=False). */
export function overlappingState(uplink: string, node: string): UplinkState {
  const { reason, message } = overlapFailure(uplink, node);
  return stateObject(uplink, node, {
    type: 'OVSBridge',
    conditions: [condition('Resolved', 'False', reason, message)],
  });
}

function discover(input: ResolveInput, status: UplinkStateStatus): void {
  const { selection, uplink, node, facts } = input;
  if (selection.overlapping || !selection.config) throw overlapFailure(uplink, node);
  const name = selection.config.hostInterfaceName;
  status.hostInterfaceName = name;
  const link = facts.links.find((l) => l.name === name);
  if (!link) throw new Failure('HostInterfaceNotFound', `host interface ${name} was not found: Link not found`);
  if (!usableMac(link.mac))
    throw new Failure('InvalidHostInterface', `host interface ${name} has no usable MAC address`);
  status.macAddress = link.mac;
  status.ipAddresses = hostAddresses(link, input.families);
  status.defaultGateways = defaultGateways(facts.routes, name);
  if (!input.gatewayBridge)
    throw new Failure('GatewayInfoUnavailable', `default shared gateway bridge is not available for node "${node}"`);
  resolveBridge(input, name, link, status);
}

function resolveBridge(input: ResolveInput, name: string, link: HostLink, status: UplinkStateStatus): void {
  const { ovs } = input.facts;
  const bridge = bridgeOf(ovs, name);
  if (!bridge.ok) throw new Failure('BridgeNotFound', bridge.why);
  status.ovsBridge = { name: bridge.value };
  const tag = vlanTagOf(ovs, name);
  if (tag !== undefined) status.vlanTag = tag;
  if (bridge.value === 'br-int')
    throw new Failure('BridgeInvalid', 'OVN integration bridge br-int cannot be used as an Uplink bridge');
  if (bridge.value === input.gatewayBridge)
    throw new Failure(
      'DefaultGatewayBridgeUnsupported',
      `default shared gateway bridge ${bridge.value} cannot be used as an Uplink bridge`,
    );
  const uplinkPort = physicalUplinkOf(ovs, bridge.value);
  if (!uplinkPort.ok) throw new Failure('BridgeUplinkNotFound', uplinkPort.why);
  if (uplinkPort.value === name)
    throw new Failure(
      'InvalidHostInterface',
      `host interface ${name} is the physical uplink port for OVS bridge ${bridge.value}`,
    );
  const physical =
    input.facts.links.find((l) => l.name === uplinkPort.value)?.mtu ??
    ovs.interfaces.find((i) => i.name === uplinkPort.value)?.mtu;
  status.pathMtu = Math.min(link.mtu, physical ?? link.mtu);
  const { mtu, network } = input.requiredMtu;
  if (status.pathMtu < mtu) {
    throw new Failure(
      'MTUInvalid',
      `the path MTU ${status.pathMtu} through host interface ${name} (MTU ${link.mtu}) and physical uplink ${uplinkPort.value} (MTU ${physical ?? 'unknown'}) of OVS bridge ${bridge.value} is below the MTU ${mtu} of network ${network}`,
    );
  }
}

/** Exactly six octets, not multicast, not all zero. */
export function usableMac(mac: string | undefined): boolean {
  if (mac === undefined || !/^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}$/.test(mac)) return false;
  const first = parseInt(mac.slice(0, 2), 16);
  return (first & 1) === 0 && !/^(00:){5}00$/.test(mac);
}

const reservedPrefixes = ['169.254.', 'fe80:', 'fd69::'];

/** Per family the first global, primary, non-deprecated address; a missing family fails. */
export function hostAddresses(link: HostLink, families: readonly Family[]): string[] {
  const out: string[] = [];
  for (const family of families) {
    const found = link.addresses.find(
      (a) =>
        a.family === family &&
        a.scope !== 'link' &&
        a.scope !== 'host' &&
        !a.secondary &&
        !a.deprecated &&
        !reservedPrefixes.some((p) => a.address.toLowerCase().startsWith(p)),
    );
    if (!found)
      throw new Failure(
        'GatewayInfoUnavailable',
        `failed to read IP addresses from ${link.name}: failed to find IPv${family} address on interface ${link.name}`,
      );
    out.push(`${found.address}/${found.prefix}`);
  }
  return out.sort();
}

/** Next hops of the link's single-gateway default routes, sorted. */
export function defaultGateways(routes: readonly HostRoute[], dev: string): string[] {
  const isDefault = (dst: string) => dst === 'default' || dst.endsWith('/0');
  return [
    ...new Set(
      routes
        .filter((r) => r.dev === dev && isDefault(r.dst) && r.gateway !== undefined && !r.multipath)
        .map((r) => r.gateway!),
    ),
  ].sort();
}
