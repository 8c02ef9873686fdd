/**
 * Bridge-sharing conflicts of OKEP-6019: on one node, active CUDNs whose uplinks resolve to the
 * same OVS bridge while needing distinct VRFs (per-CUDN VRF-Lite isolation cannot share a bridge)
 * are all in conflict, symmetrically, as the OKEP asks (upstream lets the first enslaver win; we do
 * not). Several CUDNs that all use the default VRF may share a bridge. Pure.
 */
import { domainVrf, type RoutingDomain } from './vrfDomain';

export interface BridgeUse {
  cudn: string;
  bridge: string;
  domain: RoutingDomain;
}

export interface VrfConflict {
  cudn: string;
  reason: 'UplinkConfigurationConflict';
  message: string;
}

/** Every CUDN in a conflicting set, with one message naming the bridge, the node and every member's VRF. */
export function bridgeConflicts(node: string, uses: BridgeUse[]): VrfConflict[] {
  const byBridge = new Map<string, BridgeUse[]>();
  for (const use of uses) byBridge.set(use.bridge, [...(byBridge.get(use.bridge) ?? []), use]);
  return [...byBridge.entries()].flatMap(([bridge, members]) => conflictsOnBridge(node, bridge, members));
}

function conflictsOnBridge(node: string, bridge: string, members: BridgeUse[]): VrfConflict[] {
  const vrfs = new Set(members.map((m) => domainVrf(m.domain)));
  if (members.length < 2 || vrfs.size < 2) return [];
  const sorted = [...members].sort((a, b) => (a.cudn < b.cudn ? -1 : 1));
  const who = sorted.map((m) => `${m.cudn} (VRF ${domainVrf(m.domain)})`).join(', ');
  const message = `bridge ${bridge} on node ${node} is used by CUDNs needing distinct VRFs: ${who}; per-CUDN VRF-Lite isolation cannot share a bridge, so nothing new is programmed for any of them until one moves`;
  return sorted.map((m) => ({ cudn: m.cudn, reason: 'UplinkConfigurationConflict' as const, message }));
}
