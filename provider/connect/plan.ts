/**
 * The pure pipeline behind `ovnk plan` and the Pulumi check step: text -> documents -> Cluster
 * -> connect validation -> allocateCluster. Input problems (unusable file or field) stop before
 * allocation; everything else is in the allocation's per-connect and cluster-wide problems.
 */
import { allocateCluster, type ClusterAllocation } from '../alloc/cluster';
import type { AllocationState } from '../alloc/state';
import { buildCluster, type Cluster } from '../model/cluster';
import { loadDocuments } from '../model/load';
import type { Problem } from '../model/problem';
import { validateConnects } from './validate';

export type PlanOutcome =
  { ok: false; inputProblems: Problem[] } | { ok: true; cluster: Cluster; allocation: ClusterAllocation };

export function planCluster(text: string, previous?: AllocationState): PlanOutcome {
  const loaded = loadDocuments(text);
  if (loaded.problems.length > 0) return { ok: false, inputProblems: loaded.problems };
  const built = buildCluster(loaded.documents);
  if (built.problems.length > 0) return { ok: false, inputProblems: built.problems };
  return { ok: true, cluster: built.cluster, allocation: allocatePlan(built.cluster, previous) };
}

/** A built cluster's connects validated and everything allocated, stable against `previous`. */
export function allocatePlan(cluster: Cluster, previous?: AllocationState): ClusterAllocation {
  return allocateCluster({ cluster, connects: validateConnects(cluster, previous?.networkIds) }, previous);
}
