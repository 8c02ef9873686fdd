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
  for (const e of entries) if (e.column === column && e.nodes.some((n) => !local.has(n))) ids.push(e.id);
  return ids;
}

const byKey = (a: BlockEntry, b: BlockEntry): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

const shared = new WeakSet<DesiredRow>();

/** A row of a SharedRows: its parent's reference column takes it from zoneIds, not from the rows built. */
export const isShared = (row: DesiredRow): boolean => shared.has(row);

/**
 * Remote rows shared by every zone that a renderer places among its own rows in its own order
 * (connect/render.ts): kept per group and node; the parent's reference columns come sorted from zoneIds.
 */
export class SharedRows {
  private readonly byNode = new Map<string, RemoteRow[]>();
  private readonly entries: BlockEntry[] = [];
  private sorted = true;

  add(group: string, node: string, rows: RemoteRow[]): void {
    this.byNode.set(`${group}\u0000${node}`, rows);
    for (const { column, row } of rows) {
      shared.add(row);
      const id = identityOf(row);
      this.entries.push({ key: `${row.table}\u0000${id}`, id, column, row, nodes: [node] });
      this.sorted = false;
    }
  }

  rowsOf(group: string, node: string): RemoteRow[] | undefined {
    return this.byNode.get(`${group}\u0000${node}`);
  }

  /** As RemoteBlock's; an identity two rows share (none are expected) once. */
  zoneIds(column: string, local: ReadonlySet<string>): string[] {
    if (!this.sorted) this.entries.sort(byKey);
    this.sorted = true;
    const ids = zoneIds(this.entries, column, local);
    return ids.filter((id, i) => i === 0 || id !== ids[i - 1]);
  }
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
