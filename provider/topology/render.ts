/**
 * The entry point: all NB rows of one network in one zone (secondary ones: secondary.ts), sorted by table and
 * identity so the output does not depend on input order. Rows rendered twice (the same route
 * reached from two nodes) must be identical; a conflict is a bug and throws.
 */
import { advertisedAddressSets } from './advertised';
import { resolve, type NetworkContext } from './context';
import { networkGroups, serviceBalancers } from './groups';
import { managementPort } from './names';
import { staticMacBindings } from './gateway';
import type { RenderInput } from './input';
import { renderLayer2 } from './layer2';
import { renderLayer3 } from './layer3';
import { renderPodPorts } from './pods';
import { renderSecondary } from './secondary';
import { identityOf, type DesiredRow } from './rows';
import type { BlockEntry, RemoteBlock } from './remoteRows';

/**
 * The rows once each, sorted by table then identity (rows.ts `sortRows` order), each keyed once.
 * A repeated identity is checked by its columns (rarely: a route reached from two nodes).
 */
function uniqueSorted(rows: DesiredRow[], blocks: readonly ZoneBlock[] = []): Keyed[] {
  const seen = new Map<string, DesiredRow>();
  for (const r of rows) add(seen, `${r.table}\u0000${identityOf(r)}`, r);
  let sorted = [...seen.keys()].sort().map((key) => ({ key, row: seen.get(key)! }));
  // The zone's share of the shared remote rows (remoteRows.ts) is sorted already: merge, not sort.
  for (const { block, local } of blocks) sorted = merged(sorted, block.sortedEntries(), local);
  return sorted;
}

function add(seen: Map<string, DesiredRow>, key: string, r: DesiredRow): void {
  const before = seen.get(key);
  if (before === undefined) seen.set(key, r);
  else same(before, r);
}

/** Rows rendered twice must be identical. */
function same(before: DesiredRow, r: DesiredRow): void {
  if (before !== r && JSON.stringify(before.columns) !== JSON.stringify(r.columns))
    throw new Error(`internal: two different ${r.table} rows named ${identityOf(r)}`);
}

/** A row and its sort key `<table>\0<identity>`. */
export type Keyed = { key: string; row: DesiredRow };

/**
 * The zone's rows sorted by key and a block's entries (sorted by key) merged into one list, without
 * the entries standing only for the zone's own nodes; a key in both once (the zone's row).
 */
function merged(a: readonly Keyed[], b: readonly BlockEntry[], local: ReadonlySet<string>): Keyed[] {
  const out: Keyed[] = [];
  let i = 0;
  for (const y of b) {
    if (!y.nodes.some((n) => !local.has(n))) continue;
    while (i < a.length && a[i]!.key < y.key) out.push(a[i++]!);
    if (i < a.length && a[i]!.key === y.key) same(a[i]!.row, y.row);
    else out.push(y);
  }
  while (i < a.length) out.push(a[i++]!);
  return out;
}

/**
 * Every NB row of `input.network` for `input.zone`, including the Static_MAC_Binding rows of the
 * local gateway routers (no external_ids: nb owns them through its ledger, by `<logical_port>/<ip>`).
 */
export function renderNetwork(input: RenderInput): DesiredRow[] {
  return renderNetworkKeyed(input).map((e) => e.row);
}

/** renderNetwork's rows with their sort keys (runtime/plan.ts looks rows up by key). */
export function renderNetworkKeyed(input: RenderInput): Keyed[] {
  const ctx = resolve(input);
  // Dynamic UDN: a zone whose nodes the network is not active on runs no controller for it
  if (ctx.local.length === 0) return [];
  const pods = renderPodPorts(ctx, input);
  if (ctx.role === 'secondary') return uniqueSorted(renderSecondary(ctx, pods), zoneBlocks(ctx));
  const rows = ctx.topology === 'layer3' ? renderLayer3(ctx, pods) : renderLayer2(ctx, [...pods.values()].flat());
  const groups = networkGroups(
    ctx,
    managementPorts(ctx),
    serviceBalancers(ctx, input.network.services ?? [], input.pods ?? []),
  );
  const sets = ctx.advertised ? advertisedAddressSets(ctx) : [];
  const own = [...rows, ...groups, ...sets, ...ctx.local.flatMap((node) => staticMacBindings(ctx, node))];
  return uniqueSorted(own, zoneBlocks(ctx));
}

type ZoneBlock = { block: RemoteBlock; local: ReadonlySet<string> };

function zoneBlocks(ctx: NetworkContext): ZoneBlock[] {
  const local = new Set(ctx.local.map((n) => n.name));
  return ctx.remoteBlocks.map((block) => ({ block, local }));
}

/** The zone's management ports: one per local node (Layer2: the one its layer2 switch holds). */
function managementPorts(ctx: NetworkContext): string[] {
  const owners = ctx.topology === 'layer3' ? ctx.local : ctx.local.slice(0, 1);
  return owners.map((n) => managementPort(ctx.p, n.name));
}

/**
 * Columns that differ between the central and the per-node layout for the same row (see the
 * header comments of layer2.ts and layer3.ts); besides these, only reference columns differ
 * (a zone holds other children) and the per-node layout's remote stand-ins for other nodes.
 */
export const PER_LAYOUT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  Logical_Router: ['options'],
  Logical_Switch: ['other_config'],
  Logical_Router_Port: ['gateway_chassis'],
  NAT: ['gateway_port'],
};
