/**
 * The Uplink actions of the CLI and the providers: observe (discover every node in parallel) ->
 * plan (provider/uplink) -> one guarded transaction per node whose bridge mappings must change.
 * A node whose write races another writer is read and planned again once. With `vrf` (the
 * RouteAdvertisements and network ids) each node's VRF membership is planned (discover) or applied
 * after its mappings (apply, destroy), as upstream configures the bridge before the VRF. Unreachable
 * nodes fail alone; the others proceed. Results carry upstream-shaped objects and the SSH round trips.
 */
import type { Cluster } from '../../model/cluster';
import { ownedMappingsKey } from '../../uplink/mappings';
import { type NodeDiscovery, type NodeStep, planUplinks, type UplinkPlan } from '../../uplink/plan';
import type { UplinkVrfInput } from '../../uplink/vrfIntents';
import { type NodeVrfReport, vrfOnNodes } from '../vrf/nodes';
import { nodeFailure, type SessionOptions, UplinkSession } from './session';
import { dict } from '../../model/dict';

export interface UplinkRunOptions extends SessionOptions {
  /** Plan (and on apply, make) VRF membership from these RouteAdvertisements. */
  vrf?: UplinkVrfInput;
}

export interface UplinkRunResult extends UplinkPlan {
  /** Per node: what was written, or why not. */
  written: Record<string, { set: string[]; removed: string[] } | { error: string }>;
  roundTrips: number;
  /** Per node with VRF intents: the VRF steps planned and run, or why not. */
  vrf: Record<string, NodeVrfReport>;
}

async function discoverAll(session: UplinkSession, cluster: Cluster): Promise<Map<string, NodeDiscovery>> {
  const nodes = cluster.inventory.nodes.map((n) => n.name);
  const found = await Promise.all(nodes.map((n) => session.discover(n)));
  return new Map(nodes.map((n, i) => [n, found[i]!]));
}

function targetsOf(cluster: Cluster) {
  return cluster.inventory.targets?.nodes ?? {};
}

/** Observe and plan; nothing is written. */
export async function discoverUplinks(
  cluster: Cluster,
  owner: string,
  options: UplinkRunOptions = {},
): Promise<UplinkRunResult> {
  const session = new UplinkSession(targetsOf(cluster), options);
  try {
    const discovery = await discoverAll(session, cluster);
    const plan = planUplinks({ cluster, owner, discovery, vrf: options.vrf });
    const vrf = await vrfOnNodes(plan.nodes, (n) => session.runner(n), owner, false);
    return {
      ...planUplinks({ cluster, owner, discovery, vrf: options.vrf, vrfResults: vrf.results }),
      written: dict(),
      roundTrips: session.roundTrips,
      vrf: vrf.report,
    };
  } finally {
    await session.close();
  }
}

async function writeStep(
  session: UplinkSession,
  cluster: Cluster,
  owner: string,
  step: NodeStep,
  discovery: Map<string, NodeDiscovery>,
  vrf?: UplinkVrfInput,
): Promise<string | undefined> {
  for (let attempt = 0; ; attempt++) {
    if (!step.change) return undefined;
    try {
      const externalIds = await session.writeMappings(step.node, step.change, ownedMappingsKey(owner));
      const before = discovery.get(step.node);
      if (before?.ok)
        discovery.set(step.node, { ok: true, facts: { ...before.facts, ovs: { ...before.facts.ovs, externalIds } } });
      return undefined;
    } catch (error) {
      if (attempt > 0) return nodeFailure(error).message;
      // another writer changed external_ids since we read them: read and plan this node again
      const again = await session.discover(step.node);
      discovery.set(step.node, again);
      if (!again.ok) return again.message;
      step = planUplinks({ cluster, owner, discovery, vrf }).nodes.find((s) => s.node === step.node)!;
    }
  }
}

/** Observe, plan, write every node's mapping change, and report the conditions after the writes. */
export async function applyUplinks(
  cluster: Cluster,
  owner: string,
  options: UplinkRunOptions = {},
): Promise<UplinkRunResult> {
  const session = new UplinkSession(targetsOf(cluster), options);
  try {
    const discovery = await discoverAll(session, cluster);
    const plan = planUplinks({ cluster, owner, discovery, vrf: options.vrf });
    const written: UplinkRunResult['written'] = dict();
    const failures = new Map<string, string>();
    await Promise.all(
      plan.nodes
        .filter((s) => s.change)
        .map(async (step) => {
          const error = await writeStep(session, cluster, owner, step, discovery, options.vrf);
          if (error !== undefined) {
            failures.set(step.node, error);
            written[step.node] = { error };
          } else
            written[step.node] = {
              set: step.change!.set.map((m) => `${m.network}:${m.bridge}`),
              removed: step.change!.removed,
            };
        }),
    );
    const vrf = await vrfOnNodes(plan.nodes, (n) => session.runner(n), owner, true);
    const after = planUplinks({
      cluster,
      owner,
      discovery,
      mappingFailures: failures,
      vrf: options.vrf,
      vrfResults: vrf.results,
    });
    return { ...after, written, roundTrips: session.roundTrips, vrf: vrf.report };
  } finally {
    await session.close();
  }
}

/** Drift in words: every node whose bridge mappings differ from what the plan implies. */
export function uplinkDriftLines(result: UplinkPlan): string[] {
  return result.nodes.flatMap((step) => {
    if (step.error) return [`node ${step.node}: not discovered (${step.error.reason}): ${step.error.message}`];
    const vrf =
      (step.vrf ?? []).length > 0 || step.conflicts
        ? vrfDriftLines(step.node, (result as Partial<UplinkRunResult>).vrf?.[step.node])
        : [];
    if (!step.change) return vrf;
    return [
      ...vrf,
      ...step.change.set.map((m) => `node ${step.node}: ovn-bridge-mappings lacks ${m.network}:${m.bridge}`),
      ...step.change.removed.map(
        (n) => `node ${step.node}: ovn-bridge-mappings still maps ${n}, which no CUDN of this owner uses`,
      ),
    ];
  });
}

function vrfDriftLines(node: string, report: NodeVrfReport | undefined): string[] {
  if (!report || 'error' in report) return [];
  return report.steps
    .filter((s) => !/^record |^forget the membership/.test(s))
    .map((s) => `node ${node}: VRF membership differs: would ${s}`);
}

/**
 * Remove every bridge mapping this owner wrote and release every VRF membership (and VRF device)
 * it made, as if no CUDN named an Uplink any more.
 */
export async function destroyUplinks(
  cluster: Cluster,
  owner: string,
  options: UplinkRunOptions = {},
): Promise<UplinkRunResult> {
  return applyUplinks({ ...cluster, networks: [] }, owner, {
    ...options,
    vrf: { routeAdvertisements: [], networkIds: {} },
  });
}
