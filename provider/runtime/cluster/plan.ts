/**
 * The cluster-level entry (plan): what `ovnk plan|apply|diff` and the providers plan before they
 * write, Northbound rows and host state together. Discovery comes first where the rows need it:
 * with `discover`, a cluster with Uplinks has its nodes discovered over SSH (the session stays
 * open for the write), then the topology is planned with the UplinkStates discovery gave (an
 * Uplink CUDN's gateway routers take their external side from them, issue 16 point 6), then the
 * Uplink plan with the topology's network ids (VRF names). Without `discover` the Uplink section
 * is offline and Uplink CUDNs' gateway routers have no external side. `closeCluster` releases
 * the SSH session.
 */
import type { OtherOwners } from '../../alloc/others';
import type { Cluster } from '../../model/cluster';
import { uplinksOf } from '../../model/cudn';
import { conditionTime, stampObjects } from '../../uplink/conditionTimes';
import { planUplinks, type UplinkPlan } from '../../uplink/plan';
import type { UplinkProblem } from '../../uplink/problems';
import { type UplinkReplacement, uplinkReplacements } from '../../uplink/replace';
import type { UplinkVrfInput } from '../../uplink/vrfIntents';
import { type PlanResult, planTopology } from '../plan';
import type { RuntimeState } from '../state';
import type { TopologyPlan } from '../topologyPlan';
import { closeHosts, noVrf, observeUplinks, openHosts, type UplinkHosts } from '../uplink/run';
import { observedSection, offlineSection, type UplinkSection } from '../uplink/section';
import type { NodeCredentials } from '../uplink/session';

export interface ClusterInput {
  cluster: Cluster;
  owner: string;
  /** The state stored with the rows (allocations stay stable against it). */
  previous?: RuntimeState;
  /** The other owners' allocations in the target Northbounds: taken for this plan (alloc/others.ts). */
  others?: OtherOwners;
}

export interface ClusterPlanOptions {
  /** Only this zone's rows (default: every zone). */
  zone?: string;
  /** Discover the nodes of a cluster with Uplinks over SSH (its node targets). */
  discover?: boolean;
  /** SSH credentials for node targets without a key file. */
  ssh?: NodeCredentials;
}

/** The Uplink part of a plan: the offline plan (problems, selection), the hosts when discovered, the VRF input. */
export interface PlannedUplinks {
  offline: UplinkPlan;
  hosts?: UplinkHosts;
  vrf: UplinkVrfInput;
  replacements: UplinkReplacement[];
}

export interface ClusterPlan extends ClusterInput {
  topology: TopologyPlan;
  /** Absent when no Uplink and no CUDN naming one is in the cluster. */
  uplinks?: PlannedUplinks;
}

export type ClusterPlanResult = Exclude<PlanResult, { ok: true }> | { ok: true; plan: ClusterPlan };

export function hasUplinks(cluster: Cluster): boolean {
  return (cluster.uplinks?.length ?? 0) > 0 || cluster.networks.some((n) => uplinksOf(n) !== undefined);
}

/** Whether every node of the cluster has an SSH target (discovery can reach it). */
export function hasNodeTargets(cluster: Cluster): boolean {
  const { nodes, targets } = cluster.inventory;
  return nodes.length > 0 && nodes.every((n) => targets?.nodes[n.name] !== undefined);
}

/** Whether the last apply left Uplink host state: some CUDN named an Uplink then. */
export function hadUplinks(previous: RuntimeState | undefined): boolean {
  return Object.values(previous?.uplinks ?? {}).some((names) => names.length > 0);
}

/**
 * A cluster whose last Uplink went: no CUDN names one, so planning against it releases every
 * bridge mapping and VRF membership this owner made, and without network ids (`noVrf`) every
 * gateway flow too, as destroy does; the Uplink section reports it. Without this, host state
 * outlived the Uplinks that made it.
 */
async function releasingUplinks(
  input: ClusterInput,
  topology: TopologyPlan,
  options: ClusterPlanOptions,
): Promise<ClusterPlan> {
  const { cluster, owner } = input;
  const offline = planUplinks({ cluster, owner });
  const hosts = options.discover ? await openHosts(cluster, { ssh: options.ssh }) : undefined;
  const replacements = uplinkReplacements(input.previous?.uplinks, cluster.networks);
  return { ...input, topology, uplinks: { offline, hosts, vrf: noVrf, replacements } };
}

export async function planCluster(input: ClusterInput, options: ClusterPlanOptions = {}): Promise<ClusterPlanResult> {
  const { cluster, owner, previous } = input;
  if (!hasUplinks(cluster)) {
    const topology = planTopology(cluster, previous, { zone: options.zone, others: input.others });
    if (!topology.ok) return topology;
    if (!hadUplinks(previous)) return { ok: true, plan: { ...input, topology: topology.plan } };
    return { ok: true, plan: await releasingUplinks(input, topology.plan, options) };
  }
  const offline = planUplinks({ cluster, owner });
  const hosts = options.discover ? await openHosts(cluster, { ssh: options.ssh }) : undefined;
  // the gateway routers of Uplink CUDNs take their external side from the discovered UplinkStates
  const uplinkStates = hosts ? planUplinks({ cluster, owner, discovery: hosts.discovery }).uplinkStates : [];
  const topology = planTopology(cluster, previous, { zone: options.zone, others: input.others, uplinkStates });
  if (!topology.ok) {
    if (hosts) await closeHosts(hosts);
    return topology;
  }
  const vrf = {
    routeAdvertisements: cluster.routeAdvertisements ?? [],
    networkIds: topology.plan.allocation.networkIds,
    hostSubnets: topology.plan.allocation.hostSubnets,
  };
  const replacements = uplinkReplacements(previous?.uplinks, cluster.networks);
  return { ok: true, plan: { ...input, topology: topology.plan, uplinks: { offline, hosts, vrf, replacements } } };
}

/** Every refusal of the plan: the topology's and the Uplinks'. */
export function refusals(plan: ClusterPlan): (TopologyPlan['problems'][number] | UplinkProblem)[] {
  return [...plan.topology.problems, ...(plan.uplinks?.offline.problems ?? [])];
}

export async function closeCluster(plan: ClusterPlan): Promise<void> {
  if (plan.uplinks?.hosts) await closeHosts(plan.uplinks.hosts);
}

/** The Uplink section a plan shows: observed on the discovered nodes (VRF planned too), else offline. */
export async function planUplinkSection(plan: ClusterPlan): Promise<UplinkSection | undefined> {
  const planned = plan.uplinks;
  if (!planned) return undefined;
  if (!planned.hosts) {
    // no node is reached: nothing keeps a time, so every condition is new as of now
    const now = conditionTime(new Date());
    const stamped = stampObjects(planned.offline, plan.owner, () => undefined, now);
    return offlineSection({ ...planned.offline, ...stamped }, planned.replacements);
  }
  const observed = await observeUplinks(planned.hosts, plan.cluster, plan.owner, planned.vrf);
  return observedSection(observed, planned.replacements);
}
