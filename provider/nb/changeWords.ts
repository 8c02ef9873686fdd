/**
 * A planned row change in words: as an action to take (apply's summary, a plan's lines) or as
 * drift found (`ovnk diff`'s lines). reconcile.ts plans the changes; this names them.
 */
import { describeRow } from './desired';
import type { RowChange } from './reconcileTypes';

/** What a change is called when it is found rather than made (`ovnk diff`). */
const driftWords: Record<RowChange['action'], string> = {
  create: 'missing',
  update: 'changed',
  delete: 'extra row of ours',
  attach: 'not attached',
  detach: 'attached to a former parent',
};

/**
 * A change in words: as an action to take (`create Logical_Router "x": ...`, apply's summary) or
 * as drift found (`missing: Logical_Router "x": ...`, diff's lines).
 */
export function describeChange(change: RowChange, as: 'action' | 'drift' = 'action'): string {
  const row = describeRow(change.table, change.identity);
  const head = as === 'action' ? `${change.action} ${row}` : `${driftWords[change.action]}: ${row}`;
  return change.details.length === 0 ? head : `${head}: ${change.details.join('; ')}`;
}
