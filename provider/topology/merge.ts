/**
 * Shared rows several networks add to (advertised.ts: the advertised-subnets address sets and the
 * drop port group): within one owner's zone each network renders the row with its own part, and
 * the zone's row holds every part, as upstream's networks each add theirs to the one row.
 * Any other column of such rows, and every column of other shared rows (the drop ACL) rendered by
 * several networks, must agree; a disagreement is a bug and throws.
 */
import { identityOf, type DesiredRow } from './rows';

/** The set column each network adds its part to. */
const PART_COLUMNS: Readonly<Record<string, string>> = { Address_Set: 'addresses', Port_Group: 'ports' };

const without = (columns: Record<string, unknown>, column: string): string =>
  JSON.stringify({ ...columns, [column]: undefined });

function merged(first: DesiredRow, next: DesiredRow, column: string | undefined): DesiredRow {
  if (without(first.columns, column ?? '') !== without(next.columns, column ?? ''))
    throw new Error(`internal: two different shared ${first.table} rows named ${identityOf(first)}`);
  if (column === undefined) return first;
  const values = new Set([...(first.columns[column] as string[]), ...(next.columns[column] as string[])]);
  return { ...first, columns: { ...first.columns, [column]: [...values].sort() } };
}

/**
 * The rows with each shared row once, its parts joined, in first-seen order (other shared rows must
 * repeat exactly).
 */
export function mergeSharedParts(rows: readonly DesiredRow[]): DesiredRow[] {
  const out: DesiredRow[] = [];
  const at = new Map<string, number>();
  for (const r of rows) {
    if (!r.shared) {
      out.push(r);
      continue;
    }
    const column = PART_COLUMNS[r.table];
    const id = `${r.table}\u0000${identityOf(r)}`;
    const index = at.get(id);
    if (index === undefined) {
      at.set(id, out.length);
      out.push(r);
    } else out[index] = merged(out[index]!, r, column);
  }
  return out;
}
