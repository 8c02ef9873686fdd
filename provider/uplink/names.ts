/**
 * Upstream's names of the Uplink feature: the UplinkState of (uplink, node), the bridge-mapping
 * physical network of a CUDN, and the FNV-1a-64 hash upstream's HashForOVN uses. Pure.
 */

/** Kubernetes' DNS-1123 subdomain limit: a longer state name is hashed. */
export const maxObjectNameLength = 253;

const fnvOffset = 14695981039346656037n;
const fnvPrime = 1099511628211n;
const mask64 = (1n << 64n) - 1n;

/** 64-bit FNV-1a of the UTF-8 bytes of `text`, as an unsigned decimal string. */
export function fnv1a64(text: string): string {
  let hash = fnvOffset;
  for (const byte of Buffer.from(text, 'utf8')) hash = ((hash ^ BigInt(byte)) * fnvPrime) & mask64;
  return hash.toString(10);
}

/** Upstream's HashForOVN: "a" + the decimal FNV-1a-64 (a name must not start with a digit). */
export function hashForOvn(text: string): string {
  return `a${fnv1a64(text)}`;
}

/** `<uplink>.<node>`, or `uplinkstate-a<FNV-1a-64>` of that when it is longer than 253 characters. */
export function uplinkStateName(uplink: string, node: string): string {
  const name = `${uplink}.${node}`;
  return name.length <= maxObjectNameLength ? name : `uplinkstate-${hashForOvn(name)}`;
}

/** The OVN network name of CUDN `cudn`, also the physical network of its bridge mapping. */
export function physicalNetworkOf(cudn: string): string {
  return `cluster_udn_${cudn}`;
}
