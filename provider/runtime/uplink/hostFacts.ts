/**
 * Parsing what discovery reads on a node: `ip -j addr show` (links with MAC, MTU, addresses) and
 * `ip -j -4|-6 route show table main` into the plain facts of provider/uplink, and the one
 * fixed command line that reads all three in a single SSH round trip. Pure.
 */
import type { HostLink, HostRoute, LinkAddress } from '../../uplink/facts';

/** A constant script (no input in it): three JSON documents, one a line. */
export const hostFactsArgv = [
  'sh',
  '-c',
  'ip -j addr show && ip -j -4 route show table main && ip -j -6 route show table main',
];

export class HostFactsError extends Error {
  override name = 'HostFactsError';
}

interface IpAddr {
  ifname?: string;
  address?: string;
  mtu?: number;
  addr_info?: {
    family?: string;
    local?: string;
    prefixlen?: number;
    scope?: string;
    secondary?: boolean;
    deprecated?: boolean;
  }[];
}

interface IpRoute {
  dst?: string;
  gateway?: string;
  dev?: string;
  nexthops?: unknown[];
}

function parseJson<T>(line: string | undefined, what: string): T[] {
  try {
    const value = JSON.parse(line ?? '') as unknown;
    if (Array.isArray(value)) return value as T[];
  } catch {
    // reported below
  }
  throw new HostFactsError(
    `the node's ${what} output is not a JSON list: ${JSON.stringify((line ?? '').slice(0, 80))}`,
  );
}

function address(info: NonNullable<IpAddr['addr_info']>[number]): LinkAddress[] {
  if (info.local === undefined || info.prefixlen === undefined || (info.family !== 'inet' && info.family !== 'inet6'))
    return [];
  return [
    {
      family: info.family === 'inet' ? 4 : 6,
      address: info.local,
      prefix: info.prefixlen,
      scope: info.scope ?? 'global',
      secondary: info.secondary === true,
      deprecated: info.deprecated === true,
    },
  ];
}

export function parseLinks(line: string | undefined): HostLink[] {
  return parseJson<IpAddr>(line, 'ip -j addr show').flatMap((l) =>
    l.ifname === undefined
      ? []
      : [
          {
            name: l.ifname,
            ...(l.address !== undefined ? { mac: l.address } : {}),
            mtu: l.mtu ?? 0,
            addresses: (l.addr_info ?? []).flatMap(address),
          },
        ],
  );
}

export function parseRoutes(line: string | undefined, family: 4 | 6): HostRoute[] {
  return parseJson<IpRoute>(line, `ip -j -${family} route show`).map((r) => ({
    family,
    dst: r.dst ?? 'default',
    ...(r.gateway !== undefined ? { gateway: r.gateway } : {}),
    ...(r.dev !== undefined ? { dev: r.dev } : {}),
    multipath: Array.isArray(r.nexthops) && r.nexthops.length > 1,
  }));
}

/** The three lines of hostFactsArgv's output. */
export function parseHostFacts(stdout: string): { links: HostLink[]; routes: HostRoute[] } {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  return { links: parseLinks(lines[0]), routes: [...parseRoutes(lines[1], 4), ...parseRoutes(lines[2], 6)] };
}
