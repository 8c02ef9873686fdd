/**
 * What every ovnk resource kind shares: the owner check, the state version check, and the
 * row work of create/update (one transaction per zone, a partial failure reported with the id so
 * the engine's state stays true), read (live drift, bounded) and delete (owned rows only,
 * idempotent). Outputs are the checked inputs plus schemaVersion, zones, a digest and counts of
 * the rendered rows, and the drift summary; never the rows, never an endpoint or a credential.
 */
import type { DesiredRow } from '../../nb/desired';
import { checkOwner } from '../../nb/ownership';
import { applyRows, countRows, deleteRows, digestRows, driftOf } from './nbRows';
import {
  type CheckFailure,
  jsonClean,
  PartialApplyError,
  type Props,
  type ResourceKind,
  SCHEMA_VERSION,
  withoutProvider,
} from './protocol';

export function ownerFailure(owner: unknown): CheckFailure[] {
  if (typeof owner !== 'string')
    return [{ property: 'owner', reason: `InvalidField: owner must be a string, not ${JSON.stringify(owner)}` }];
  try {
    checkOwner(owner);
    return [];
  } catch (error) {
    return [{ property: 'owner', reason: `InvalidField: ${(error as Error).message}` }];
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

export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

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

/** Applies each zone's rows in its own transaction; a failure after some zones names them. */
export async function writeZones(id: string, inputs: Props, rows: Record<string, DesiredRow[]>): Promise<Props> {
  const done: string[] = [];
  const all = Object.values(rows).flat();
  for (const [zone, zoneRows] of Object.entries(rows)) {
    try {
      await applyRows(zone, String(inputs.owner), zoneRows);
      done.push(zone);
    } catch (error) {
      if (done.length === 0) throw error;
      const message = (error as Error).message;
      throw new PartialApplyError(
        `zone ${zone}: ${message} (applied: ${done.join(', ')})`,
        id,
        outputsOf(inputs, done, all),
        [message],
      );
    }
  }
  return outputsOf(inputs, Object.keys(rows), all);
}

/** The stored props with the live drift of each zone (first lines only) and the owned rows counted. */
export async function readZones(props: Props, rows: Record<string, DesiredRow[]>): Promise<Props> {
  const lines: string[] = [];
  let count = 0;
  const liveRows: Record<string, Record<string, number>> = {};
  for (const [zone, zoneRows] of Object.entries(rows)) {
    const drift = await driftOf(zone, String(props.owner), zoneRows);
    lines.push(...drift.lines.map((l) => `${zone}: ${l}`));
    count += drift.count;
    liveRows[zone] = drift.liveRows;
  }
  return jsonClean({ ...props, drift: { lines: lines.slice(0, 20), count }, liveRows });
}

export async function removeZones(props: Props): Promise<void> {
  const zones = Array.isArray(props.zones) ? (props.zones as string[]) : [];
  for (const zone of zones) await deleteRows(zone, String(props.owner));
}

/** Drift found by the last read: the next update repairs it. */
export const driftCount = (props: Props): number => (props.drift as { count?: number } | undefined)?.count ?? 0;

/**
 * create, read, update and delete of a kind whose rows (by zone) follow from its props: every
 * write is one transaction per zone, read is the live rows, delete removes this owner's rows.
 */
export function zoneRowMethods(
  rowsOf: (props: Props) => Record<string, DesiredRow[]>,
): Pick<ResourceKind, 'create' | 'read' | 'update' | 'delete'> {
  const write = (id: string, inputs: Props) => {
    const props = withoutProvider(inputs);
    return writeZones(id, props, rowsOf(props));
  };
  return {
    create: async (inputs) => ({ id: String(inputs.owner), outs: await write(String(inputs.owner), inputs) }),
    read: async (id, stored) => {
      stateVersion(stored);
      const props = withoutProvider(stored);
      return { id, props: await readZones(props, rowsOf(props)) };
    },
    update: async (id, olds, news) => {
      stateVersion(olds);
      return { outs: await write(id, news) };
    },
    delete: async (_id, props) => {
      stateVersion(props);
      await removeZones(props);
    },
  };
}
