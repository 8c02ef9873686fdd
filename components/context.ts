/**
 * What a network or connect component needs from its cluster: the owner marker base, the
 * layout and the ClusterAllocations resource whose outputs hold every number and the slice
 * each per-zone resource renders from.
 */
import type * as pulumi from '@pulumi/pulumi';
import type { CatalogRef, ClusterSlices, Layout, NorthboundInput, PackedSlice } from '../provider/runtime/pulumi';
import type { ClusterNetworkConnectObject, InventoryObject, NetworkObject, UplinkObject } from './objects';
import { type AllocationsOutput, ClusterAllocations, type ClusterPrediction, type TopologyProps } from './resources';
import type { ClusterTarget } from './target';

export interface ClusterContext {
  /** The `ovnk.io/owner` base of this cluster's rows, e.g. `ovnk-pulumi.colored-enterprise`. */
  readonly owner: string;
  readonly layout: Layout;
  /** Northbound (our rows) or Kubernetes (upstream's objects). */
  readonly target: ClusterTarget;
  /** The cluster's own Northbound (ClusterArgs.northbound), carried by each of its resources. */
  readonly northbound?: pulumi.Input<NorthboundInput>;
  readonly topology: TopologyProps;
  /** ClusterAllocations (Northbound mode) or ClusterPrediction (Kubernetes mode): every number, at preview. */
  readonly allocationsResource: ClusterAllocations | ClusterPrediction;
  /** Its allocations, each network's entry with its host subnets. */
  readonly allocations: pulumi.Output<AllocationsOutput>;
  /** The plain Inventory and network objects (an Uplink's children are cut from them). */
  readonly inventory: InventoryObject;
  readonly networkObjects: NetworkObject[];
  readonly connectObjects: ClusterNetworkConnectObject[];
  readonly uplinkObjects: UplinkObject[];
  /** The components the cluster made, by network key, connect and Uplink name (a second one is refused). */
  readonly networks: Readonly<Record<string, pulumi.Resource>>;
  readonly connects: Readonly<Record<string, pulumi.Resource>>;
  readonly uplinks: Readonly<Record<string, pulumi.Resource>>;
}

/**
 * Network, connect and Uplink components exist only as a Cluster's children: the Cluster's
 * ClusterAllocations is planned from the objects given to it, so a component for an object it
 * was not given would have no allocation and no network would wait for it (and a second one for
 * an object it was given would write the same rows or mappings twice). Throws, naming the object
 * and saying what to do instead.
 */
export function requireClusterChild(
  component: string,
  ref: string,
  given: boolean,
  made: pulumi.Resource | undefined,
  access: string,
): void {
  if (!given)
    throw new Error(
      `${component}: ${ref} is not among the Cluster's objects; a ${component} cannot be made on its own: give the object to new Cluster(name, { ... }) and use ${access}`,
    );
  if (made)
    throw new Error(
      `${component}: the Cluster already made the component of ${ref}; a ${component} cannot be made on its own: use ${access}`,
    );
}

/**
 * The props of a per-zone resource of this cluster: owner, zone and the slice `pick` takes from the
 * cluster's slices.
 */
export function zoneProps(
  cluster: ClusterContext,
  owner: string,
  zone: string,
  pick: (slices: ClusterSlices) => PackedSlice | CatalogRef | undefined,
) {
  const source = cluster.allocationsResource;
  if (!(source instanceof ClusterAllocations)) throw new Error(`${owner}: zone rows exist in Northbound mode only`);
  const slice: pulumi.Output<PackedSlice | CatalogRef | undefined> = source.slices.apply((s) =>
    s ? pick(s) : undefined,
  );
  const northbound = cluster.northbound ? { northbound: cluster.northbound } : {};
  return { owner: `${cluster.owner}/${owner}`, zone, slice, ...northbound };
}

/**
 * One object's entry in the cluster's allocations (known at preview: check computes them). Never
 * a silent empty value: an allocations output that is missing (ClusterAllocations was never
 * checked, as under mocks that echo their inputs) or lacks the object throws, naming it.
 */
export function allocationOf<T>(
  cluster: ClusterContext,
  ref: string,
  pick: (allocations: AllocationsOutput) => T | undefined,
): pulumi.Output<T> {
  return cluster.allocations.apply((a): T => {
    if (a === undefined || a === null)
      throw new Error(
        `${ref}: the Cluster's allocation resource (ClusterAllocations in Northbound mode, ClusterPrediction in Kubernetes mode) has no allocations output, so its check did not run (under mocks, wrap your mocks with ovnkMocks from ovnk-pulumi/testing)`,
      );
    const mine = pick(a);
    if (mine === undefined) throw new Error(`${ref}: the Cluster's allocations hold no entry for it`);
    return mine;
  });
}
