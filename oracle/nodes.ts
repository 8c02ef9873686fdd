/**
 * Nodes for topology files that leave them to the lab (`--lab`): the names their pods use (else
 * the lab's three workers), each with the gateway details a lab node has (bridge breth0, an
 * address on 172.18.0.0/16 and fc00:f853:ccd:e793::/64, a MAC derived from it, next hop .1), so
 * upstream's gateway routers get their external side as ours do. A file's own node fields win.
 */
import type { LoadedDocument } from '../provider/model/load';
import { fillInventory } from '../provider/runtime/cli';

const LAB_WORKERS = ['ovn-worker', 'ovn-worker2', 'ovn-worker3'];

type Spec = Record<string, unknown>;

function namesOf(spec: Spec): string[] {
  const listed = Array.isArray(spec.nodes) ? (spec.nodes as { name?: unknown }[]).map((n) => String(n.name)) : [];
  if (listed.length > 0) return listed;
  const used = Array.isArray(spec.pods) ? (spec.pods as { node?: unknown }[]).map((p) => String(p.node)) : [];
  return [...new Set([...LAB_WORKERS, ...used])].sort();
}

/** A lab-like node: the i-th (from 0) gets id i+2 and address .(i+2). */
export function labLikeNode(name: string, i: number, families: number[]): Spec {
  const host = i + 2;
  const hex = host.toString(16).padStart(2, '0');
  const nodeIPs = [
    ...(families.includes(4) ? [`172.18.0.${host}/16`] : []),
    ...(families.includes(6) ? [`fc00:f853:ccd:e793::${host.toString(16)}/64`] : []),
  ];
  const gatewayNextHops = [
    ...(families.includes(4) ? ['172.18.0.1'] : []),
    ...(families.includes(6) ? ['fc00:f853:ccd:e793::1'] : []),
  ];
  return {
    name,
    chassisId: `00000000-0000-4000-8000-0000000000${hex}`,
    gatewayBridge: 'breth0',
    nodeIPs,
    gatewayMac: `0a:58:ac:12:00:${hex}`,
    gatewayNextHops,
  };
}

function familiesOf(spec: Spec): number[] {
  const named = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as string[]) : [];
  if (named.length > 0) return named.map((f) => (f === 'IPv6' ? 6 : 4));
  const subnets = Array.isArray(spec.clusterSubnets) ? (spec.clusterSubnets as string[]) : [];
  const found = [...new Set(subnets.map((s) => (s.includes(':') ? 6 : 4)))];
  return found.length > 0 ? found : [4];
}

/** The documents with every Inventory node given lab-like gateway details it lacks. */
export function withLabLikeNodes<D extends LoadedDocument>(documents: D[]): D[] {
  const inventory = documents.find((d) => d.kind === 'Inventory');
  if (!inventory) return documents;
  const spec = (inventory.body.spec ?? {}) as Spec;
  const families = familiesOf(spec);
  const nodes = namesOf(spec).map((name, i) => labLikeNode(name, i, families));
  return fillInventory(documents, { spec: { nodes } });
}
