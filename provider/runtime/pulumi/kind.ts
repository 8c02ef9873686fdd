/**
 * What every ovnk resource kind shares: the owner check, the state version check, and the
 * row work of create/update (one transaction per zone, every zone at once, a partial failure
 * reported with the id so the engine's state stays true), read (live drift, bounded) and delete
 * (owned rows only, idempotent). Outputs are the checked inputs plus schemaVersion, zones, a digest and counts of
 * the rendered rows, and the drift summary; never the rows, never an endpoint or a credential.
 */
import { sameJson } from '../../model/canonical';
import { dict } from '../../model/dict';
import type { DesiredRow } from '../../nb/desired';
import { checkOwner } from '../../nb/ownership';
import { eachZone, type ZoneOutcome } from '../eachZone';
import { applyRows, countRows, deleteRows, digestRows, driftOf, type HomeKeys } from './nbRows';
import {
  checkFailure,
  type CheckFailure,
  containsUnknown,
  jsonClean,
  PartialApplyError,
  type Props,
  type ResourceKind,
  SCHEMA_VERSION,
  withoutProvider,
} from './protocol';

export function ownerFailure(owner: unknown): CheckFailure[] {
  if (typeof owner !== 'string')
    return [checkFailure('owner', 'InvalidField', `owner must be a string, not ${JSON.stringify(owner)}`)];
  try {
    checkOwner(owner);
    return [];
  } catch (error) {
    return [checkFailure('owner', 'InvalidField', `${(error as Error).message}`)];
  }
}

/** The version of stored state, refused when newer than this runtime. */
export function stateVersion(props: Props): number {
  const version = props.schemaVersion ?? 1;
  if (typeof version !== 'number' || version > SCHEMA_VERSION) {
    throw new Error(
      `resource state has schemaVersion ${JSON.stringify(version)}; this ovnk-pulumi reads up to ${SCHEMA_VERSION}: upgrade the ovnk-pulumi package`,
    );
  }
  return version;
}

/**
 * Whether the program changed input `key`: its new value is unknown (a preview before its source
 * exists) or differs from the stored one as a JSON value (key order ignored: model/canonical.ts).
 * Absent in the program is no change (the engine fills it from the stored state).
 */
export function inputChanged(olds: Props, news: Props, key: string): boolean {
  return news[key] !== undefined && (containsUnknown(news[key]) || !sameJson(olds[key], news[key]));
}

/** Outputs of a write: the inputs and what the rows came to (their digest and counts, not the rows). */
export function outputsOf(inputs: Props, zones: string[], rows: DesiredRow[]): Props {
  return jsonClean({
    ...inputs,
    schemaVersion: SCHEMA_VERSION,
    zones,
    digest: digestRows(rows),
    rowCounts: countRows(rows),
    drift: { lines: [], count: 0 },
  });
}

/** Each zone's outcome, every zone at once (runtime/eachZone.ts); the first error when every zone failed. */
async function onEveryZone<T>(zones: string[], work: (zone: string) => Promise<T>): Promise<ZoneOutcome<T>[]> {
  const outcomes = await eachZone(zones, work);
  const first = outcomes.find((o) => !o.ok);
  if (first && !first.ok && outcomes.every((o) => !o.ok)) throw first.cause;
  return outcomes;
}

const failureText = (outcomes: ZoneOutcome<unknown>[]): string[] =>
  outcomes.flatMap((o) => (o.ok ? [] : [`zone ${o.zone}: ${o.why}`]));

/**
 * Applies each zone's rows in its own transaction, every zone at once; when some zones fail, the
 * error names them and the zones that were applied (the outputs list only those).
 */
export async function writeZones(
  id: string,
  inputs: Props,
  rows: Record<string, DesiredRow[]>,
  keys: HomeKeys = {},
): Promise<Props> {
  const all = Object.values(rows).flat();
  const owner = String(inputs.owner);
  const outcomes = await onEveryZone(Object.keys(rows), (zone) => applyRows(zone, owner, rows[zone]!, keys));
  const done = outcomes.filter((o) => o.ok).map((o) => o.zone);
  const failures = failureText(outcomes);
  if (failures.length > 0)
    throw new PartialApplyError(
      `${failures.join('; ')} (applied: ${done.join(', ')})`,
      id,
      outputsOf(inputs, done, all),
      failures,
    );
  return outputsOf(inputs, done, all);
}

/**
 * The stored props with the live drift of each zone (first lines only) and the owned rows counted;
 * a published catalog (`catalog`) that is missing or another counts as drift.
 */
export async function readZones(props: Props, rows: Record<string, DesiredRow[]>, catalog?: string): Promise<Props> {
  const owner = String(props.owner);
  const outcomes = await onEveryZone(Object.keys(rows), (zone) => driftOf(zone, owner, rows[zone]!, catalog));
  const failures = failureText(outcomes);
  if (failures.length > 0) throw new Error(`cannot read every zone: ${failures.join('; ')}`);
  const drifts = outcomes.flatMap((o) => (o.ok ? [{ zone: o.zone, ...o.value }] : []));
  const lines = drifts.flatMap((d) => d.lines.map((l) => `${d.zone}: ${l}`));
  const count = drifts.reduce((sum, d) => sum + d.count, 0);
  const liveRows = dict(drifts.map((d) => [d.zone, d.liveRows]));
  return jsonClean({ ...props, drift: { lines: lines.slice(0, 20), count }, liveRows });
}

/**
 * Every zone's rows of this owner removed, every zone at once; zones that fail are named (delete is
 * idempotent: retry).
 */
export async function removeZones(props: Props): Promise<void> {
  const zones = Array.isArray(props.zones) ? (props.zones as string[]) : [];
  const outcomes = await onEveryZone(zones, (zone) => deleteRows(zone, String(props.owner)));
  const failures = failureText(outcomes);
  if (failures.length > 0) throw new Error(`cannot delete from every zone: ${failures.join('; ')}`);
}

/** Drift found by the last read: the next update repairs it. */
export const driftCount = (props: Props): number => (props.drift as { count?: number } | undefined)?.count ?? 0;

type RowsOf = (props: Props, stored?: Props) => Record<string, DesiredRow[]> | Promise<Record<string, DesiredRow[]>>;

/**
 * create, read, update and delete of a kind whose rows (by zone) follow from its props: every
 * write is one transaction per zone, read is the live rows, delete removes this owner's rows.
 * `rowsOf` gets the stored props on update; `homeOf` (ClusterAllocations) gives the keys each
 * write publishes beside the rows (its allocation state and zone catalog: nbRows.ts HomeKeys).
 */
export function zoneRowMethods(
  rowsOf: RowsOf,
  homeOf?: (props: Props) => HomeKeys,
): Pick<ResourceKind, 'create' | 'read' | 'update' | 'delete'> {
  const write = async (id: string, inputs: Props, stored?: Props) => {
    const props = withoutProvider(inputs);
    return writeZones(id, props, await rowsOf(props, stored && withoutProvider(stored)), homeOf?.(props));
  };
  return {
    create: async (inputs) => ({ id: String(inputs.owner), outs: await write(String(inputs.owner), inputs) }),
    read: async (id, stored) => {
      stateVersion(stored);
      const props = withoutProvider(stored);
      return { id, props: await readZones(props, await rowsOf(props), homeOf?.(props).catalog) };
    },
    update: async (id, olds, news) => {
      stateVersion(olds);
      return { outs: await write(id, news, olds) };
    },
    delete: async (_id, props) => {
      stateVersion(props);
      await removeZones(props);
    },
  };
}
