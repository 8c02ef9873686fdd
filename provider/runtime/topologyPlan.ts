/**
 * What planTopology (plan.ts) returns: per zone the rows and pods, with the cluster, its allocation,
 * the state to store and the refusals. Its own module so the steps plan.ts runs over a plan
 * (services.ts) import it without importing plan.ts.
 */
import type { ClusterAllocation } from '../alloc/cluster';
import type { Cluster } from '../model/cluster';
import type { Problem } from '../model/problem';
import type { Warning } from '../model/warnings';
import type { Zone } from '../model/zones';
import type { DesiredRow } from '../nb/desired';
import type { PodPlug } from './pods';
import type { RuntimeState } from './state';

export interface ZonePlan {
  name: string;
  zone: Zone;
  /** Every row of this owner in the zone's Northbound, sorted by the renderers. */
  rows: DesiredRow[];
  /** The rows per NB table (counted when the zone was first rendered, so reading it renders nothing). */
  tableCounts?: ReadonlyMap<string, number>;
  pods: PodPlug[];
  /** What the connect renderer left out of this zone, in words (e.g. remote ports without a chassis). */
  notes: string[];
  /** The Inventory's spec.adoptUpstreamRows: rows upstream wrote are taken over, not refused (adoptUpstream.ts). */
  adoptUpstream?: boolean;
}

export interface TopologyPlan {
  cluster: Cluster;
  allocation: ClusterAllocation;
  /** What to store next to the rows (allocation state and pod addresses). */
  state: RuntimeState;
  zones: ZonePlan[];
  /** Refusals: allocation and connect problems. Nothing may be applied while there are any. */
  problems: Problem[];
  /** Said, not refused (runtime/warnings.ts): the plan may be applied. */
  warnings: Warning[];
}
