/**
 * The accepted differences between upstream's dumps and our plans (test/oracle/accepted.yaml):
 * each names a table and a key pattern (regular expressions over the table name and the natural
 * key), optionally the kind and column and the sources it applies to, with its reason and the
 * upstream code path.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describeDifference, type OracleDifference } from './compare';

export const ACCEPTED = 'test/oracle/accepted.yaml';

export interface Accepted {
  table: string;
  key: string;
  kind?: OracleDifference['kind'];
  column?: string;
  sources?: string[];
  reason: string;
  upstream: string;
}

export function readAccepted(file = ACCEPTED): Accepted[] {
  const list = parse(readFileSync(file, 'utf8')) as Accepted[] | null;
  for (const [i, a] of (list ?? []).entries())
    for (const field of ['table', 'key', 'reason', 'upstream'] as const)
      if (typeof a[field] !== 'string' || a[field] === '')
        throw new Error(`${file}: entry ${i}: ${field} is required (a non-empty string)`);
  return list ?? [];
}

/** The accepted entry that explains `d` in `source`, if any. */
export function explains(list: Accepted[], d: OracleDifference, source: string): Accepted | undefined {
  return list.find(
    (a) =>
      new RegExp(`^(?:${a.table})$`).test(d.table) &&
      new RegExp(`^(?:${a.key})$`).test(d.key) &&
      (a.kind === undefined || a.kind === d.kind) &&
      (a.column === undefined || a.column === d.column) &&
      (a.sources === undefined || a.sources.includes(source)),
  );
}

/**
 * An accepted list as a CI test walks it: the differences no entry explains, and at the end the
 * entries that explained none (stale reasons are failures too).
 */
export class AcceptedDifferences {
  private readonly used = new Set<Accepted>();
  constructor(private readonly list: Accepted[]) {}

  /** The descriptions of the differences of `source` no entry explains; the others' entries count as used. */
  unexplained(differences: OracleDifference[], source: string): string[] {
    return differences.flatMap((d) => {
      const entry = explains(this.list, d, source);
      if (!entry) return [describeDifference(d)];
      this.used.add(entry);
      return [];
    });
  }

  /** The entries that explained no difference. */
  idle(): string[] {
    return this.list.filter((a) => !this.used.has(a)).map((a) => `${a.table} ${a.key}: ${a.reason}`);
  }
}
