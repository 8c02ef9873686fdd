/**
 * The Kubernetes CEL library functions the CRDs' rules use, on the project's CIDR helpers
 * (ipaddr.js underneath): IP addresses (`isIP`, `ip()`, `family()`, ...), CIDRs (`isCIDR`,
 * `cidr()`, `containsIP`, `containsCIDR`, `masked`, `prefixLength`, ...) with the API server's
 * parsing rules (no zones, no IPv4-mapped IPv6, no leading zeros). The strings extension the API
 * server also includes (`split`, `join`, `lowerAscii`, ...) is built into cel-js.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { type Family, addressBits, containsAddress, contains, formatAddress, mask, parseAddress } from '../cidr';
import { failure, type Outcome, success } from '../outcome';

/** A CEL `net.IP`. */
export class CelIP {
  constructor(
    readonly family: Family,
    readonly value: bigint,
  ) {}
  toString(): string {
    return formatAddress(this.family, this.value);
  }
}

/** A CEL `net.CIDR`: the address as written (host bits kept) and the prefix length. */
export class CelCIDR {
  constructor(
    readonly ip: CelIP,
    readonly prefix: number,
  ) {}
  toString(): string {
    return `${this.ip}/${this.prefix}`;
  }
}

/** The API server's IP parsing: the reason (its words) when `text` is refused. */
export function parseIP(text: string): Outcome<CelIP> {
  if (text.includes('%')) return failure('IP Address with zone value is not allowed');
  const address = parseAddress(text);
  if (!address) return failure(`IP Address '${text}' parse error during conversion from string`);
  if (address.family === 6 && address.value >> 32n === 0xffffn)
    return failure('IPv4-mapped IPv6 address is not allowed');
  return success(new CelIP(address.family, address.value));
}

export function parseCIDR(text: string): Outcome<CelCIDR> {
  if (text.includes('%')) return failure('CIDR with zone value is not allowed');
  const slash = text.indexOf('/');
  const ip = slash < 0 ? undefined : parseIP(text.slice(0, slash));
  const length = text.slice(slash + 1);
  const parseError = failure('network address parse error during conversion from string');
  if (ip === undefined || !ip.ok || !/^(0|[1-9]\d{0,2})$/.test(length))
    return ip !== undefined && !ip.ok && ip.why.startsWith('IPv4-mapped') ? ip : parseError;
  const prefix = Number(length);
  if (prefix > addressBits(ip.value.family)) return parseError;
  return success(new CelCIDR(ip.value, prefix));
}

function must<T>(parsed: Outcome<T>): T {
  if (!parsed.ok) throw new Error(parsed.why);
  return parsed.value;
}

const network = (c: CelCIDR) => ({
  family: c.ip.family,
  base: mask(c.ip.value, c.ip.family, c.prefix),
  prefix: c.prefix,
});
const asIP = (v: CelIP | string) => (typeof v === 'string' ? must(parseIP(v)) : v);
const asCIDR = (v: CelCIDR | string) => (typeof v === 'string' ? must(parseCIDR(v)) : v);
// 169.254/16, fe80::/10
const isLinkLocalUnicast = (ip: CelIP) => (ip.family === 4 ? ip.value >> 16n === 0xa9fen : ip.value >> 118n === 0x3fan);
const isMulticast = (ip: CelIP) => (ip.family === 4 ? ip.value >> 28n === 0xen : ip.value >> 120n === 0xffn);

function registerIP(env: Environment): void {
  env
    .registerType('net.IP', CelIP)
    .registerFunction('isIP(string): bool', (s: string) => parseIP(s).ok)
    .registerFunction('ip(string): net.IP', (s: string) => must(parseIP(s)))
    .registerFunction('string(net.IP): string', (ip: CelIP) => ip.toString())
    .registerFunction('net.IP.family(): int', (ip: CelIP) => BigInt(ip.family))
    .registerFunction('net.IP.isUnspecified(): bool', (ip: CelIP) => ip.value === 0n)
    .registerFunction('net.IP.isLoopback(): bool', (ip: CelIP) =>
      ip.family === 4 ? ip.value >> 24n === 127n : ip.value === 1n,
    )
    .registerFunction('net.IP.isLinkLocalUnicast(): bool', isLinkLocalUnicast)
    .registerFunction('net.IP.isLinkLocalMulticast(): bool', (ip: CelIP) =>
      ip.family === 4 ? ip.value >> 8n === 0xe00000n : ip.value >> 112n === 0xff02n,
    )
    .registerFunction(
      'net.IP.isGlobalUnicast(): bool',
      (ip: CelIP) =>
        ip.value !== 0n && !isMulticast(ip) && !isLinkLocalUnicast(ip) && (ip.family === 6 || ip.value >> 24n !== 127n),
    )
    .registerOperator('net.IP == net.IP', (a: CelIP, b: CelIP) => a.family === b.family && a.value === b.value);
}

function registerCIDR(env: Environment): void {
  env
    .registerType('net.CIDR', CelCIDR)
    .registerFunction('isCIDR(string): bool', (s: string) => parseCIDR(s).ok)
    .registerFunction('cidr(string): net.CIDR', (s: string) => must(parseCIDR(s)))
    .registerFunction('string(net.CIDR): string', (c: CelCIDR) => c.toString())
    .registerFunction('net.CIDR.ip(): net.IP', (c: CelCIDR) => c.ip)
    .registerFunction('net.CIDR.prefixLength(): int', (c: CelCIDR) => BigInt(c.prefix))
    .registerFunction('net.CIDR.masked(): net.CIDR', (c: CelCIDR) => {
      const n = network(c);
      return new CelCIDR(new CelIP(n.family, n.base), c.prefix);
    })
    .registerFunction('net.CIDR.containsIP(string): bool', (c: CelCIDR, s: string) => containsIP(c, asIP(s)))
    .registerFunction('net.CIDR.containsIP(net.IP): bool', containsIP)
    .registerFunction('net.CIDR.containsCIDR(string): bool', (c: CelCIDR, s: string) => containsCIDR(c, asCIDR(s)))
    .registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', containsCIDR)
    .registerOperator(
      'net.CIDR == net.CIDR',
      (a: CelCIDR, b: CelCIDR) => a.prefix === b.prefix && a.ip.family === b.ip.family && a.ip.value === b.ip.value,
    );
}

function containsIP(c: CelCIDR, ip: CelIP): boolean {
  return containsAddress(network(c), ip.family, ip.value);
}

function containsCIDR(c: CelCIDR, other: CelCIDR): boolean {
  return contains(network(c), network(other));
}

/** Add the Kubernetes library to a CEL environment. */
export function registerKubernetesLibrary(env: Environment): Environment {
  registerIP(env);
  registerCIDR(env);
  return env;
}
