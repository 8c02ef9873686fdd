/**
 * The Uplink actions of the CLI and the providers: observe (discover every node in parallel) ->
 * plan (provider/uplink) -> one guarded transaction per node whose bridge mappings must change.
 * A node whose write races another writer is read and planned again once. With `vrf` (the
 * RouteAdvertisements and network ids) each node's VRF membership is planned (observe) or applied
 * after its mappings (write), as upstream configures the bridge before the VRF. Unreachable
 * nodes fail alone; the others proceed. Results carry upstream-shaped objects and the SSH round
 * trips. `openHosts` discovers once and keeps the session, so the cluster entry
 * (provider/runtime/cluster) can plan its rows from the UplinkStates before it writes.
 */
import type { Cluster } from '../../model/cluster';
import { dict } from '../../model/dict';
import { success } from '../../model/outcome';
import { conditionTime, stampObjects } from '../../uplink/conditionTimes';
import type { NodeFdbResult } from '../../uplink/fdbPlan';
import type { NodeFlowResult } from '../../uplink/flowPhase';
import { ownedMappingsKey } from '../../uplink/mappings';
import { type NodeDiscovery, type NodeStep, planUplinks, type UplinkPlan } from '../../uplink/plan';
import type { UplinkVrfInput } from '../../uplink/vrfIntents';
import { type NodeVrfReport, vrfOnNodes } from '../vrf/nodes';
import { syncNodeFlows } from './bridgeFlows';
import { gatewayFlowIntents } from './flowIntents';
import { nodeFailure, type SessionOptions, UplinkSession } from './session';
import { fdbOnNodes } from './staticFdb';

export interface UplinkRunOptions extends SessionOptions {
  /** Plan (and on apply, make) VRF membership from these RouteAdvertisements. */
  vrf?: UplinkVrfInput;
  /** The clock of the conditions' lastTransitionTime (tests); default now. */
  now?: () => Date;
  /** Remove the conditions' times this run's objects keep on the nodes (destroy). */
  forget?: boolean;
}

export interface UplinkRunResult extends UplinkPlan {
  /** Per node: what was written, or why not. */
  written: Record<string, { set: string[]; removed: string[] } | { error: string }>;
  roundTrips: number;
  /** Per node with VRF intents: the VRF steps planned and run, or why not. */
  vrf: Record<string, NodeVrfReport>;
  /** Per node planned: the VRF steps that change its membership, bookkeeping left out (drift, when observed). */
  vrfChanges: Record<string, string[]>;
  /** Per discovered node, its gateway bridge flows (when the run knew the network ids). */
  flows: Record<string, NodeFlowResult>;
  /** Per discovered node, the static FDB entries of its Uplink bridges (staticFdb.ts). */
  fdb: Record<string, NodeFdbResult>;
}

/** One command's SSH access to the cluster's nodes and what discovery found on each. */
export interface UplinkHosts {
  session: UplinkSession;
  discovery: Map<string, NodeDiscovery>;
}

function targetsOf(cluster: Cluster) {
  return cluster.inventory.targets?.nodes ?? {};
}

/** Connect to every node of the cluster and discover it (in parallel); close with `closeHosts`. */
export async function openHosts(cluster: Cluster, options: SessionOptions = {}): Promise<UplinkHosts> {
  const session = new UplinkSession(targetsOf(cluster), options);
  const nodes = cluster.inventory.nodes.map((n) => n.name);
  const found = await Promise.all(nodes.map((n) => session.discover(n)));
  return { session, discovery: new Map(nodes.map((n, i) => [n, found[i]!])) };
}

export const closeHosts = (hosts: UplinkHosts): Promise<void> => hosts.session.close();

/**
 * The plan's objects with their conditions' lastTransitionTime, kept from what each node records
 * (conditionTimes.ts); with `write`, the nodes' records made to match (with `forget`, removed). A
 * node whose record cannot be written is already failing elsewhere in the run: its times restart
 * at the next run that reaches it.
 */
async function withTimes(
  hosts: UplinkHosts,
  plan: UplinkPlan,
  owner: string,
  now: () => Date,
  write?: 'record' | 'forget',
): Promise<UplinkPlan> {
  const { session, discovery } = hosts;
  const keptOn = (node: string) => {
    const found = discovery.get(node);
    return found?.ok ? found.value.ovs.externalIds : undefined;
  };
  const stamped = stampObjects(plan, owner, keptOn, conditionTime(now()), write === 'forget');
  if (write)
    await Promise.all(
      [...stamped.writes].map(([node, keys]) => session.writeOwnKeys(node, keys).catch(() => undefined)),
    );
  return { ...plan, uplinks: stamped.uplinks, uplinkStates: stamped.uplinkStates };
}

/** Plan against what discovery found and observe VRF membership; nothing is written. */
export async function observeUplinks(
  hosts: UplinkHosts,
  cluster: Cluster,
  owner: string,
  vrfInput?: UplinkVrfInput,
  now: () => Date = () => new Date(),
): Promise<UplinkRunResult> {
  const { session, discovery } = hosts;
  const plan = planUplinks({ cluster, owner, discovery, vrf: vrfInput });
  const vrf = await vrfOnNodes(plan.nodes, (n) => session.runner(n), owner, false);
  const flowResults = vrfInput ? await flowsOnNodes(hosts, plan, cluster, owner, vrfInput, false) : undefined;
  const fdbResults = await fdbOnNodes(session, discovery, plan, owner, false);
  const after = planUplinks({
    cluster,
    owner,
    discovery,
    vrf: vrfInput,
    vrfResults: vrf.results,
    flowResults,
    fdbResults,
  });
  return {
    ...(await withTimes(hosts, after, owner, now)),
    written: dict(),
    roundTrips: session.roundTrips,
    vrf: vrf.report,
    vrfChanges: vrf.changes,
    flows: dict(flowResults ?? []),
    fdb: dict(fdbResults),
  };
}

async function writeStep(
  hosts: UplinkHosts,
  cluster: Cluster,
  owner: string,
  step: NodeStep,
  vrf?: UplinkVrfInput,
): Promise<string | undefined> {
  const { session, discovery } = hosts;
  for (let attempt = 0; ; attempt++) {
    if (!step.change) return undefined;
    try {
      const externalIds = await session.writeMappings(step.node, step.change, ownedMappingsKey(owner));
      const before = discovery.get(step.node);
      if (before?.ok) discovery.set(step.node, success({ ...before.value, ovs: { ...before.value.ovs, externalIds } }));
      return undefined;
    } catch (error) {
      if (attempt > 0) return nodeFailure(error).why;
      // another writer changed external_ids since we read them: read and plan this node again
      const again = await session.discover(step.node);
      discovery.set(step.node, again);
      if (!again.ok) return again.why;
      step = planUplinks({ cluster, owner, discovery, vrf }).nodes.find((s) => s.node === step.node)!;
    }
  }
}

/**
 * Observe or make `owner`'s gateway bridge flows on every discovered node (the network ids come with the VRF
 * input): the bridges the plan puts networks on, and every other bridge but br-int, which may
 * still carry ours.
 */
async function flowsOnNodes(
  hosts: UplinkHosts,
  plan: UplinkPlan,
  cluster: Cluster,
  owner: string,
  vrfInput: UplinkVrfInput,
  write: boolean,
): Promise<Map<string, NodeFlowResult>> {
  const { session, discovery } = hosts;
  const intents = gatewayFlowIntents(plan, cluster, discovery, vrfInput.networkIds, vrfInput.hostSubnets);
  const nodes = [...discovery.entries()].flatMap(([node, found]) => (found.ok ? [{ node, facts: found.value }] : []));
  const results = await Promise.all(
    nodes.map(({ node, facts }) => {
      const others = facts.ovs.bridges.map((b) => b.name).filter((b) => b !== 'br-int');
      return syncNodeFlows(session.runner(node), owner, intents.get(node) ?? [], others, write);
    }),
  );
  return new Map(nodes.map(({ node }, i) => [node, results[i]!]));
}

/**
 * Plan against what discovery found, write every node's mapping change, make VRF membership,
 * report after (and record the conditions' times on the nodes; `forget` removes them: destroy).
 */
export async function writeUplinks(
  hosts: UplinkHosts,
  cluster: Cluster,
  owner: string,
  vrfInput?: UplinkVrfInput,
  options: { now?: () => Date; forget?: boolean } = {},
): Promise<UplinkRunResult> {
  const { session, discovery } = hosts;
  const plan = planUplinks({ cluster, owner, discovery, vrf: vrfInput });
  const written: UplinkRunResult['written'] = dict();
  const failures = new Map<string, string>();
  await Promise.all(
    plan.nodes
      .filter((s) => s.change)
      .map(async (step) => {
        const error = await writeStep(hosts, cluster, owner, step, vrfInput);
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
  // upstream pins the bridge's MAC right after configuring its ports, before the VRF (gateway_udn.go)
  const fdbResults = await fdbOnNodes(session, discovery, plan, owner, true);
  const vrf = await vrfOnNodes(plan.nodes, (n) => session.runner(n), owner, true);
  const flowResults = vrfInput ? await flowsOnNodes(hosts, plan, cluster, owner, vrfInput, true) : undefined;
  const after = planUplinks({
    cluster,
    owner,
    discovery,
    mappingFailures: failures,
    vrf: vrfInput,
    vrfResults: vrf.results,
    flowResults,
    fdbResults,
  });
  const now = options.now ?? (() => new Date());
  return {
    ...(await withTimes(hosts, after, owner, now, options.forget ? 'forget' : 'record')),
    written,
    roundTrips: session.roundTrips,
    vrf: vrf.report,
    vrfChanges: vrf.changes,
    flows: dict(flowResults ?? []),
    fdb: dict(fdbResults),
  };
}

/** What is left of a cluster when this owner's Uplink state goes: no CUDN names an Uplink, no VRF intents. */
export function withoutUplinkNetworks(cluster: Cluster): Cluster {
  return { ...cluster, networks: [] };
}

export const noVrf: UplinkVrfInput = { routeAdvertisements: [], networkIds: {} };

async function withHosts<T>(
  cluster: Cluster,
  options: SessionOptions,
  body: (hosts: UplinkHosts) => Promise<T>,
): Promise<T> {
  const hosts = await openHosts(cluster, options);
  try {
    return await body(hosts);
  } finally {
    await closeHosts(hosts);
  }
}

/** Observe and plan; nothing is written. */
export function discoverUplinks(
  cluster: Cluster,
  owner: string,
  options: UplinkRunOptions = {},
): Promise<UplinkRunResult> {
  return withHosts(cluster, options, (hosts) => observeUplinks(hosts, cluster, owner, options.vrf, options.now));
}

/** Observe, plan, write every node's mapping change, and report the conditions after the writes. */
export function applyUplinks(
  cluster: Cluster,
  owner: string,
  options: UplinkRunOptions = {},
): Promise<UplinkRunResult> {
  return withHosts(cluster, options, (hosts) =>
    writeUplinks(hosts, cluster, owner, options.vrf, { now: options.now, forget: options.forget }),
  );
}

/**
 * Remove every bridge mapping this owner wrote and release every VRF membership (and VRF device)
 * it made, as if no CUDN named an Uplink any more.
 */
export function destroyUplinks(
  cluster: Cluster,
  owner: string,
  options: UplinkRunOptions = {},
): Promise<UplinkRunResult> {
  return applyUplinks(withoutUplinkNetworks(cluster), owner, { ...options, vrf: noVrf, forget: true });
}
