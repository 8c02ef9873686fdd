/**
 * The cluster-level entry (apply, diff, destroy): Northbound rows of every zone and host state of
 * every node together, typed. Apply writes the zones (one transaction each) and then the nodes
 * (bridge mappings, VRF membership), as ovn-controller needs the rows before a mapping carries
 * anything; diff reads both; destroy removes this owner's rows by their markers and its host state.
 * Each result keeps every zone's outcome (a zone that fails fails alone) and the Uplink section.
 */
import type { Cluster } from '../../model/cluster';
import type { ZoneOutcome } from '../eachZone';
import { closeHosts, noVrf, observeUplinks, openHosts, withoutUplinkNetworks, writeUplinks } from '../uplink/run';
import { observedSection, type UplinkSection, writtenSection } from '../uplink/section';
import type { NodeCredentials } from '../uplink/session';
import { applyZone, destroyZone, type Drift, diffZone, type ZoneResult } from '../zone';
import { type ClusterPlan, hasUplinks } from './plan';
import { zonePlanUnlessHeldBack } from './undiscovered';
import { onZones, type ZoneTargets } from './zones';

export interface ClusterResult<T> {
  zones: ZoneOutcome<T>[];
  /** Absent when the cluster has no Uplinks, or its nodes were not discovered. */
  uplinks?: UplinkSection;
}

/**
 * Every zone's rows and state, then every node's Uplink state. A node's own zone is not written
 * while discovery cannot reach the node and an Uplink CUDN is active on it (undiscovered.ts).
 */
export async function applyCluster(plan: ClusterPlan, targets: ZoneTargets): Promise<ClusterResult<ZoneResult>> {
  const { topology, owner } = plan;
  const zonePlan = zonePlanUnlessHeldBack(plan, 'written');
  const zones = await onZones(targets, (zone) => applyZone(zone.db, zonePlan(zone.name), owner, topology.state));
  const planned = plan.uplinks;
  if (!planned?.hosts) return { zones };
  const written = await writeUplinks(planned.hosts, plan.cluster, owner, planned.vrf);
  return { zones, uplinks: writtenSection(written, planned.replacements) };
}

/** Every zone's drift and every node's, nothing written; a zone apply would not write is not compared. */
export async function diffCluster(plan: ClusterPlan, targets: ZoneTargets): Promise<ClusterResult<Drift>> {
  const { owner } = plan;
  const zonePlan = zonePlanUnlessHeldBack(plan, 'compared');
  const zones = await onZones(targets, (zone) => diffZone(zone.db, zonePlan(zone.name), owner));
  const planned = plan.uplinks;
  if (!planned?.hosts) return { zones };
  const observed = await observeUplinks(planned.hosts, plan.cluster, owner, planned.vrf);
  return { zones, uplinks: observedSection(observed, planned.replacements) };
}

export interface DestroyInput {
  cluster: Cluster;
  owner: string;
  /** Remove the host state too (the nodes have SSH targets). */
  hosts: boolean;
  ssh?: NodeCredentials;
}

/** Every row of this owner by its markers, then every bridge mapping and VRF membership it made. */
export async function destroyCluster(input: DestroyInput, targets: ZoneTargets): Promise<ClusterResult<ZoneResult>> {
  const zones = await onZones(targets, (zone) => destroyZone(zone.db, zone.name, input.owner));
  if (!input.hosts || !hasUplinks(input.cluster)) return { zones };
  const cluster = withoutUplinkNetworks(input.cluster);
  const hosts = await openHosts(cluster, { ssh: input.ssh });
  try {
    const written = await writeUplinks(hosts, cluster, input.owner, noVrf, { forget: true });
    return { zones, uplinks: writtenSection(written, []) };
  } finally {
    await closeHosts(hosts);
  }
}
