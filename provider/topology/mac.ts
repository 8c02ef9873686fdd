/**
 * MAC derivation as upstream's `IPAddrToHWAddr`: IPv4 a.b.c.d -> 0a:58:aa:bb:cc:dd; IPv6 -> 0a:58
 * followed by the first four bytes of the SHA-256 of the address's canonical text form.
 * A port's MAC comes from its IPv4 address when it has one, else from its IPv6 address.
 */
import { createHash } from 'node:crypto';
import { parseIP } from './addresses';

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}

/** The MAC upstream derives from one IP address (bare, no prefix). */
export function macFromIP(ip: string): string {
  const parsed = parseIP(ip, 'ip');
  const bytes =
    parsed.family === 4
      ? parsed.ip.split('.').map(Number)
      : [...createHash('sha256').update(parsed.ip).digest().subarray(0, 4)];
  return ['0a', '58', ...bytes.map(hex)].join(':');
}

/** The MAC of a port holding these addresses (bare or with prefix): from the IPv4 one if any. */
export function macFromIPs(ips: readonly string[]): string {
  const bare = ips.map((ip) => ip.split('/')[0] as string);
  const chosen = bare.find((ip) => !ip.includes(':')) ?? bare[0];
  if (chosen === undefined) throw new Error('internal: a MAC needs at least one address');
  return macFromIP(chosen);
}
