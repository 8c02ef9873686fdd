/**
 * Upstream's names of the Uplink feature: the UplinkState of (uplink, node), the bridge-mapping
 * physical network of a CUDN (upstream's HashForOVN lives in provider/model/hash.ts). Pure.
 */

import { hashForOvn } from '../model/hash';

export { fnv1a64, hashForOvn } from '../model/hash';

/** Kubernetes' DNS-1123 subdomain limit: a longer state name is hashed. */
export const maxObjectNameLength = 253;

/** `<uplink>.<node>`, or `uplinkstate-a<FNV-1a-64>` of that when it is longer than 253 characters. */
export function uplinkStateName(uplink: string, node: string): string {
  const name = `${uplink}.${node}`;
  return name.length <= maxObjectNameLength ? name : `uplinkstate-${hashForOvn(name)}`;
}

/** The OVN network name of CUDN `cudn`, also the physical network of its bridge mapping. */
export function physicalNetworkOf(cudn: string): string {
  return `cluster_udn_${cudn}`;
}
