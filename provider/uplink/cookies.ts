/**
 * The cookies of our gateway bridge flows (issue 25): every one starts with 0xa11 in its top 12
 * bits (upstream's is 0xdeff105); a network's flows carry its owner's cookie, the flows every
 * network of the bridge needs the shared one. Pure.
 */
import { fnv1a64 } from '../model/hash';

/** The top 12 bits of every cookie of ours (upstream's `DefaultOpenFlowCookie` is 0xdeff105). */
const cookieTag = 0xa11n << 52n;
const tagMask = 0xfffn << 52n;
const ownerBits = (1n << 52n) - 1n;
const hex = (n: bigint) => `0x${n.toString(16)}`;

/** `nodetypes.DefaultOpenFlowCookie`: ovnkube-node's flows, as ovs-ofctl prints the cookie. */
export const upstreamCookie = '0xdeff105';

/** The cookie of the flows every network of a bridge needs, whoever owns it. */
export const sharedCookie = hex(cookieTag);

/** The cookie of `owner`'s flows: the tag, and 52 bits of the FNV-1a of its name (never 0, the shared one's). */
export function ownerCookie(owner: string): string {
  const bits = BigInt(fnv1a64(owner)) & ownerBits;
  return hex(cookieTag | (bits === 0n ? 1n : bits));
}

/** `ovs-ofctl`'s match of every flow of ours, whoever's. */
export const anyOfOursMatch = `cookie=${hex(cookieTag)}/${hex(tagMask)}`;

/** Whether a flow's cookie (as ovs-ofctl prints it) is one of ours. */
export const isOurCookie = (cookie: string): boolean => (BigInt(cookie) & tagMask) === cookieTag;
