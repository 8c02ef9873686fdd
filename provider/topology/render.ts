/**
 * The entry point: all NB rows of one network in one zone (secondary ones: secondary.ts), sorted by table and
 * identity so the output does not depend on input order. Rows rendered twice (the same route
 * reached from two nodes) must be identical; a conflict is a bug and throws.
 */
import { advertisedAddressSets } from './advertised';
import { resolve, type NetworkContext } from './context';
import { gatewaySynced, staticMacBindings } from './gateway';
import { networkGroups, serviceBalancers } from './groups';
import type { RenderInput } from './input';
import { renderLayer2 } from './layer2';
import { renderLayer3 } from './layer3';
import { managementPort } from './names';
import { renderPodPorts } from './pods';
import { type BlockEntry, inZone, type RemoteBlock } from './remoteRows';
import { identityOf, type DesiredRow } from './rows';
import { renderSecondary } from './secondary';

/**
 * The rows once each, sorted by table then identity (rows.ts `sortRows` order), each keyed once.
 * A repeated identity is checked by its columns (rarely: a route reached from two nodes).
 */
function uniqueSorted(rows: DesiredRow[]): Keyed[] {
  const seen = new Map<string, DesiredRow>();
  for (const r of rows) add(seen, `${r.table}\u0000${identityOf(r)}`, r);
  return [...seen.keys()].sort().map((key) => ({ key, row: seen.get(key)! }));
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
    if (!inZone(y, local)) continue;
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
  return keyedRows(renderNetworkParts(input));
}

/**
 * A network's rows in a zone as rendered: the zone's own rows, and the shared blocks of remote rows
 * (remoteRows.ts) it holds, not yet merged in (a per-node plan counts them per zone: countRows).
 */
export interface NetworkRows {
  /** Sorted by key, each identity once. */
  own: Keyed[];
  blocks: ZoneBlock[];
}

/** Every row of the network in the zone: the blocks' entries merged into the own rows by key. */
export function keyedRows({ own, blocks }: NetworkRows): Keyed[] {
  // The zone's share of the shared remote rows (remoteRows.ts) is sorted already: merge, not sort.
  let sorted = own;
  for (const { block, local } of blocks) sorted = merged(sorted, block.sortedEntries(), local);
  return sorted;
}

/**
 * Adds the network's rows in the zone per table to `counts` without listing the blocks' entries:
 * what counting keyedRows gives, in the time of the zone's own rows (a key in both is one row,
 * checked as the merge checks it).
 */
export function countRows(parts: NetworkRows, counts: Map<string, number>): void {
  const count = (table: string, n: number) => counts.set(table, (counts.get(table) ?? 0) + n);
  // two blocks may repeat each other's keys: listed and counted (no renderer makes two today)
  if (parts.blocks.length > 1) return keyedRows(parts).forEach((e) => count(e.row.table, 1));
  for (const e of parts.own) count(e.row.table, 1);
  for (const { block, local } of parts.blocks) {
    block.countInto(counts, local);
    for (const e of parts.own) {
      const y = block.find(e.key, local);
      if (y === undefined) continue;
      same(e.row, y.row);
      count(e.row.table, -1);
    }
  }
}

/** The network's row of `key` in the zone (keyedRows'), looked up without listing the blocks. */
export function findRow({ own, blocks }: NetworkRows, key: string): DesiredRow | undefined {
  const mine = findKeyed(own, key);
  if (mine !== undefined) return mine;
  for (const { block, local } of blocks) {
    const y = block.find(key, local);
    if (y !== undefined) return y.row;
  }
  return undefined;
}

/** The row of `key` among rows sorted by key (binary search). */
export function findKeyed(sorted: readonly Keyed[], key: string): DesiredRow | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo]?.key === key ? sorted[lo]!.row : undefined;
}

export function renderNetworkParts(input: RenderInput): NetworkRows {
  const ctx = resolve(input);
  // Dynamic UDN: a zone whose nodes the network is not active on runs no controller for it
  if (ctx.local.length === 0) return { own: [], blocks: [] };
  const pods = renderPodPorts(ctx, input);
  if (ctx.role === 'secondary') return { own: uniqueSorted(renderSecondary(ctx, pods)), blocks: zoneBlocks(ctx) };
  const rows = ctx.topology === 'layer3' ? renderLayer3(ctx, pods) : renderLayer2(ctx, [...pods.values()].flat());
  const groups = networkGroups(
    ctx,
    managementPorts(ctx),
    serviceBalancers(ctx, input.network.services ?? [], input.pods ?? []),
  );
  const sets = ctx.advertised && namesAdvertisedSets(ctx) ? advertisedAddressSets(ctx) : [];
  const own = [...rows, ...groups, ...sets, ...ctx.local.flatMap((node) => staticMacBindings(ctx, node))];
  return { own: uniqueSorted(own), blocks: zoneBlocks(ctx) };
}

/**
 * Whether the zone writes a SNAT naming the advertised address sets, which upstream creates as it
 * builds them (buildUDNEgressSNAT): Layer3 in addNode, Layer2 only after SyncGateway, so not
 * while every local node waits for its UplinkState.
 */
const namesAdvertisedSets = (ctx: NetworkContext): boolean => ctx.topology === 'layer3' || gatewaySynced(ctx);

/** A shared block of remote rows and the zone's local nodes (those of its entries the zone leaves out). */
export type ZoneBlock = { block: RemoteBlock; local: ReadonlySet<string> };

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
