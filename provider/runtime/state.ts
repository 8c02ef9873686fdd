/**
 * The CLI's state in the Northbound it describes: `NB_Global.external_ids["ovnk.io/state/<owner>"]`,
 * versioned JSON holding the allocation state and the pods' addresses. It is written in the same
 * transaction as the rows, and serialized canonically (sorted keys) so an unchanged plan writes
 * nothing.
 */
import type { OtherOwners } from '../alloc/others';
import { type AllocationState, emptyState, readState as readAllocation } from '../alloc/state';
import { canonicalJson } from '../model/canonical';
import { deeperThan, dict, plainData } from '../model/dict';
import { STATE_KEY_PREFIX } from '../model/externalIds';
import type { Outcome } from '../model/outcome';
import { writeHomeKey, type KeyWrite } from '../nb/homeKey';
import type { Operation } from '../ovsdb/notation';
import type { PodAssignments } from '../topology/fromCluster';
import type { PodTunnels } from '../topology/pod-tunnels';

export { canonicalJson, STATE_KEY_PREFIX };

export const runtimeStateVersion = 1;

export interface RuntimeState {
  version: typeof runtimeStateVersion;
  allocation: AllocationState;
  /** Pod addresses per network, then `namespace/name`. */
  pods: PodAssignments;
  /** Layer2 pods' tunnel ids per network, then `namespace/name` (per-node layout only). */
  podTunnels?: PodTunnels;
  /** Each CUDN's `spec.uplinks` by OVN network name (immutable upstream: a change is a replacement). */
  uplinks?: Record<string, string[]>;
}

export class StateError extends Error {
  override name = 'StateError';
  /** Set by readZoneStates: the other owners stored beside the unreadable state. */
  others?: OtherOwners;
}

export const stateKey = (owner: string): string => `${STATE_KEY_PREFIX}${owner}`;

export function serializeState(state: RuntimeState): string {
  return canonicalJson(state);
}

/** Parses the stored text; `where` names it in errors (`NB_Global.external_ids["ovnk.io/state/lab"] of unix:...`). */
export function parseState(text: string, where: string): RuntimeState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StateError(`${where} is not JSON: ${(error as Error).message}`);
  }
  // Keys are user names (networks, pods): records without a prototype, depth checked first.
  if (deeperThan(value, 64)) throw new StateError(`${where} nests objects more than 64 levels deep`);
  const record = plainData(value) as Partial<RuntimeState> | null;
  if (!record || typeof record !== 'object' || record.version !== runtimeStateVersion) {
    throw new StateError(
      `${where} has state version ${JSON.stringify(record?.version)}; this ovnk reads version ${runtimeStateVersion}`,
    );
  }
  const read = readAllocation(record.allocation);
  if (!read.ok) throw new StateError(`${where} ${read.why}`);
  const allocation = read.value;
  const pods = record.pods && typeof record.pods === 'object' ? record.pods : dict<never>();
  const uplinks = record.uplinks && typeof record.uplinks === 'object' ? { uplinks: record.uplinks } : {};
  const podTunnels =
    record.podTunnels && typeof record.podTunnels === 'object' ? { podTunnels: record.podTunnels } : {};
  return { version: runtimeStateVersion, allocation, pods, ...podTunnels, ...uplinks };
}

/** An allocation given by hand (`ovnk plan --previous`: a plan document or its state), or why it is not one. */
export function readPreviousAllocation(value: unknown): Outcome<AllocationState> {
  return readAllocation(value);
}

/** The stored state, or an empty one, with `allocation` in place of its own: what `--previous` plans against. */
export function withAllocation(stored: RuntimeState | undefined, allocation: AllocationState): RuntimeState {
  return { ...(stored ?? { version: runtimeStateVersion, allocation: emptyState(), pods: {} }), allocation };
}

/** The select that reads NB_Global (its uuid and external_ids). */
export function selectGlobal(): Operation {
  return { op: 'select', table: 'NB_Global', where: [], columns: ['_uuid', 'external_ids'] };
}

/**
 * The operations that set (text) or remove (undefined) the state key, guarded against another
 * writer of it (nb/homeKey.ts); `before` is the text read. With no NB_Global row yet (a Northbound
 * nobody initialized) the row is inserted.
 */
export function stateWrite(
  owner: string,
  before: string | undefined,
  text: string | undefined,
  hasGlobal: boolean,
): KeyWrite {
  return writeHomeKey({ table: 'NB_Global', column: 'external_ids' }, stateKey(owner), before, text, hasGlobal);
}
