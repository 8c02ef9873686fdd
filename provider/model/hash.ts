/**
 * Upstream's HashForOVN (ovn-kubernetes util): "a" + the decimal 64-bit FNV-1a of the UTF-8 bytes
 * of a text. Address-set names of connects and long UplinkState names both use it. Pure.
 */

/**
 * 64-bit FNV-1a of the UTF-8 bytes of `text`, as an unsigned decimal string. The hash is kept in
 * four 16-bit limbs (no BigInt per byte: a per-node plan hashes names in every zone); the prime
 * 2^40 + 0x1b3 multiplies as `h * 0x1b3 + (h << 40)` modulo 2^64.
 */
export function fnv1a64(text: string): string {
  // offset basis 0xcbf29ce484222325, low limb first
  let [a, b, c, d] = [0x2325, 0x8422, 0x9ce4, 0xcbf2];
  for (const byte of Buffer.from(text, 'utf8')) {
    a ^= byte;
    const ta = a * 0x1b3;
    const tb = b * 0x1b3 + (ta >>> 16);
    const tc = c * 0x1b3 + (tb >>> 16) + (a << 8);
    const td = d * 0x1b3 + (tc >>> 16) + (b << 8);
    [a, b, c, d] = [ta & 0xffff, tb & 0xffff, tc & 0xffff, td & 0xffff];
  }
  return ((BigInt(d) << 48n) | (BigInt(c) << 32n) | (BigInt(b) << 16n) | BigInt(a)).toString(10);
}

/** "a" + fnv1a64(text): an OVN name may not start with a digit. */
export function hashForOvn(text: string): string {
  return `a${fnv1a64(text)}`;
}
