/**
 * The dynamic-provider methods every ovnk resource kind shares, parameterised by a KindSpec:
 * check = normalise, validate, plan with the previous allocations (no I/O); diff = precise
 * changes and replacements over the checked inputs versus the stored outputs; create/update =
 * one transaction per zone; read = live drift; delete = owned rows only. The spec says which
 * rows the resource owns, in which zones, and what extra values preview should show.
 */
import type { DesiredRow } from '../../nb/desired';
import { checkOwner } from '../../nb/ownership';
import type { TopologyPlan } from '../plan';
import { applyRows, countRows, deleteRows, digestRows, driftOf } from './nbRows';
import { type CheckFailure, type CheckResult, containsUnknown, type DiffResult, jsonClean, PartialApplyError, type Props, type ResourceKind, SCHEMA_VERSION, withoutProvider } from './protocol';
import { type Scope, ScopeError, scopeRows } from './scope';
import { configureSettings } from './settings';
import { planFailures, planTopology, readTopology, stateOf, type TopologyInputs } from './topologyInput';
import type { RuntimeState } from '../state';

export interface KindSpec {
  /** Input keys whose change replaces the resource (identity: owner, zone, immutable specs). */
  replaceKeys: string[];
  /** Checked keys whose change (besides replaceKeys and the digest) is an update. */
  updateKeys: string[];
  /** The allocation state to plan against: ClusterAllocations its own olds, the others the cluster's. */
  previous(olds: Props, news: Props): RuntimeState | undefined;
  scope(news: Props): Scope;
  /** The zones whose Northbound this resource writes. */
  zones(plan: TopologyPlan, props: Props): string[];
  /** Values computed at check time that preview shows (allocations, tunnel keys...). */
  extras(plan: TopologyPlan, news: Props): Props;
}

interface Planned {
  plan: TopologyPlan;
  topology: TopologyInputs;
  rows: Record<string, DesiredRow[]>;
}

/** Plans and renders checked (or stored) props; failures instead when the input is refused. */
function planProps(spec: KindSpec, olds: Props, props: Props): { planned?: Planned; failures: CheckFailure[] } {
  const read = readTopology(props);
  if (!read.topology) return { failures: read.failures };
  const result = planTopology(read.topology, spec.previous(olds, props));
  const failures = planFailures(result, read.topology);
  if (!result.ok || failures.length > 0) return { failures };
  try {
    const rows: Record<string, DesiredRow[]> = {};
    for (const zone of spec.zones(result.plan, props)) rows[zone] = scopeRows(result.plan, zone, spec.scope(props));
    return { planned: { plan: result.plan, topology: read.topology, rows }, failures: [] };
  } catch (error) {
    if (error instanceof ScopeError) return { failures: [{ property: error.property, reason: `InvalidSpec: ${error.message}` }] };
    throw error;
  }
}

function mustPlan(spec: KindSpec, props: Props): Planned {
  const { planned, failures } = planProps(spec, props, props);
  if (!planned) throw new Error(`the stored inputs no longer plan: ${failures.map((f) => `${f.property}: ${f.reason}`).join('; ')}`);
  return planned;
}

function ownerFailure(owner: unknown): CheckFailure[] {
  if (typeof owner !== 'string') return [{ property: 'owner', reason: `InvalidField: owner must be a string, not ${JSON.stringify(owner)}` }];
  try {
    checkOwner(owner);
    return [];
  } catch (error) {
    return [{ property: 'owner', reason: `InvalidField: ${(error as Error).message}` }];
  }
}

export function check(spec: KindSpec, olds: Props, news: Props): CheckResult<Props> {
  if (containsUnknown(news)) return { inputs: news };
  const owner = ownerFailure(news.owner);
  const { planned, failures } = planProps(spec, olds, news);
  if (owner.length > 0 || !planned) return { inputs: news, failures: [...owner, ...failures] };
  const all = Object.values(planned.rows).flat();
  const inputs = { ...news, ...planned.topology, ...spec.extras(planned.plan, news), digest: digestRows(all), rowCounts: countRows(all) };
  return { inputs: jsonClean(inputs) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function diff(spec: KindSpec, olds: Props, news: Props): DiffResult {
  const differs = (key: string) => news[key] === undefined ? false : containsUnknown(news[key]) || !same(olds[key], news[key]);
  const replaces = spec.replaceKeys.filter(differs);
  const drift = (olds.drift as { count?: number } | undefined)?.count ?? 0;
  const changes = replaces.length > 0 || ['digest', ...spec.updateKeys].some(differs) || drift > 0 || olds.schemaVersion !== SCHEMA_VERSION;
  return { changes, replaces, deleteBeforeReplace: replaces.length > 0 };
}

/** State written by this runtime (or an older one it can read); a newer one is refused. */
export function migrate(props: Props): Props {
  const version = props.schemaVersion ?? 1;
  if (typeof version !== 'number' || version > SCHEMA_VERSION) {
    throw new Error(`resource state has schemaVersion ${JSON.stringify(version)}; this ovnk-pulumi reads up to ${SCHEMA_VERSION}: upgrade the ovnk-pulumi package`);
  }
  return { ...props, schemaVersion: SCHEMA_VERSION };
}

async function write(spec: KindSpec, inputs: Props, id: string): Promise<Props> {
  const props = withoutProvider(inputs);
  const { rows } = mustPlan(spec, props);
  const done: string[] = [];
  const outs = (zones: string[]) => jsonClean({ ...props, schemaVersion: SCHEMA_VERSION, zones, drift: { lines: [], count: 0 } });
  for (const [zone, zoneRows] of Object.entries(rows)) {
    try {
      await applyRows(zone, String(props.owner), zoneRows);
      done.push(zone);
    } catch (error) {
      if (done.length === 0) throw error;
      throw new PartialApplyError(`zone ${zone}: ${(error as Error).message} (applied: ${done.join(', ')})`, id, outs(done), [(error as Error).message]);
    }
  }
  return outs(Object.keys(rows));
}

async function read(spec: KindSpec, id: string, stored: Props): Promise<{ id: string; props: Props }> {
  const props = migrate(withoutProvider(stored));
  const { rows } = mustPlan(spec, props);
  const lines: string[] = [];
  let count = 0;
  const liveRows: Record<string, Record<string, number>> = {};
  for (const [zone, zoneRows] of Object.entries(rows)) {
    const drift = await driftOf(zone, String(props.owner), zoneRows);
    lines.push(...drift.lines.map((l) => `${zone}: ${l}`));
    count += drift.count;
    liveRows[zone] = drift.liveRows;
  }
  return { id, props: jsonClean({ ...props, drift: { lines: lines.slice(0, 20), count }, liveRows }) };
}

async function remove(props: Props): Promise<void> {
  const zones = Array.isArray(props.zones) ? (props.zones as string[]) : [];
  for (const zone of zones) await deleteRows(zone, String(props.owner));
}

/** The full method set for one kind. */
export function makeKind(spec: KindSpec): ResourceKind {
  return {
    configure: async ({ config }) => configureSettings(config),
    check: async (olds, news) => check(spec, olds, news),
    diff: async (_id, olds, news) => diff(spec, olds, news),
    create: async (inputs) => ({ id: String(inputs.owner), outs: await write(spec, inputs, String(inputs.owner)) }),
    read: async (id, props) => read(spec, id, props),
    update: async (id, olds, news) => {
      migrate(olds);
      return { outs: await write(spec, news, id) };
    },
    delete: async (_id, props) => remove(migrate(props)),
  };
}
