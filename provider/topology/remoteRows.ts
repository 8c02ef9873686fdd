/**
 * The per-node layout's remote rows, built once per network and shared by every zone (issue 25.4).
 * Each zone of an N-node cluster holds the other N-1 nodes' remote ports and routes, the same rows
 * in every zone (upstream's per-node Northbounds each hold them); built per zone, keyed, sorted and
 * checked per zone, they made a plan grow with N² rows of work. Here every node's remote rows are
 * built once, keyed and sorted once (a block); a zone takes the block minus its own nodes' rows by
 * a linear merge (render.ts) and its parents' reference columns the same way (parts.ts). The rows
 * and their order are exactly what rendering them per zone gives.
 */
import { identityOf, type DesiredRow } from './rows';

/** A remote row, the parent column it goes into (`ports`, `routes`) and the nodes it stands for. */
export interface RemoteRow {
  column: string;
  row: DesiredRow;
}

export interface BlockEntry {
  /** `<table>\0<identity>`: render.ts's sort key. */
  key: string;
  id: string;
  column: string;
  row: DesiredRow;
  nodes: string[];
}

/** A node as the blocks need it (context.ts NodeContext). */
interface Node {
  name: string;
}

/** The part of a zone's network context (context.ts) the blocks use. */
interface BlockContext<N extends Node> {
  all: readonly N[];
  local: readonly N[];
  memo: Map<string, unknown>;
  remoteBlocks: RemoteBlock[];
}

export class RemoteBlock {
  /** Sorted by key, each identity once. */
  private readonly entries: BlockEntry[];
  private readonly keyed: ReadonlyMap<string, BlockEntry>;
  /** Entries per table, and per node the entries standing for it: a zone's share counted without listing it. */
  private readonly tables = new Map<string, number>();
  private readonly ofNode = new Map<string, BlockEntry[]>();

  constructor(nodes: readonly Node[], rowsOf: (node: Node) => RemoteRow[]) {
    const keyed = new Map<string, BlockEntry>();
    for (const node of nodes) {
      for (const { column, row } of rowsOf(node)) {
        const id = identityOf(row);
        const key = `${row.table}\u0000${id}`;
        const before = keyed.get(key);
        if (before === undefined) keyed.set(key, { key, id, column, row, nodes: [node.name] });
        else if (JSON.stringify(before.row.columns) !== JSON.stringify(row.columns))
          throw new Error(`internal: two different ${row.table} rows named ${id}`);
        else before.nodes.push(node.name);
      }
    }
    this.entries = [...keyed.values()].sort(byKey);
    this.keyed = keyed;
    for (const e of this.entries) {
      this.tables.set(e.row.table, (this.tables.get(e.row.table) ?? 0) + 1);
      for (const n of e.nodes) {
        const list = this.ofNode.get(n);
        if (list === undefined) this.ofNode.set(n, [e]);
        else list.push(e);
      }
    }
  }

  /** The entry of `key` when the zone of `local` holds it. */
  find(key: string, local: ReadonlySet<string>): BlockEntry | undefined {
    if (!this.tables.has(key.slice(0, key.indexOf('\u0000')))) return undefined;
    const e = this.keyed.get(key);
    return e !== undefined && inZone(e, local) ? e : undefined;
  }

  /** Adds the zone's rows per table to `counts`: every entry but those standing only for `local` nodes. */
  countInto(counts: Map<string, number>, local: ReadonlySet<string>): void {
    for (const [table, n] of this.tables) counts.set(table, (counts.get(table) ?? 0) + n);
    const left = new Set<BlockEntry>();
    for (const node of local) for (const e of this.ofNode.get(node) ?? []) if (!inZone(e, local)) left.add(e);
    for (const e of left) counts.set(e.row.table, counts.get(e.row.table)! - 1);
  }

  /** Every entry, sorted by key; a zone holds those standing for a node not local to it. */
  sortedEntries(): readonly BlockEntry[] {
    return this.entries;
  }

  private readonly columns = new Map<string, BlockEntry[]>();

  /** The identities of the zone's rows of `column`, sorted (a parent's reference column). */
  zoneIds(column: string, local: ReadonlySet<string>): string[] {
    let entries = this.columns.get(column);
    if (entries === undefined) {
      entries = this.entries.filter((e) => e.column === column);
      this.columns.set(column, entries);
    }
    return zoneIds(entries, column, local);
  }
}

/**
 * The identities of `entries`' rows of `column` that stand for a node not in `local`, in entry
 * order: sorted, since a column's rows are of one table and entries are sorted by table and identity.
 */
function zoneIds(entries: readonly BlockEntry[], column: string, local: ReadonlySet<string>): string[] {
  const ids: string[] = [];
  for (const e of entries) if (e.column === column && inZone(e, local)) ids.push(e.id);
  return ids;
}

/** A zone holds an entry standing for a node not local to it. */
export const inZone = (e: BlockEntry, local: ReadonlySet<string>): boolean => e.nodes.some((n) => !local.has(n));

const byKey = (a: BlockEntry, b: BlockEntry): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

const shared = new WeakSet<DesiredRow>();

/** A row of a SharedRows: its parent's reference column takes it from zoneIds, not from the rows built. */
export const isShared = (row: DesiredRow): boolean => shared.has(row);

/**
 * Remote rows shared by every zone that a renderer places among its own rows in its own order
 * (connect/render.ts): kept per group and node; the parent's reference columns come sorted from zoneIds.
 */
export class SharedRows {
  private readonly byGroup = new Map<string, Map<string, RemoteRow[]>>();
  /** Per group the rows per table: a zone's share counted without listing it (countInto). */
  private readonly tables = new Map<string, Map<string, number>>();
  private readonly entries: BlockEntry[] = [];
  private sorted = true;

  add(group: string, node: string, rows: RemoteRow[]): void {
    if (!this.byGroup.has(group)) this.byGroup.set(group, new Map());
    this.byGroup.get(group)!.set(node, rows);
    if (!this.tables.has(group)) this.tables.set(group, new Map());
    addCounts(this.tables.get(group)!, rows, 1);
    for (const { column, row } of rows) {
      shared.add(row);
      const id = identityOf(row);
      this.entries.push({ key: `${row.table}\u0000${id}`, id, column, row, nodes: [node] });
      this.sorted = false;
    }
  }

  rowsOf(group: string, node: string): RemoteRow[] | undefined {
    return this.byGroup.get(group)?.get(node);
  }

  /** Adds the group's rows per table to `counts`, but those of `local` nodes. */
  countInto(group: string, local: ReadonlySet<string>, counts: Map<string, number>): void {
    for (const [table, n] of this.tables.get(group) ?? []) counts.set(table, (counts.get(table) ?? 0) + n);
    for (const node of local) addCounts(counts, this.rowsOf(group, node) ?? [], -1);
  }

  /** As RemoteBlock's; an identity two rows share (none are expected) once. */
  zoneIds(column: string, local: ReadonlySet<string>): string[] {
    if (!this.sorted) this.entries.sort(byKey);
    this.sorted = true;
    const ids = zoneIds(this.entries, column, local);
    return ids.filter((id, i) => i === 0 || id !== ids[i - 1]);
  }
}

function addCounts(counts: Map<string, number>, rows: readonly RemoteRow[], sign: 1 | -1): void {
  for (const { row } of rows) counts.set(row.table, (counts.get(row.table) ?? 0) + sign);
}

/**
 * The block of `kind` for ctx's network (built on first use from every node, then shared by every
 * zone), noted in ctx as one the zone's rows merge in.
 */
export function remoteBlock<N extends Node>(
  ctx: BlockContext<N>,
  kind: string,
  rowsOf: (node: N) => RemoteRow[],
): { block: RemoteBlock; local: ReadonlySet<string> } {
  let block = ctx.memo.get(kind) as RemoteBlock | undefined;
  if (block === undefined) {
    block = new RemoteBlock(ctx.all, (node) => rowsOf(node as N));
    ctx.memo.set(kind, block);
  }
  ctx.remoteBlocks.push(block);
  return { block, local: new Set(ctx.local.map((n) => n.name)) };
}
