/**
 * Inventory `spec.targets`: where each zone's Northbound is and how to reach each node over SSH.
 * Endpoints use OVSDB syntax (`unix:`, `tcp:`, `ssl:`, several remotes comma-separated). Only
 * references to credentials appear here (a key path, a host-key pin), never key material.
 */
import { dict } from './dict';
import type { FieldReader, Json } from './fields';

export interface NodeTarget {
  host: string;
  port: number;
  user: string;
  /** The host key pin: an OpenSSH `SHA256:...` fingerprint or a known_hosts line. */
  hostKey?: string;
  /** Path of the client private key (its content never appears in a file or state). */
  keyPath?: string;
  /** The node's Open_vSwitch database as seen on the node. */
  ovsDb?: string;
}

export interface Targets {
  /** Zone name -> Northbound endpoint. */
  zones: Record<string, { nb: string }>;
  nodes: Record<string, NodeTarget>;
}

export function parseTargets(r: FieldReader, value: Json): Targets | undefined {
  const map = r.record(value, 'spec.targets');
  if (!map) return undefined;
  const zones: Targets['zones'] = dict();
  for (const [zone, item] of Object.entries(r.record(map.zones, 'spec.targets.zones') ?? {})) {
    const at = `spec.targets.zones.${zone}`;
    const nb = r.string(r.record(item, at)?.nb, `${at}.nb`) ?? r.missing(`${at}.nb`);
    if (nb !== undefined) zones[zone] = { nb };
  }
  const nodes: Targets['nodes'] = dict();
  for (const [node, item] of Object.entries(r.record(map.nodes, 'spec.targets.nodes') ?? {})) {
    const target = parseNodeTarget(r, item, `spec.targets.nodes.${node}`);
    if (target) nodes[node] = target;
  }
  return { zones, nodes };
}

function parseNodeTarget(r: FieldReader, value: Json, at: string): NodeTarget | undefined {
  const map = r.record(value, at);
  const host = map && (r.string(map.host, `${at}.host`) ?? r.missing(`${at}.host`));
  if (!map || host === undefined) return undefined;
  return {
    host,
    port: r.integer(map.port, `${at}.port`) ?? 22,
    user: r.string(map.user, `${at}.user`) ?? 'root',
    hostKey: r.string(map.hostKey, `${at}.hostKey`),
    keyPath: r.string(map.keyPath, `${at}.keyPath`),
    ovsDb: r.string(map.ovsDb, `${at}.ovsDb`),
  };
}
