/**
 * Collecting a router's or switch's children while rendering, then writing the parent row with
 * its reference columns. Renderer files add children per node; the parent is built once.
 */
import { isShared, type RemoteRow } from './remoteRows';
import { refs, row, type Columns, type DesiredRow } from './rows';

/** The identities of the children the renderer built itself (shared ones come from `remote`). */
const own = (rows: readonly DesiredRow[]): string[] => refs(rows.filter((r) => !isShared(r)));

export class RouterParts {
  readonly ports: DesiredRow[] = [];
  readonly routes: DesiredRow[] = [];
  readonly policies: DesiredRow[] = [];
  readonly nats: DesiredRow[] = [];
  /**
   * Identities of children the zone takes from a shared block (remoteRows.ts), sorted; not among
   * the rows built. Given as functions: the column holding them is made when first read (lazyRefs).
   */
  readonly remote: { ports?: RemoteIds; routes?: RemoteIds } = {};

  /** Shared remote rows (remoteRows.ts SharedRows) placed among the children; their ids are in `remote`. */
  addShared(rows: readonly RemoteRow[]): void {
    for (const { column, row } of rows) (column === 'ports' ? this.ports : this.routes).push(row);
  }

  /** The router row plus every child, children deduplicated by identity. */
  build(columns: Columns): DesiredRow[] {
    const router = row('Logical_Router', {
      ...columns,
      ports: lazyRefs(own(this.ports), this.remote.ports),
      static_routes: lazyRefs(own(this.routes), this.remote.routes),
      policies: unique(refs(this.policies)),
      nat: unique(refs(this.nats)),
    });
    settle(router.columns);
    return [router, ...this.ports, ...this.routes, ...this.policies, ...this.nats];
  }
}

export class SwitchParts {
  readonly ports: DesiredRow[] = [];
  readonly acls: DesiredRow[] = [];
  /** As RouterParts' `remote`. */
  readonly remote: { ports?: RemoteIds } = {};

  build(columns: Columns): DesiredRow[] {
    const ports = lazyRefs(own(this.ports), this.remote.ports);
    const sw = row('Logical_Switch', { ...columns, ports, acls: unique(refs(this.acls)) });
    settle(sw.columns);
    return [sw, ...this.ports, ...this.acls];
  }
}

/** A zone's remote children's identities, sorted (remoteRows.ts zoneIds). */
export type RemoteIds = () => readonly string[];

/** A reference column whose remote part is listed when first read (settle). */
class LazyRefs {
  constructor(
    readonly ids: string[],
    readonly remote: RemoteIds,
  ) {}
}

/**
 * The column of `ids`, or with remote ids a placeholder settle() turns into a getter: a per-node
 * zone's parents reference every other node's rows (N ids per zone, N² in a plan, issue 25.4), and
 * a plan that only counts a zone's rows never reads them.
 */
function lazyRefs(ids: string[], remote: RemoteIds | undefined): string[] | LazyRefs {
  return remote === undefined ? unique(ids) : new LazyRefs(ids, remote);
}

/** Each LazyRefs column of `columns` made a getter listing it when first read, in its place among the columns. */
function settle(columns: Columns): void {
  for (const [name, value] of Object.entries(columns)) {
    if (!(value instanceof LazyRefs)) continue;
    Object.defineProperty(columns, name, {
      enumerable: true,
      configurable: true,
      get() {
        const listed = unique(value.ids, value.remote());
        Object.defineProperty(columns, name, { value: listed, enumerable: true, configurable: true, writable: true });
        return listed;
      },
    });
  }
}

/** `ids` once each, sorted, merged with `sorted` (already sorted and unique). */
function unique(ids: string[], sorted: readonly string[] = []): string[] {
  const mine = [...new Set(ids)].sort();
  if (sorted.length === 0) return mine;
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < mine.length || j < sorted.length) {
    const a = mine[i];
    const b = sorted[j];
    if (b === undefined || (a !== undefined && a < b)) out.push(mine[i++]!);
    else if (a === undefined || b < a) out.push(sorted[j++]!);
    else {
      out.push(mine[i++]!);
      j++;
    }
  }
  return out;
}
