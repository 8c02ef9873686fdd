/**
 * The gateway router's external side of an Uplink-backed CUDN, from the node's UplinkState, as
 * ovnkube-controller builds it (go-controller/pkg/ovn/uplink_gateway.go, uplinkGatewayConfig and
 * resolvedUplinkL3GatewayConfig): bridge = `status.ovsBridge.name`, MAC = `status.macAddress`,
 * addresses = `status.ipAddresses`, next hops = `status.defaultGateways`, no VLAN (the in-memory
 * config leaves VLANID unset). A state that is not an OVSBridge, not Resolved, or lacks a bridge,
 * a MAC or an address gives nothing: upstream waits ("waiting for UplinkState ...") and writes none
 * of the node's gateway until it resolves (topology/nodeContext.ts gatewayWaits). The result has
 * the topology's GatewayInput shape. Pure.
 */
import { compare } from '../model/cluster';
import { findCondition, type UplinkState } from './conditions';

export interface RouterGateway {
  bridge: string;
  mac: string;
  ips: string[];
  nextHops: string[];
  vlan: 0;
}

const macPattern = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i;

/** The external side a resolved UplinkState gives its node's gateway routers, else undefined. */
export function routerGatewayOf(state: UplinkState): RouterGateway | undefined {
  const { status } = state;
  if (status.type !== 'OVSBridge' || findCondition(status.conditions, 'Resolved')?.status !== 'True') return undefined;
  const bridge = status.ovsBridge?.name;
  const mac = status.macAddress;
  const ips = status.ipAddresses ?? [];
  if (!bridge || !mac || !macPattern.test(mac) || ips.length === 0) return undefined;
  return { bridge, mac, ips: [...ips], nextHops: [...(status.defaultGateways ?? [])], vlan: 0 };
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
