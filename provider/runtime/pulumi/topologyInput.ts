/**
 * The topology as resource inputs: the same objects a YAML user writes for `ovnk plan` (one
 * Inventory, (Cluster)UserDefinedNetworks, ClusterNetworkConnects, RouteAdvertisements), checked for shape,
 * normalised (lists sorted by object reference, so reordering the program changes nothing),
 * allocated with the previous allocation state, and every problem turned into a Pulumi check
 * failure that names the input property and the OKEP reason.
 */
import type { ClusterAllocation } from '../../alloc/cluster';
import { prepareZones } from '../../connect/zones';
import type { Rejection } from '../../model/outcome';
import type { Problem } from '../../model/problem';
import { allocateTopology } from '../plan';
import { parseState, type RuntimeState } from '../state';
import { stateValue } from './clusterInputs';
import { type CheckFailure, checkFailure, type Props } from './protocol';
import type { SliceSource } from './slices';

export type TopologyObject = Record<string, unknown>;

export interface TopologyInputs {
  inventory: TopologyObject;
  networks: TopologyObject[];
  connects: TopologyObject[];
  /** Which networks' pod networks are advertised (their SNATs and isolation rows, topology/advertised.ts). */
  routeAdvertisements?: TopologyObject[];
}

/** `<Kind>/<name>` or `<Kind>/<namespace>/<name>`, as model/load.ts names objects in problems. */
export function objectRef(object: TopologyObject): string {
  const meta = (object.metadata ?? {}) as Record<string, unknown>;
  const parts = [object.kind, meta.namespace, meta.name].filter((p) => typeof p === 'string');
  return parts.join('/');
}

/** The topology part of `news`, or failures naming the property that has the wrong shape. */
export function readTopology(news: Props): { topology?: TopologyInputs; failures: CheckFailure[] } {
  const failures: CheckFailure[] = [];
  const isObject = (v: unknown): v is TopologyObject => v !== null && typeof v === 'object' && !Array.isArray(v);
  const list = (key: 'networks' | 'connects' | 'routeAdvertisements'): TopologyObject[] => {
    const value = news[key] ?? [];
    if (!Array.isArray(value))
      failures.push(
        checkFailure(key, 'InvalidField', `${key} must be a list of objects, not ${JSON.stringify(value)}`),
      );
    else
      value.forEach(
        (item, i) =>
          isObject(item) ||
          failures.push(
            checkFailure(
              `${key}[${i}]`,
              'InvalidField',
              `${key}[${i}] must be an object with apiVersion, kind, metadata and spec`,
            ),
          ),
      );
    return Array.isArray(value) ? value.filter(isObject) : [];
  };
  if (!isObject(news.inventory))
    failures.push(
      checkFailure(
        'inventory',
        'InvalidField',
        'inventory must be an Inventory object (apiVersion ovnk/v1alpha1, kind Inventory, metadata, spec)',
      ),
    );
  const networks = list('networks');
  const connects = list('connects');
  const routeAdvertisements = list('routeAdvertisements');
  if (failures.length > 0) return { failures };
  const inventory = news.inventory as TopologyObject;
  return { topology: normaliseTopology({ inventory, networks, connects, routeAdvertisements }), failures };
}

export function normaliseTopology(topology: TopologyInputs): TopologyInputs {
  const byRef = (a: TopologyObject, b: TopologyObject) =>
    objectRef(a) < objectRef(b) ? -1 : objectRef(a) > objectRef(b) ? 1 : 0;
  return {
    inventory: topology.inventory,
    networks: [...topology.networks].sort(byRef),
    connects: [...topology.connects].sort(byRef),
    routeAdvertisements: [...(topology.routeAdvertisements ?? [])].sort(byRef),
  };
}

export interface Allocated extends SliceSource {
  allocation: ClusterAllocation;
  /** What ClusterAllocations keeps for the next check (allocation state and pod addresses). */
  state: RuntimeState;
  /** Refusals: allocation and connect problems. */
  problems: Problem[];
}

export type AllocateResult = Rejection | { ok: true; allocated: Allocated };

/**
 * The check's plan: runtime/plan.ts's allocateTopology over the input objects (no row rendered;
 * each per-zone resource renders its own slice), with the slices' sources.
 */
export function allocateInputs(topology: TopologyInputs, previous?: RuntimeState): AllocateResult {
  const objects = [
    topology.inventory,
    ...topology.networks,
    ...topology.connects,
    ...(topology.routeAdvertisements ?? []),
  ];
  const result = allocateTopology({ objects }, previous);
  if (!result.ok) return result;
  const { cluster, allocation, state, problems, inputs } = result.allocated;
  const renderInputs = inputs.zones[0]?.inputs ?? [];
  return {
    ok: true,
    allocated: { cluster, allocation, state, problems, renderInputs, connects: prepareZones(cluster, allocation) },
  };
}

/** The allocation state kept under `state` (packed, or an object: clusterInputs.ts), when readable. */
export function stateOf(props: Props): RuntimeState | undefined {
  if (props.state === undefined || props.state === null) return undefined;
  try {
    return parseState(JSON.stringify(stateValue(props.state)), 'state');
  } catch {
    return undefined;
  }
}

/**
 * A problem as a check failure: property `connects[0].spec.connectSubnets[0].cidr`, reason `<OKEP
 * reason>: <message>`.
 */
export function toFailure(problem: Problem, topology: TopologyInputs): CheckFailure {
  // the allocators name the one Inventory by its kind alone (alloc/hostSubnets.ts, node ids)
  const prefixes = new Map<string, string>([
    [objectRef(topology.inventory), 'inventory'],
    ['Inventory', 'inventory'],
  ]);
  topology.networks.forEach((n, i) => prefixes.set(objectRef(n), `networks[${i}]`));
  topology.connects.forEach((c, i) => prefixes.set(objectRef(c), `connects[${i}]`));
  const prefix = problem.object === undefined ? undefined : prefixes.get(problem.object);
  const field =
    problem.object !== undefined && problem.path.startsWith(`${problem.object}: `)
      ? problem.path.slice(problem.object.length + 2)
      : '';
  const property = prefix === undefined ? '' : field === '' ? prefix : `${prefix}.${field}`;
  return checkFailure(property, problem.reason, problem.message);
}

/** Every problem (input problems, cluster-wide ones, refused connects) as failures. */
export function allocateFailures(result: AllocateResult, topology: TopologyInputs): CheckFailure[] {
  const problems = result.ok ? result.allocated.problems : result.problems;
  return problems.map((p) => toFailure(p, topology));
}
