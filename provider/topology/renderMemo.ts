/**
 * A bounded memo of a pure rendering function (issue 30.2): results kept by a fingerprint of
 * everything the function reads, so a zone rendered again after a one-network change renders
 * only what that change reaches. Nothing here does I/O; the memo holds at most `budget` rows
 * (the least recently used results go first), so a per-node plan of many zones holds a few
 * zones' rows, never all of them (issue 25.4).
 *
 * Results are shared between callers: nothing may change a row or a list the memo returned (the
 * renderers' rows are never changed after rendering; zones already share their remote rows).
 */
import { createHash } from 'node:crypto';

/** A digest of values as JSON (bigints as decimal strings): equal digests, equal values. */
export function fingerprint(...values: unknown[]): string {
  const hash = createHash('sha256');
  for (const value of values) hash.update(JSON.stringify(value, bigints) ?? 'undefined').update('\u0000');
  return hash.digest('base64');
}

function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}

/** How often a memo answered from what it held, and how often it rendered. */
export interface MemoStats {
  hits: number;
  misses: number;
  /** Rows held now. */
  rows: number;
}

export class RenderMemo<V> {
  private readonly entries = new Map<string, { value: V; rows: number }>();
  private readonly counted: MemoStats = { hits: 0, misses: 0, rows: 0 };

  constructor(
    private readonly budget: number,
    private readonly rowsOf: (value: V) => number,
  ) {}

  /** The value kept for `key`, or `render()`'s (kept when it fits the budget; a throw keeps nothing). */
  get(key: string, render: () => V): V {
    const known = this.entries.get(key);
    if (known !== undefined) {
      this.counted.hits++;
      // most recently used last: eviction takes the map's first entries
      this.entries.delete(key);
      this.entries.set(key, known);
      return known.value;
    }
    this.counted.misses++;
    const value = render();
    const rows = this.rowsOf(value);
    if (rows > this.budget) return value;
    this.entries.set(key, { value, rows });
    this.counted.rows += rows;
    for (const [oldest, entry] of this.entries) {
      if (this.counted.rows <= this.budget) break;
      this.entries.delete(oldest);
      this.counted.rows -= entry.rows;
    }
    return value;
  }

  stats(): MemoStats {
    return { ...this.counted };
  }

  /** Forget every result and reset the counts. */
  clear(): void {
    this.entries.clear();
    Object.assign(this.counted, { hits: 0, misses: 0, rows: 0 });
  }
}

/**
 * Rows each render memo holds (the networks' and the connects'): one zone of the 16 connects x 30
 * networks x 500 nodes plan has about 0.73 million network rows and 0.49 million connect rows, so
 * two such zones. Most are references to remote rows every zone shares (remoteRows.ts), not rows
 * of their own.
 */
export const MEMO_ROWS = 1_500_000;
