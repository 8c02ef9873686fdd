/**
 * Applying a node's VRF plan: observe -> plan -> run the steps in order through the HostRunner.
 * Every step is idempotent or tolerated ("File exists" for a route already in place), so a second
 * apply plans no steps at all; the first failing step stops the rest (the next apply re-plans from
 * what the host then shows).
 */
import type { HostRunner } from '../../host';
import { planVrf, type VrfIntent, type VrfOutcome, type VrfPlan, type VrfStep } from '../../uplink/vrf';
import { VrfHostError } from './errors';
import { observeVrfHost } from './observe';

export interface VrfApplyResult {
  plan: VrfPlan;
  outcomes: VrfOutcome[];
  /** Summaries of the steps that ran. */
  ran: string[];
}

async function runStep(runner: HostRunner, step: VrfStep): Promise<void> {
  const result = await runner.run(step.argv, step.stdin === undefined ? {} : { stdin: step.stdin });
  if (result.exitCode === 0) return;
  if (step.tolerate === 'exists' && /File exists/.test(result.stderr)) return;
  throw new VrfHostError(
    runner.describe,
    step.argv,
    `${step.summary}: ${result.stderr.trim() || `exit ${result.exitCode}`}`,
  );
}

export async function planVrfOnHost(
  runner: HostRunner,
  node: string,
  intents: VrfIntent[],
  owner: string,
): Promise<VrfPlan> {
  return planVrf(await observeVrfHost(runner, node), intents, owner);
}

export async function applyVrf(
  runner: HostRunner,
  node: string,
  intents: VrfIntent[],
  owner: string,
): Promise<VrfApplyResult> {
  const plan = await planVrfOnHost(runner, node, intents, owner);
  const ran: string[] = [];
  for (const step of plan.steps) {
    await runStep(runner, step);
    ran.push(step.summary);
  }
  return { plan, outcomes: plan.outcomes, ran };
}
