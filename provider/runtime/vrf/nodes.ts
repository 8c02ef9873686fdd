/**
 * VRF membership on every node of an Uplink plan, through each node's HostRunner: observe and plan
 * (diff, plan) or observe, plan and run the steps (apply, destroy), in parallel across nodes. A
 * node that fails (unreachable, a step refused by its kernel) fails alone with its message; its
 * CUDNs then report UplinkVRFAttachmentFailed (a lost node: see vrfPhase).
 */
import { HostError, type HostRunner } from '../../host';
import type { NodeStep } from '../../uplink/plan';
import { membershipChanges, type NodeVrfResult, type VrfOutcome } from '../../uplink/vrf';
import { applyVrf, planVrfOnHost } from './apply';

export type NodeVrfReport = { steps: string[]; ran: string[]; outcomes: VrfOutcome[] } | { error: string };

export interface VrfRun {
  results: Map<string, NodeVrfResult>;
  report: Record<string, NodeVrfReport>;
  /** Per node planned: the steps that change its membership (bookkeeping left out), in words. */
  changes: Record<string, string[]>;
}

async function onNode(
  runner: HostRunner,
  step: NodeStep,
  owner: string,
  apply: boolean,
): Promise<{ result: NodeVrfResult; report: NodeVrfReport; changes?: string[] }> {
  try {
    if (apply) {
      const done = await applyVrf(runner, step.node, step.vrf!, owner);
      return {
        result: { ok: true, outcomes: done.outcomes, applied: true },
        report: { steps: done.plan.steps.map((s) => s.summary), ran: done.ran, outcomes: done.outcomes },
        changes: membershipChanges(done.plan),
      };
    }
    const plan = await planVrfOnHost(runner, step.node, step.vrf!, owner);
    return {
      result: { ok: true, outcomes: plan.outcomes, applied: false },
      report: { steps: plan.steps.map((s) => s.summary), ran: [], outcomes: plan.outcomes },
      changes: membershipChanges(plan),
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const lost = error instanceof HostError && error.failure !== 'argv';
    return { result: { ok: false, why, ...(lost ? { lost } : {}) }, report: { error: why } };
  }
}

/** Nodes with VRF intents (the plan had RouteAdvertisements input) and a successful discovery. */
export async function vrfOnNodes(
  steps: NodeStep[],
  runnerOf: (node: string) => HostRunner,
  owner: string,
  apply: boolean,
): Promise<VrfRun> {
  const run: VrfRun = { results: new Map(), report: {}, changes: {} };
  const nodes = steps.filter((s) => s.vrf !== undefined && !s.error);
  const done = await Promise.all(nodes.map((s) => onNode(runnerOf(s.node), s, owner, apply)));
  nodes.forEach((s, i) => {
    run.results.set(s.node, done[i]!.result);
    run.report[s.node] = done[i]!.report;
    const changes = done[i]!.changes;
    if (changes) run.changes[s.node] = changes;
  });
  return run;
}
