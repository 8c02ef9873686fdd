/**
 * Zones: the one definition of a cluster's layout and the zones it yields. A zone is one
 * Northbound and the nodes whose rows live in it. `per-node` is upstream's only layout (one zone
 * per node, named after it, that node local and the others remote stand-ins) and the default;
 * `central` is one zone named `central` whose Northbound binds every node. Pure.
 */

export type Layout = 'per-node' | 'central';
export const LAYOUTS: readonly Layout[] = ['per-node', 'central'];
/** Upstream runs only per-node zones, so an Inventory that names no layout gets that one. */
export const DEFAULT_LAYOUT: Layout = 'per-node';
export const CENTRAL_ZONE = 'central';

export interface Zone {
  name: string;
  layout: Layout;
  /** Nodes whose rows live in this zone's Northbound (per-node: exactly one). */
  localNodes: string[];
}

/** The zones of a cluster of `nodeNames` (in that order) in `layout`. */
export function zonesOf(layout: Layout, nodeNames: readonly string[]): Zone[] {
  if (layout === 'central') return [{ name: CENTRAL_ZONE, layout, localNodes: [...nodeNames] }];
  return nodeNames.map((name) => ({ name, layout, localNodes: [name] }));
}

/** The zones of an Inventory, in node order; their names are what `--zone` takes. */
export function inventoryZones(inventory: { zones: Layout; nodes: readonly { name: string }[] }): Zone[] {
  return zonesOf(
    inventory.zones,
    inventory.nodes.map((n) => n.name),
  );
}
