/**
 * Warnings of one command: legal input that is likely a mistake (provider/model/warnings.ts).
 * Whatever step builds the cluster notes them here; runCommand (contract.ts) prints each as
 * `Warning: ...` on stderr, as kubectl does, and adds them to the JSON document as `warnings`.
 */
import type { Cluster } from '../provider/model/cluster';
import { clusterWarnings, type Warning } from '../provider/runtime/cli';

const pending = new Map<string, Warning>();

/** Note the warnings of a built cluster (each once, however many steps build it). */
export function noteWarnings(cluster: Cluster): void {
  for (const w of clusterWarnings(cluster)) pending.set(`${w.path}\n${w.message}`, w);
}

/** Note what a plan said without refusing it (runtime/warnings.ts: connects with fewer than two networks). */
export function notePlanWarnings(warnings: readonly Warning[]): void {
  for (const w of warnings) pending.set(`${w.path}\n${w.message}`, w);
}

/** The warnings noted so far, and none after. */
export function takeWarnings(): Warning[] {
  const taken = [...pending.values()];
  pending.clear();
  return taken;
}

export const warningLine = (w: Warning): string => `Warning: ${w.path}: ${w.message}`;
