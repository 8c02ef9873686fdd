/**
 * Upstream's HashForOVN (ovn-kubernetes util): "a" + the decimal 64-bit FNV-1a of the UTF-8 bytes
 * of a text. Address-set names of connects and long UplinkState names both use it. Pure.
 */

const fnvOffset = 14695981039346656037n;
const fnvPrime = 1099511628211n;
const mask64 = (1n << 64n) - 1n;

/** 64-bit FNV-1a of the UTF-8 bytes of `text`, as an unsigned decimal string. */
export function fnv1a64(text: string): string {
  let hash = fnvOffset;
  for (const byte of Buffer.from(text, 'utf8')) hash = ((hash ^ BigInt(byte)) * fnvPrime) & mask64;
  return hash.toString(10);
}

/** "a" + fnv1a64(text): an OVN name may not start with a digit. */
export function hashForOvn(text: string): string {
  return `a${fnv1a64(text)}`;
}
