/**
 * One owner's rows in one zone's Northbound, for the providers: apply them in one transaction
 * (runtime/commit.ts: guarded, retried when another writer interferes, with the owner's marker),
 * measure their drift (what the next apply would change, in words, bounded), count what is
 * live, delete them (owned rows only; nothing owned is success). Connections come from
 * zoneDatabase.ts: module-level pools, one per endpoint.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../model/canonical';
import { observe, planApply } from '../../nb/apply';
import type { DesiredRow } from '../../nb/desired';
import { nbSchema } from '../../nb/generated/nb';
import { isSharedRow, isUsedBy } from '../../nb/shared';
import { commit } from '../commit';
import { checkOthers, othersUnchanged } from '../owners';
import { serializeState, stateKey, stateWrite, type RuntimeState } from '../state';
import { catalogKey, catalogWrite } from './catalog';
import { zoneDatabase } from './zoneDatabase';

/** Drift lines kept in outputs; the count says how many there were. */
export const DRIFT_LINES = 20;

export interface Drift {
  /** The first DRIFT_LINES changes the next update would make, in words. */
  lines: string[];
  count: number;
  /** Owned rows live in the Northbound, per table. */
  liveRows: Record<string, number>;
}

const database = zoneDatabase;

/** Table -> number of rows (tables sorted, so equal counts serialize equally). */
export function countRows(rows: { table: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of rows.map((r) => r.table).sort()) counts[table] = (counts[table] ?? 0) + 1;
  return counts;
}

/**
 * sha256 of the rendered rows' canonical JSON: equal rows, equal digest, whatever order a
 * renderer built a row's columns or external_ids in (renderers are deterministic).
 */
export function digestRows(rows: DesiredRow[]): string {
  return createHash('sha256').update(canonicalJson(rows)).digest('hex');
}

/** What a write publishes beside the rows in NB_Global (ClusterAllocations'): absent keys are removed. */
export interface HomeKeys {
  /** The allocation state: other owners of the Northbound take its allocations as taken. */
  state?: RuntimeState;
  /** The packed zone catalog the per-node layout's ZoneRows render from (catalog.ts). */
  catalog?: string;
}

/**
 * One zone's rows of `owner` through commit.ts: guarded, retried, its outcome read back after a
 * failed connection, with the owner's home keys (HomeKeys) written in the same transaction.
 */
async function commitRows(zone: string, owner: string, rows: DesiredRow[], keys: HomeKeys, removeMarker = false) {
  const request = { owner, schema: nbSchema, desired: rows };
  const { state, catalog } = keys;
  const text = state === undefined ? undefined : serializeState(state);
  return commit(
    await database(zone),
    owner,
    async (db) => {
      const observation = await observe(db, request);
      const home = observation.home ?? { exists: false, map: {} };
      const plan = planApply(request, observation).plan;
      const global = { exists: home.exists, ids: home.map };
      const [before, catalogBefore] = [home.map[stateKey(owner)], home.map[catalogKey(owner)]];
      if (before === text && catalogBefore === catalog) return { plan, global };
      const stateChanged = before !== text && state !== undefined;
      if (stateChanged) checkOthers(db.endpoint, state.allocation, home.map, owner, PIN_ADVICE, true);
      const inserted = plan.operations.some((op) => op.op === 'insert' && op.table === 'NB_Global');
      const stateOps = stateWrite(owner, before, text, home.exists || inserted);
      const stateInserted = stateOps.operations.some((op) => op.op === 'insert');
      const writes = [
        stateOps,
        catalogWrite(owner, catalogBefore, catalog, home.exists || inserted || stateInserted),
        ...(stateChanged ? [othersUnchanged(home.map, owner)] : []),
      ];
      return {
        plan: {
          ...plan,
          operations: [...plan.operations, ...writes.flatMap((w) => w.operations)],
          guards: [...plan.guards, ...writes.flatMap((w) => w.guards)],
        },
        global,
      };
    },
    { removeMarker, reconnect: async (body) => body(await database(zone)) },
  );
}

/**
 * A stack's check allocates with no I/O, so it cannot see the other owners of a Northbound: the
 * first write (ClusterAllocations' create or update) refuses a collision, before any row of the
 * stack is written.
 */
const PIN_ADVICE =
  "this stack's check (preview) allocated without seeing the other owners of this Northbound, as check does no I/O; preview again after pinning values free of every owner";

export async function applyRows(
  zone: string,
  owner: string,
  rows: DesiredRow[],
  keys: HomeKeys = {},
): Promise<{ sent: boolean; changes: number }> {
  const result = await commitRows(zone, owner, rows, keys);
  return { sent: result.sent, changes: result.plan.changes.length };
}

/** `catalog`: the zone catalog the owner publishes (HomeKeys); missing or another is a line of drift. */
export async function driftOf(zone: string, owner: string, rows: DesiredRow[], catalog?: string): Promise<Drift> {
  const request = { owner, schema: nbSchema, desired: rows };
  const observation = await observe(await database(zone), request);
  const live = observation.home?.map[catalogKey(owner)];
  const stale =
    catalog === undefined || live === catalog
      ? []
      : [`NB_Global external_ids["${catalogKey(owner)}"]: ${live === undefined ? 'missing' : 'another catalog'}`];
  const summary = [...stale, ...planApply(request, observation).plan.summary];
  return {
    lines: summary.slice(0, DRIFT_LINES),
    count: summary.length,
    // observe also reads the shared rows others use; only those this owner uses are its own
    liveRows: countRows(
      observation.owned.filter((row) => {
        const ids = row.columns.external_ids as Record<string, unknown> | undefined;
        return !isSharedRow(ids) || isUsedBy(ids, owner);
      }),
    ),
  };
}

/**
 * Deletes every row carrying this owner's marker in the zone (Meters with their bands), and its
 * state and catalog keys; idempotent.
 */
export async function deleteRows(zone: string, owner: string): Promise<void> {
  await commitRows(zone, owner, [], {}, true);
}
