/**
 * The other owners of a Northbound, as its NB_Global holds them: each one's stored state
 * (`ovnk.io/state/<owner>`), whose allocations ours must not collide with (alloc/others.ts).
 * A write that changes our allocations re-checks them against the others' states read in the
 * same observation and guards those keys, so an owner that allocates at the same moment makes
 * one of the two transactions fail rather than both commit the same network id.
 */
import { conflictsWithOthers, freePins, type OtherOwners } from '../alloc/others';
import type { AllocationState } from '../alloc/state';
import type { KeyWrite } from '../nb/homeKey';
import type { Operation } from '../ovsdb/notation';
import { parseState, STATE_KEY_PREFIX, stateKey } from './state';

/** Another owner already holds values of ours (found when it is too late to allocate around them). */
export class OwnerConflictError extends Error {
  override name = 'OwnerConflictError';
  constructor(
    readonly endpoint: string,
    readonly conflicts: string[],
    advice: string,
  ) {
    super(`${endpoint}: ${conflicts.join('; ')}; nothing was written: ${advice}`);
  }
}

/** Other owners' readable states among NB_Global's external_ids (an unreadable one is named in `unreadable`). */
export function otherOwners(ids: Record<string, string>, owner: string): { others: OtherOwners; unreadable: string[] } {
  const others: Record<string, AllocationState> = {};
  const unreadable: string[] = [];
  for (const [key, text] of Object.entries(ids)) {
    if (!key.startsWith(STATE_KEY_PREFIX) || key === stateKey(owner)) continue;
    const other = key.slice(STATE_KEY_PREFIX.length);
    try {
      others[other] = parseState(text, key).allocation;
    } catch {
      unreadable.push(other);
    }
  }
  return { others, unreadable };
}

/** Waits that every other owner's state key still holds the text read (each guard in words). */
export function othersUnchanged(ids: Record<string, string>, owner: string): KeyWrite {
  const keys = Object.keys(ids)
    .filter((key) => key.startsWith(STATE_KEY_PREFIX) && key !== stateKey(owner))
    .sort();
  const operations = keys.map((key): Operation => ({
    op: 'wait',
    table: 'NB_Global',
    where: [['external_ids', 'includes', ['map', [[key, ids[key]!]]]]],
    columns: [],
    until: '==',
    rows: [{}],
    timeout: 0,
  }));
  return {
    operations,
    guards: keys.map((key) => `NB_Global.external_ids["${key}"] (another owner's allocations) is unchanged`),
  };
}

/**
 * Refuses `ours` when another owner stored in `ids` holds one of its values, or stored values
 * that cannot be read; `advice` says what to do (plan again, or pin another value); `suggest`
 * adds the pins that avoid every collision.
 */
export function checkOthers(
  endpoint: string,
  ours: AllocationState,
  ids: Record<string, string>,
  owner: string,
  advice: string,
  suggest = false,
): void {
  const { others, unreadable } = otherOwners(ids, owner);
  // an owner whose allocations cannot be read cannot be allocated around: it is repaired first
  if (unreadable.length > 0)
    throw new OwnerConflictError(
      endpoint,
      unreadable.map(
        (other) => `the allocations of owner "${other}" (NB_Global.external_ids["${stateKey(other)}"]) cannot be read`,
      ),
      "allocating without them could collide with its values: run `ovnk repair` with that owner's file, then apply again",
    );
  const conflicts = conflictsWithOthers(ours, others);
  if (conflicts.length === 0) return;
  const pins = suggest ? `: ${freePins(ours, others).join('; ')}` : '';
  throw new OwnerConflictError(endpoint, conflicts, advice + pins);
}
