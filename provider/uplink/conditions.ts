/**
 * Conditions and the UplinkState object in upstream's shape (k8s.ovn.org/v1alpha1): condition
 * types, every reason string upstream writes (copied exactly), and our MTUInvalid. A plan is a
 * pure function of its inputs, so it leaves lastTransitionTime out; the runtime stamps it from what
 * the nodes keep (conditionTimes.ts). Pure.
 */

export type ConditionStatus = 'True' | 'False';

export interface Condition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  /** RFC 3339; required by upstream's CRDs, set by the runtime (conditionTimes.ts). */
  lastTransitionTime?: string;
}

/** Resolved reasons in the order upstream's discovery checks them (first failure wins). */
export const resolvedFailureOrder = [
  'NodeSelectorOverlap',
  'HostInterfaceNotFound',
  'InvalidHostInterface',
  'GatewayInfoUnavailable',
  'BridgeNotFound',
  'BridgeInvalid',
  'DefaultGatewayBridgeUnsupported',
  'BridgeUplinkNotFound',
  /** Ours, as OKEP-6019 asks: the bridge path MTU is below the network's. */
  'MTUInvalid',
] as const;
export type ResolvedFailure = (typeof resolvedFailureOrder)[number];

export interface UplinkStateStatus {
  type?: 'OVSBridge';
  hostInterfaceName?: string;
  ovsBridge?: { name: string };
  macAddress?: string;
  ipAddresses?: string[];
  defaultGateways?: string[];
  /** Our documented extension: the OVS VLAN tag of the host interface's port. */
  vlanTag?: number;
  /** Our extension: the smallest MTU on the host interface and the bridge's physical uplink. */
  pathMtu?: number;
  conditions: Condition[];
}

export interface UplinkState {
  apiVersion: 'k8s.ovn.org/v1alpha1';
  kind: 'UplinkState';
  metadata: { name: string };
  spec: { uplinkName: string; nodeName: string };
  status: UplinkStateStatus;
}

export function condition(type: string, status: ConditionStatus, reason: string, message: string): Condition {
  return { type, status, reason, message: message.slice(0, 32768) };
}

export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}
