/**
 * What a plan says without refusing it, beyond the cluster's own warnings (model/warnings.ts):
 * findings of connect validation upstream accepts (a connect selecting fewer than two networks).
 * The CLI prints them with the others (`Warning:` on stderr, `warnings` in the document), the
 * Pulumi NetworkConnect logs them; nothing here stops an apply.
 */
import type { ClusterAllocation } from '../alloc/cluster';
import type { Warning } from '../model/warnings';

export function planWarnings(allocation: ClusterAllocation): Warning[] {
  return Object.values(allocation.connects).flatMap((c) => c.warnings ?? []);
}
