/**
 * The gateway router's external side of an Uplink-backed CUDN, from the node's UplinkState, as
 * ovnkube-controller builds it (go-controller/pkg/ovn/uplink_gateway.go, uplinkGatewayConfig and
 * resolvedUplinkL3GatewayConfig): bridge = `status.ovsBridge.name`, MAC = `status.macAddress`,
 * addresses = `status.ipAddresses`, next hops = `status.defaultGateways`, no VLAN (the in-memory
 * config leaves VLANID unset). A state that is missing, not an OVSBridge, not Resolved, or lacks a
 * bridge, a MAC or an address gives nothing: upstream's uplinkGatewayConfig fails ("waiting for
 * UplinkState ..."), so nodeGatewayConfig fails before SyncGateway and none of the node's gateway
 * is written until the state resolves (topology/nodeContext.ts gatewayWaits); `gatewayWait` says
 * why in upstream's words. The result has the topology's GatewayInput shape. Pure.
 */
import { compare } from '../model/cluster';
import { findCondition, type UplinkState } from './conditions';
import { uplinkStateName } from './names';

export interface RouterGateway {
  bridge: string;
  mac: string;
  ips: string[];
  nextHops: string[];
  vlan: 0;
}

/** Why a node has no gateway for an Uplink's CUDNs: the CUDN condition's reason, upstream's error text. */
export interface GatewayWait {
  reason: 'MissingUplinkState' | 'UplinkStateNotResolved';
  upstream: string;
}

const macPattern = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i;

/**
 * The error uplinkGatewayConfig returns for Uplink `uplink` on `node` given its state (in its
 * order: uplink_gateway.go, uplink/state.go ValidateOVSBridgeState, resolvedUplinkL3GatewayConfig),
 * or undefined when the state gives the gateway. Upstream's MAC error ends with Go's parse error,
 * left out here.
 */
export function gatewayWait(uplink: string, node: string, state: UplinkState | undefined): GatewayWait | undefined {
  const name = uplinkStateName(uplink, node);
  const on = `for uplink "${uplink}" on node "${node}"`;
  if (!state) return { reason: 'MissingUplinkState', upstream: `waiting for UplinkState ${name} ${on}` };
  const { status } = state;
  const notResolved = (upstream: string): GatewayWait => ({ reason: 'UplinkStateNotResolved', upstream });
  if (status.type !== 'OVSBridge') return notResolved(`uplink state ${name} has no OVSBridge uplink ${on}`);
  if (findCondition(status.conditions, 'Resolved')?.status !== 'True')
    return notResolved(`uplink state ${name} ${on} is not resolved`);
  if (!status.ovsBridge?.name)
    return notResolved(`uplink state ${name} has no resolved OVS bridge for uplink "${uplink}"`);
  if (!status.macAddress || !macPattern.test(status.macAddress))
    return notResolved(`failed to parse UplinkState MAC address "${status.macAddress ?? ''}"`);
  if ((status.ipAddresses ?? []).length === 0) return notResolved('UplinkState has no gateway IP addresses');
  return undefined;
}

/** The external side a resolved UplinkState gives its node's gateway routers, else undefined. */
export function routerGatewayOf(state: UplinkState): RouterGateway | undefined {
  if (gatewayWait(state.spec.uplinkName, state.spec.nodeName, state)) return undefined;
  const { status } = state;
  return {
    bridge: status.ovsBridge!.name,
    mac: status.macAddress!,
    ips: [...status.ipAddresses!],
    nextHops: [...(status.defaultGateways ?? [])],
    vlan: 0,
  };
}

/** Uplink name -> node -> the external side, for every resolved state (`states` in any order). */
export function routerGateways(states: readonly UplinkState[]): Map<string, Map<string, RouterGateway>> {
  const out = new Map<string, Map<string, RouterGateway>>();
  const sorted = [...states].sort((a, b) => compare(a.metadata.name, b.metadata.name));
  for (const state of sorted) {
    const gateway = routerGatewayOf(state);
    if (!gateway) continue;
    const { uplinkName, nodeName } = state.spec;
    if (!out.has(uplinkName)) out.set(uplinkName, new Map());
    out.get(uplinkName)!.set(nodeName, gateway);
  }
  return out;
}
