/**
 * What the VRF plan needs to know about a node, parsed from `ip -j` output (pure): links with their
 * VRF master, table and alias; routes per family and table (numeric protocols, `ip -N`); and the
 * argv that re-adds a captured route into another table, as upstream's VRF manager moves routes
 * (keep everything but flags other than `onlink`; skip routing-daemon and kernel protocols).
 */

export interface LinkFact {
  name: string;
  index: number;
  kind?: string;
  master?: string;
  /** A VRF device's routing table. */
  table?: number;
  alias?: string;
}

export interface RouteFact {
  family: 4 | 6;
  /** 254 for main. */
  table: number;
  dst: string;
  gateway?: string;
  dev?: string;
  protocol: number;
  scope?: number;
  metric?: number;
  prefsrc?: string;
  onlink: boolean;
  nexthops?: { gateway?: string; dev: string; weight?: number; onlink: boolean }[];
}

export const MAIN_TABLE = 254;
/**
 * Protocols upstream never moves: OVN-K 85, RTPROT_OVN 84, kernel 2, zebra 11, BGP 186, OSPF 188,
 * ISIS 187, RIP 189, EIGRP 192, Babel 42.
 */
export const UNMOVED_PROTOCOLS = new Set([85, 84, 2, 11, 186, 188, 187, 189, 192, 42]);
/** Upstream's protocol number for routes ovnkube-node installs. */
export const OVNK_PROTOCOL = 85;

type Json = Record<string, unknown>;
const num = (value: unknown): number | undefined => (value === undefined ? undefined : Number(value));

export function parseLinks(json: string): LinkFact[] {
  return (JSON.parse(json || '[]') as Json[]).map((l) => {
    const info = (l.linkinfo ?? {}) as Json;
    const data = (info.info_data ?? {}) as Json;
    return {
      name: String(l.ifname),
      index: Number(l.ifindex),
      ...(info.info_kind ? { kind: String(info.info_kind) } : {}),
      ...(l.master ? { master: String(l.master) } : {}),
      ...(info.info_kind === 'vrf' && data.table !== undefined ? { table: Number(data.table) } : {}),
      ...(l.ifalias ? { alias: String(l.ifalias) } : {}),
    };
  });
}

/** Unicast routes of `ip -j -N -<family> route show table all` (typed routes: local, broadcast, ... are skipped). */
export function parseRoutes(json: string, family: 4 | 6): RouteFact[] {
  return (JSON.parse(json || '[]') as Json[])
    .filter((r) => r.type === undefined || r.type === '1' || r.type === 'unicast')
    .map((r) => ({
      family,
      table: r.table === undefined || r.table === 'main' ? MAIN_TABLE : Number(r.table),
      dst: String(r.dst),
      ...(r.gateway ? { gateway: String(r.gateway) } : {}),
      ...(r.dev ? { dev: String(r.dev) } : {}),
      // `ip` prints no protocol for boot (3)
      protocol: num(r.protocol) ?? 3,
      ...(r.scope !== undefined ? { scope: Number(r.scope) } : {}),
      ...(r.metric !== undefined ? { metric: Number(r.metric) } : {}),
      ...(r.prefsrc ? { prefsrc: String(r.prefsrc) } : {}),
      onlink: ((r.flags ?? []) as string[]).includes('onlink'),
      ...(Array.isArray(r.nexthops) ? { nexthops: (r.nexthops as Json[]).map(parseNexthop) } : {}),
    }));
}

function parseNexthop(n: Json): { gateway?: string; dev: string; weight?: number; onlink: boolean } {
  return {
    ...(n.gateway ? { gateway: String(n.gateway) } : {}),
    dev: String(n.dev),
    ...(n.weight !== undefined ? { weight: Number(n.weight) } : {}),
    onlink: ((n.flags ?? []) as string[]).includes('onlink'),
  };
}

/** Routes of `table` through `dev` (multipath routes with any hop through it included) that upstream moves. */
export function movableRoutes(routes: RouteFact[], table: number, dev: string): RouteFact[] {
  const through = (r: RouteFact) => r.dev === dev || (r.nexthops ?? []).some((h) => h.dev === dev);
  const moved = routes.filter((r) => r.table === table && through(r) && !UNMOVED_PROTOCOLS.has(r.protocol));
  // routes without a gateway first: a gateway route needs its on-link route in place
  return [...moved.filter((r) => !hasGateway(r)), ...moved.filter(hasGateway)];
}

const hasGateway = (r: RouteFact): boolean =>
  r.gateway !== undefined || (r.nexthops ?? []).some((h) => h.gateway !== undefined);

/** `ip route add` of a captured route into `table` (the caller tolerates "File exists", as upstream ignores EEXIST). */
export function routeAddArgv(route: RouteFact, table: number): string[] {
  const argv = ['ip', `-${route.family}`, 'route', 'add', route.dst];
  if (route.nexthops) {
    for (const hop of route.nexthops)
      argv.push(
        'nexthop',
        ...(hop.gateway ? ['via', hop.gateway] : []),
        'dev',
        hop.dev,
        ...(hop.weight ? ['weight', String(hop.weight)] : []),
        ...(hop.onlink ? ['onlink'] : []),
      );
  } else {
    if (route.gateway) argv.push('via', route.gateway);
    if (route.dev) argv.push('dev', route.dev);
    if (route.onlink) argv.push('onlink');
  }
  argv.push('proto', String(route.protocol));
  if (route.scope !== undefined) argv.push('scope', String(route.scope));
  if (route.metric !== undefined) argv.push('metric', String(route.metric));
  if (route.prefsrc) argv.push('src', route.prefsrc);
  argv.push('table', String(table));
  return argv;
}

/** `ip route del` of a route in its table (upstream's removal of managed default routes before enslaving). */
export function routeDelArgv(route: RouteFact): string[] {
  return [
    'ip',
    `-${route.family}`,
    'route',
    'del',
    route.dst,
    ...(route.gateway ? ['via', route.gateway] : []),
    ...(route.dev ? ['dev', route.dev] : []),
    'proto',
    String(route.protocol),
    'table',
    String(route.table),
  ];
}

/** The interface a `ip -j route get` answer leaves through. */
export function routeGetDev(json: string): string | undefined {
  const first = (JSON.parse(json || '[]') as Json[])[0];
  return first?.dev ? String(first.dev) : undefined;
}
