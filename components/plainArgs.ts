/**
 * Where ClusterArgs must be plain. Every child resource is decided while the program runs: the
 * node list decides the zone resources of the per-node layout, names and kinds the network,
 * connect and Uplink components, a network's topology its component class and `spec.uplinks` the
 * Uplinks it waits for. An Output or a Promise at such a path (or above one) is refused here,
 * naming the path, before anything is registered: serialized as it was, an Output as
 * `inventory.spec.nodes` registered one resource per character named `...-zone-undefined`.
 * Elsewhere Inputs are fine (inputs.ts), in both modes: in Kubernetes mode an object holding an
 * Input is validated by ClusterPrediction's check once its values are known (every custom
 * resource depends on it), the plain ones before anything is registered. With Uplinks every value
 * is plain: the Uplinks select their nodes from the whole Inventory and networks.
 */
import * as pulumi from '@pulumi/pulumi';

/** The paths that decide children, with `[*]` for any index; their ancestors decide too. */
const DECIDING = [
  'owner',
  'inventory.spec.zones',
  'inventory.spec.nodes[*].name',
  'networks[*].kind',
  'networks[*].metadata.name',
  'networks[*].metadata.namespace',
  'networks[*].spec.topology',
  'networks[*].spec.network.topology',
  'networks[*].spec.uplinks',
  'connects[*].metadata.name',
  'uplinks',
  'routeAdvertisements',
];

const general = (path: string) => path.replace(/\[\d+\]/g, '[*]');

/** Whether an unresolved value at `path` hides a value that decides children. */
function decides(path: string): boolean {
  const at = general(path);
  return DECIDING.some((d) => d === at || d.startsWith(`${at}.`) || d.startsWith(`${at}[`));
}

/** Why a value at `path` must be plain, in the words the error gives. */
function why(path: string, everything: string | undefined): string {
  if (everything) return everything;
  if (path.startsWith('inventory.spec.nodes'))
    return 'the node list decides which resources exist (one ZoneRows per node in the per-node layout)';
  if (path.startsWith('inventory')) return "the Inventory's zones decide the layout, and so which resources exist";
  if (/(^|\.)metadata\.(name|namespace)$|(^|\.)kind$|\.topology$/.test(path))
    return 'names, kinds and topologies decide which child components exist';
  return 'it decides which child components exist';
}

/** Each Output or Promise inside `value` with its path (`inventory.spec.nodes[2].name`); not below one. */
export function unresolvedPaths(value: unknown, path: string): string[] {
  if (pulumi.Output.isInstance(value) || value instanceof Promise) return [path];
  if (value === null || typeof value !== 'object' || pulumi.Resource.isInstance(value)) return [];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [`${path}[${i}]`, v] as const)
    : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v] as const);
  return entries.flatMap(([at, v]) => unresolvedPaths(v, at));
}

/** The first unresolved path, if any. */
export const unresolvedPath = (value: unknown, path: string): string | undefined => unresolvedPaths(value, path)[0];

/**
 * Throw, naming the path and the reason, when the args hold an Output or a Promise where a plain
 * value decides the children (anywhere, with Uplinks).
 */
export function refuseUnresolved(component: string, args: object): void {
  // the Northbound's endpoints decide nothing, in any mode (they reach the resources as inputs);
  // the target is a provider resource, not data
  const {
    target: _target,
    northbound: _endpoints,
    ...data
  } = args as {
    target?: unknown;
    northbound?: unknown;
    uplinks?: unknown[];
  };
  const everything =
    (data.uplinks?.length ?? 0) > 0
      ? 'with Uplinks, the Inventory and the networks decide which nodes get an UplinkState'
      : undefined;
  const path = unresolvedPaths(data, '').find((p) => everything !== undefined || decides(p));
  if (path === undefined) return;
  throw new Error(
    `${component}: ${path} is a pulumi Output or Promise, but it must be a plain value: ${why(path, everything)}. ` +
      'Resolve it before constructing the Cluster (for another stack\'s output: `(await ref.getOutputDetails("nodes")).value` in an async program).',
  );
}

/**
 * A copy of plain data with fresh objects (a hardened YAML loader's objects have no prototype,
 * which the SDK's serialization does not survive), keeping Outputs, Promises and resources as they are.
 */
export function plainCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (pulumi.Output.isInstance(value) || value instanceof Promise || pulumi.Resource.isInstance(value)) return value;
  if (Array.isArray(value)) return value.map(plainCopy) as T;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) copy[k] = plainCopy(v);
  return copy as T;
}
