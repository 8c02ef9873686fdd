/**
 * What a network or connect component needs from its cluster: the owner marker base, the
 * layout and the ClusterAllocations resource whose outputs hold every number and the slice
 * each per-zone resource renders from.
 */
import type * as pulumi from '@pulumi/pulumi';
import type { ClusterSlices, PackedSlice } from '../provider/runtime/pulumi';
import type { InventoryObject, NetworkObject } from './objects';
import type { ClusterAllocations, TopologyProps } from './resources';

export interface ClusterContext {
  /** The `ovnk.io/owner` base of this cluster's rows, e.g. `ovnk-pulumi.colored-enterprise`. */
  readonly owner: string;
  readonly layout: 'central' | 'per-node';
  readonly topology: TopologyProps;
  readonly allocationsResource: ClusterAllocations;
  /** The plain Inventory and network objects (an Uplink's children are cut from them). */
  readonly inventory: InventoryObject;
  readonly networkObjects: NetworkObject[];
}

/** The props of a per-zone resource of this cluster: owner, zone and the slice `pick` takes from the cluster's slices. */
export function zoneProps(
  cluster: ClusterContext,
  owner: string,
  zone: string,
  pick: (slices: ClusterSlices) => PackedSlice | undefined,
) {
  const slice: pulumi.Output<PackedSlice | undefined> = cluster.allocationsResource.slices.apply((s) =>
    s ? pick(s) : undefined,
  );
  return { owner: `${cluster.owner}/${owner}`, zone, slice };
}
