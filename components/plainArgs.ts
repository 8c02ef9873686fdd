/**
 * ClusterArgs are plain values: every child resource is decided from them while the program runs
 * (the node list decides the zone resources of the per-node layout, names and kinds decide the
 * network, connect and Uplink components), and validation and allocation run at preview from
 * them. A `pulumi.Output` or a Promise anywhere in them is refused here, naming its path, before
 * anything is registered: serialized as it was, an Output became a warning string and, as
 * `inventory.spec.nodes`, registered one resource per character named `...-zone-undefined`.
 */
import * as pulumi from '@pulumi/pulumi';

/** Why a value at `path` must be plain, in the words the error gives. */
function why(path: string): string {
  if (path.startsWith('inventory.spec.nodes'))
    return 'the node list decides which resources exist (one ZoneRows per node in the per-node layout)';
  if (/(^|\.)metadata\.(name|namespace)$|(^|\.)kind$|\.spec\.network\.topology$/.test(path))
    return 'names, kinds and topologies decide which child components exist';
  return 'the components validate and allocate from plain values at preview';
}

/** The path of the first Output or Promise inside `value` (`inventory.spec.nodes[2].name`), if any. */
export function unresolvedPath(value: unknown, path: string): string | undefined {
  if (pulumi.Output.isInstance(value) || value instanceof Promise) return path;
  if (value === null || typeof value !== 'object' || pulumi.Resource.isInstance(value)) return undefined;
  const entries = Array.isArray(value)
    ? value.map((v, i) => [`${path}[${i}]`, v] as const)
    : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v] as const);
  for (const [at, v] of entries) {
    const found = unresolvedPath(v, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Throw, naming the path and the reason, when the args hold an Output or a Promise. */
export function refuseUnresolved(component: string, args: object): void {
  const { target: _target, ...data } = args as { target?: unknown };
  const path = unresolvedPath(data, '');
  if (path === undefined) return;
  throw new Error(
    `${component}: ${path} is a pulumi Output or Promise, but ClusterArgs take plain values: ${why(path)}. ` +
      'Resolve it before constructing the Cluster (for another stack\'s output: `(await ref.getOutputDetails("nodes")).value` in an async program).',
  );
}
