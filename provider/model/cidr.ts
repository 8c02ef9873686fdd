/**
 * CIDR helpers over ipaddr.js: strict parsing (a CIDR must be its own network address, as the
 * CRDs' `cidr == cidr.masked()` rule says), families, containment, overlap, nth address and
 * text forms. Addresses are bigints so IPv4 and IPv6 share one arithmetic.
 */
import ipaddr from 'ipaddr.js';
import { failure, type Outcome, success } from './outcome';

export type Family = 4 | 6;

export interface Cidr {
  family: Family;
  /** The network address as an unsigned integer. */
  base: bigint;
  prefix: number;
}

export function addressBits(family: Family): 32 | 128 {
  return family === 4 ? 32 : 128;
}

export function familyName(family: Family): 'ipv4' | 'ipv6' {
  return family === 4 ? 'ipv4' : 'ipv6';
}

/** Parse an address; undefined when it is not a plain dotted-quad IPv4 or an IPv6 address. */
export function parseAddress(text: string): { family: Family; value: bigint } | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) {
    return { family: 4, value: bytesToBigint(ipaddr.IPv4.parse(text).toByteArray()) };
  }
  if (!text.includes(':') || !ipaddr.IPv6.isValid(text)) return undefined;
  return { family: 6, value: bytesToBigint(ipaddr.IPv6.parse(text).toByteArray()) };
}

/**
 * Parse `addr/len`: the masked CIDR and whether the text was already the network address, or
 * why the text is not a CIDR at all.
 */
export function parseCidrLoose(text: string): Outcome<{ cidr: Cidr; isNetwork: boolean }> {
  const slash = text.indexOf('/');
  if (slash < 0) return failure('is not in CIDR notation (address/prefix)');
  const address = parseAddress(text.slice(0, slash));
  if (!address) return failure('does not start with a valid IP address');
  const lengthText = text.slice(slash + 1);
  const prefix = Number(lengthText);
  if (!/^\d{1,3}$/.test(lengthText) || prefix > addressBits(address.family)) {
    return failure(`has an invalid prefix length "${lengthText}"`);
  }
  const base = mask(address.value, address.family, prefix);
  return success({ cidr: { family: address.family, base, prefix }, isNetwork: base === address.value });
}

/** Parse a CIDR that must be a network address, or say why it is not. */
export function parseCidr(text: string): Outcome<Cidr> {
  const parsed = parseCidrLoose(text);
  if (!parsed.ok) return parsed;
  const { cidr, isNetwork } = parsed.value;
  return isNetwork ? success(cidr) : failure(`is not a network address (the network address is ${formatCidr(cidr)})`);
}

/**
 * CIDRs parsed before, frozen (shared by every caller): a plan checks every pair of a connect's
 * networks and reads every state subnet, and one parse costs microseconds. Bounded: cleared when full.
 */
const parsedCidrs = new Map<string, Cidr>();
const PARSED_CIDRS = 1 << 16;

/** Parse a CIDR known to be valid (from our own state or output); throws otherwise. */
export function mustParseCidr(text: string): Cidr {
  const known = parsedCidrs.get(text);
  if (known !== undefined) return known;
  const parsed = parseCidr(text);
  if (!parsed.ok) throw new Error(`internal: "${text}" ${parsed.why}`);
  if (parsedCidrs.size >= PARSED_CIDRS) parsedCidrs.clear();
  parsedCidrs.set(text, Object.freeze(parsed.value));
  return parsed.value;
}

export function mask(value: bigint, family: Family, prefix: number): bigint {
  const hostBits = BigInt(addressBits(family) - prefix);
  return (value >> hostBits) << hostBits;
}

export function cidrSize(cidr: Cidr): bigint {
  return 1n << BigInt(addressBits(cidr.family) - cidr.prefix);
}

export function lastAddress(cidr: Cidr): bigint {
  return cidr.base + cidrSize(cidr) - 1n;
}

/** Whether `outer` contains every address of `inner`. */
export function contains(outer: Cidr, inner: Cidr): boolean {
  return (
    outer.family === inner.family &&
    outer.prefix <= inner.prefix &&
    mask(inner.base, outer.family, outer.prefix) === outer.base
  );
}

export function containsAddress(cidr: Cidr, family: Family, value: bigint): boolean {
  return cidr.family === family && mask(value, family, cidr.prefix) === cidr.base;
}

export function overlaps(a: Cidr, b: Cidr): boolean {
  return contains(a, b) || contains(b, a);
}

/** The address `n` places after the network address (may lie outside the CIDR). */
export function nthAddress(cidr: Cidr, n: bigint): bigint {
  return cidr.base + n;
}

export function formatAddress(family: Family, value: bigint): string {
  if (family === 4) {
    const v = Number(value);
    return `${(v >>> 24) & 255}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
  }
  const bytes: number[] = [];
  for (let shift = 120n; shift >= 0n; shift -= 8n) bytes.push(Number((value >> shift) & 255n));
  return ipaddr.fromByteArray(bytes).toString();
}

export function formatCidr(cidr: Cidr): string {
  return `${formatAddress(cidr.family, cidr.base)}/${cidr.prefix}`;
}

/**
 * The first block of `start`'s size, at `start` or after it, that overlaps none of `avoid`;
 * undefined when the address space ends first. Upstream steps one block at a time (2^54 steps
 * for a /64 inside fd80::/10); each step here jumps past every CIDR the candidate overlaps, so
 * no CIDR is passed twice and there are at most `avoid.length + 1` steps, whatever the sizes.
 */
export function firstClearBlock(start: Cidr, avoid: readonly Cidr[]): Cidr | undefined {
  const size = cidrSize(start);
  const end = 1n << BigInt(addressBits(start.family));
  let candidate = start;
  for (;;) {
    const hit = avoid.filter((a) => overlaps(a, candidate));
    if (hit.length === 0) return candidate;
    const past = hit.reduce((high, a) => (lastAddress(a) + 1n > high ? lastAddress(a) + 1n : high), 0n);
    const base = ((past + size - 1n) / size) * size;
    if (base >= end) return undefined;
    candidate = { ...candidate, base };
  }
}

function bytesToBigint(bytes: number[]): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}
