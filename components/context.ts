/**
 * What a network or connect component needs from its cluster: the owner marker base, the
 * layout, the whole topology (every per-zone resource is planned from it) and the
 * ClusterAllocations resource whose state keeps every number stable.
 */
import type * as pulumi from '@pulumi/pulumi';
import type { ClusterAllocations, TopologyProps } from './resources';

export interface ClusterContext {
  /** The `ovnk.io/owner` base of this cluster's rows, e.g. `ovnk-pulumi.colored-enterprise`. */
  readonly owner: string;
  readonly layout: 'central' | 'per-node';
  readonly topology: TopologyProps;
  readonly allocationsResource: ClusterAllocations;
}

/** The props of a per-zone resource of this cluster. */
export function zoneProps(cluster: ClusterContext, owner: string, zone: string) {
  return { ...cluster.topology, owner: `${cluster.owner}/${owner}`, zone, state: cluster.allocationsResource.state as pulumi.Output<unknown> };
}
