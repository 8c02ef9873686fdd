/**
 * The runtime path the CLI takes, as the NB benchmarks time it: read the stored state, plan,
 * then apply or diff one zone. A no-change re-apply that sends anything, or a diff that finds
 * drift, fails the benchmark: it would be timing the wrong work.
 */
import type { OvsdbDatabase } from '../provider/ovsdb/client';
import { applyZone, diffZone, planTopology, readZoneState, type TopologyPlan } from '../provider/runtime/cli';

export async function planFrom(db: OvsdbDatabase, text: string, owner: string): Promise<TopologyPlan> {
  const result = planTopology(text, await readZoneState(db, owner));
  if (!result.ok) throw new Error(`the benchmark topology is unusable: ${result.problems[0]!.message}`);
  if (result.plan.problems.length > 0)
    throw new Error(`the benchmark topology is refused: ${result.plan.problems[0]!.message}`);
  return result.plan;
}

export async function reapplyUnchanged(db: OvsdbDatabase, text: string, owner: string): Promise<void> {
  const plan = await planFrom(db, text, owner);
  const result = await applyZone(db, plan.zones[0]!, owner, plan.state);
  if (result.sent)
    throw new Error(
      `a re-apply without change sent ${result.operations} operations: ${result.summary.slice(0, 3).join('; ')}`,
    );
}

export async function diffUnchanged(db: OvsdbDatabase, text: string, owner: string): Promise<void> {
  const drift = await diffZone(db, (await planFrom(db, text, owner)).zones[0]!, owner);
  if (drift.lines.length > 0) throw new Error(`diff without change found drift: ${drift.lines.slice(0, 3).join('; ')}`);
}
