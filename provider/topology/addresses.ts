/**
 * The addresses upstream derives from subnets and ids: gateway (.1) and management (.2)
 * addresses, join IPs (cluster router first address, gateway router base + node id), the
 * Layer3 transit-switch IP (base + node id), the Layer2 transit pair (base + 2 x node id, /31 or
 * /127) and the per-network masquerade IPs. Pure arithmetic over model/cidr.
 */
import { addressBits, formatAddress, parseAddress, parseCidr, type Cidr, type Family } from '../model/cidr';
import { failure } from '../model/outcome';
import { TopologyInputError } from './errors';

/** An address with the prefix length of the network it lives in. */
export interface Addr {
  family: Family;
  ip: string;
  prefix: number;
}

export function cidrText(addr: Addr): string {
  return `${addr.ip}/${addr.prefix}`;
}

/** `ip/32` or `ip/128`: a host route's prefix. */
export function hostCidr(addr: Addr): string {
  return `${addr.ip}/${addressBits(addr.family)}`;
}

/** Parse a network CIDR from input; the error names the field. */
export function parseNetwork(text: string, field: string): Cidr {
  const parsed = typeof text === 'string' ? parseCidr(text) : failure('is not a string');
  if (!parsed.ok) throw new TopologyInputError(field, text, parsed.why);
  return parsed.value;
}

/** Parse `ip/len` where ip is a host address of the network (a node IP, for one). */
export function parseInterface(text: string, field: string): Addr {
  const [ipText, lengthText, extra] = typeof text === 'string' ? text.split('/') : [];
  const parsed = ipText === undefined ? undefined : parseAddress(ipText);
  const prefix = Number(lengthText);
  if (!parsed || extra !== undefined || !/^\d{1,3}$/.test(lengthText ?? '') || prefix > addressBits(parsed.family)) {
    throw new TopologyInputError(field, text, 'is not an address with a prefix length (e.g. 172.18.0.2/16)');
  }
  return { family: parsed.family, ip: formatAddress(parsed.family, parsed.value), prefix };
}

/** Parse a bare address; the error names the field. */
export function parseIP(text: string, field: string): { family: Family; ip: string } {
  const parsed = typeof text === 'string' ? parseAddress(text) : undefined;
  if (!parsed) throw new TopologyInputError(field, text, 'is not an IP address');
  return { family: parsed.family, ip: formatAddress(parsed.family, parsed.value) };
}

export function familyOf(text: string): Family {
  return text.includes(':') ? 6 : 4;
}

/** The address `n` after the network address, with the network's prefix. */
export function nth(cidr: Cidr, n: number | bigint): Addr {
  return { family: cidr.family, ip: formatAddress(cidr.family, cidr.base + BigInt(n)), prefix: cidr.prefix };
}

/** The default gateway of a subnet: its first address. */
export function gatewayIP(subnet: Cidr): Addr {
  return nth(subnet, 1);
}

/** The management-port address of a subnet: its second address. */
export function managementIP(subnet: Cidr): Addr {
  return nth(subnet, 2);
}

/** The cluster router's join address (Layer3): the first address of the join subnet. */
export function clusterRouterJoinIP(join: Cidr): Addr {
  return nth(join, 1);
}

/** A gateway router's join address: join subnet base + node id (`GetGWRouterIPs`). */
export function gatewayRouterJoinIP(join: Cidr, nodeId: number): Addr {
  return nth(join, nodeId);
}

/** A node's Layer3 transit-switch port address: transit subnet base + node id. */
export function transitSwitchIP(transit: Cidr, nodeId: number): Addr {
  return nth(transit, nodeId);
}

/** The Layer2 transit pair of a node: router side base + 2 x id, gateway side + 1, /31 or /127. */
export function transitPair(transit: Cidr, nodeId: number): { router: Addr; gateway: Addr } {
  const prefix = addressBits(transit.family) - 1;
  const router = nth(transit, 2 * nodeId);
  const gateway = nth(transit, 2 * nodeId + 1);
  return { router: { ...router, prefix }, gateway: { ...gateway, prefix } };
}

/** Masquerade addresses of a network (`generator/udn/masquerade_ips.go`) and the global ones. */
export interface MasqueradeIPs {
  gatewayRouter: Addr;
  management: Addr;
  dummyNextHop: Addr;
  host: Addr;
}

export function masqueradeIPs(masquerade: Cidr, networkId: number): MasqueradeIPs {
  return {
    gatewayRouter: nth(masquerade, 10 + 2 * networkId - 1),
    management: nth(masquerade, 10 + 2 * networkId),
    dummyNextHop: nth(masquerade, 4),
    host: nth(masquerade, 2),
  };
}

/** Sorts addresses and CIDRs IPv4 first, as every list of the render is. */
export const byFamily = (a: { family: Family }, b: { family: Family }): number => a.family - b.family;

/** A list of CIDRs at `field`, sorted by family; each bad one is an error naming its index. */
export function parseCidrList(texts: unknown, field: string): Cidr[] {
  if (!Array.isArray(texts)) throw new TopologyInputError(field, texts, 'is not a list of CIDRs');
  return texts.map((t, i) => parseNetwork(t as string, `${field}[${i}]`)).sort(byFamily);
}
