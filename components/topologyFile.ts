/**
 * A Cluster's args from topology files: read, checked and refused exactly as `ovnk plan -f` does
 * (the runtime's one loader, provider/runtime/input.ts), so a Pulumi program never renders a file
 * the CLI refuses: a misspelled kind, malformed YAML or a bad field throws every problem, each
 * with its file and field path, before any resource is registered.
 */
import { type InputDocument, loadTopologySync } from '../provider/runtime/input';
export { type InputProblem, UnusableInputError } from '../provider/runtime/input';
import type { ClusterNetworkConnectObject, InventoryObject, NetworkObject, UplinkObject } from './objects';
import type { RouteAdvertisementsObject } from './uplink';

/** The objects of topology files: plain values, as YAML gives them (assignable to ClusterArgs). */
export interface TopologyArgs {
  inventory: InventoryObject;
  networks: NetworkObject[];
  connects: ClusterNetworkConnectObject[];
  uplinks: UplinkObject[];
  routeAdvertisements: RouteAdvertisementsObject[];
}

/** Inventory spec fields that replace the file's (a stack's config: zones, nodes, targets). */
export type InventoryOverrides = Record<string, unknown>;

function withOverrides(documents: InputDocument[], overrides: InventoryOverrides): InputDocument[] {
  const given = Object.entries(overrides).filter(([, v]) => v !== undefined);
  if (given.length === 0) return documents;
  return documents.map((doc) => {
    if (doc.kind !== 'Inventory') return doc;
    const spec = { ...(doc.body.spec as object), ...Object.fromEntries(given) };
    return { ...doc, body: { ...doc.body, spec } } as InputDocument;
  });
}

/**
 * The objects of topology files (paths or directories, as `ovnk -f` takes them) sorted into a
 * Cluster's args; `overrides` replace Inventory spec fields before the checks. Throws
 * UnusableInputError (every problem, worded as the CLI words them) when the CLI would exit 3.
 */
export function topologyFromFiles(files: string[], overrides: InventoryOverrides = {}): TopologyArgs {
  const { documents } = loadTopologySync(files, (docs) => withOverrides(docs, overrides));
  // The loader's objects have no prototype (user keys stay keys); Pulumi's serializer needs plain ones.
  const of = (...kinds: string[]) =>
    documents.filter((d) => kinds.includes(d.kind)).map((d) => structuredClone(d.body) as unknown);
  return {
    inventory: of('Inventory')[0] as InventoryObject,
    networks: of('ClusterUserDefinedNetwork', 'UserDefinedNetwork') as NetworkObject[],
    connects: of('ClusterNetworkConnect') as ClusterNetworkConnectObject[],
    uplinks: of('Uplink') as UplinkObject[],
    routeAdvertisements: of('RouteAdvertisements') as RouteAdvertisementsObject[],
  };
}
