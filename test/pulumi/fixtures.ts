/** Topologies for the Pulumi tests: the repo's YAML fixtures as component args. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { ClusterNetworkConnectObject, InventoryObject, NetworkObject } from '../../components';

export const repoRoot = join(__dirname, '..', '..');

/** The objects of test/fixtures/<name>.yaml, with the inventory's zones set to `zones`. */
export function topologyArgs(
  name: string,
  zones: 'central' | 'per-node',
): { inventory: InventoryObject; networks: NetworkObject[]; connects: ClusterNetworkConnectObject[] } {
  const text = readFileSync(join(repoRoot, 'test', 'fixtures', `${name}.yaml`), 'utf8');
  const objects = parseAllDocuments(text).map((d) => d.toJS() as { kind: string; spec: Record<string, unknown> });
  const inventory = objects.find((o) => o.kind === 'Inventory') as unknown as InventoryObject;
  return {
    inventory: { ...inventory, spec: { ...inventory.spec, zones } },
    networks: objects.filter((o) => o.kind.endsWith('UserDefinedNetwork')) as unknown as NetworkObject[],
    connects: objects.filter((o) => o.kind === 'ClusterNetworkConnect') as unknown as ClusterNetworkConnectObject[],
  };
}

/** The same topology as the flat props a dynamic resource gets (for the host harness). */
export function topologyProps(name: string, zones: 'central' | 'per-node', owner: string) {
  return { owner, ...topologyArgs(name, zones) };
}

/** The topology with every network and connect renamed (`<name><suffix>`), so tests never share NB names. */
export function renamedTopology(name: string, zones: 'central' | 'per-node', suffix: string) {
  const args = structuredClone(topologyArgs(name, zones));
  for (const o of [...args.networks, ...args.connects]) o.metadata.name += suffix;
  return args;
}

/**
 * A topology file of stacks/ (nodes from --lab there: the nodes its pods name stand in), every
 * network and connect renamed `<name><suffix>`.
 */
export function stackTopology(file: string, zones: 'central' | 'per-node', suffix: string) {
  const objects = parseAllDocuments(readFileSync(join(repoRoot, 'stacks', file), 'utf8')).map(
    (d) => d.toJS() as { kind: string; metadata: { name: string }; spec: Record<string, unknown> },
  );
  const inventory = objects.find((o) => o.kind === 'Inventory')!;
  const podNodes = ((inventory.spec.pods ?? []) as { node: string }[]).map((p) => p.node);
  const nodes =
    inventory.spec.nodes ?? [...new Set(['ovn-control-plane', ...podNodes])].sort().map((name) => ({ name }));
  const renamed = objects
    .filter((o) => o.kind !== 'Inventory')
    .map((o) => ({ ...o, metadata: { ...o.metadata, name: `${o.metadata.name}${suffix}` } }));
  return {
    inventory: { ...inventory, spec: { ...inventory.spec, nodes, zones } } as unknown as InventoryObject,
    networks: renamed.filter((o) => o.kind.endsWith('UserDefinedNetwork')) as unknown as NetworkObject[],
    connects: renamed.filter((o) => o.kind === 'ClusterNetworkConnect') as unknown as ClusterNetworkConnectObject[],
  };
}
