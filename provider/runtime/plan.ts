/**
 * The one plan pipeline, pure: behind `ovnk plan/apply/diff/destroy`, the providers' check step
 * (allocateTopology, which stops before rendering rows: each per-zone resource renders its own
 * slice) and the benchmarks. Text, documents or objects -> Cluster (shapes and network rules) ->
 * connect validation -> allocation (stable against the previous state) -> the renderers' inputs
 * -> (planTopology) per zone the desired rows (networks, connects, shared Copp/meters) and the
 * pods to plug. Input problems stop before allocation; allocation and connect problems are
 * refusals (nothing may be applied).
 *
 * A zone's rows include the Static_MAC_Binding rows of its gateway routers' external ports
 * (rendered when the Inventory gives a node's gateway details). The table has no external_ids:
 * nb owns these rows through its ledger (nb/ledger.ts), so destroy removes exactly ours.
 */
import { allocateCluster, type ClusterAllocation } from '../alloc/cluster';
import { type OtherOwners, takenByOthers } from '../alloc/others';
import { validateConnects } from '../connect/validate';
import { prepareZones, type ZonePlan as ConnectZones } from '../connect/zones';
import { buildCluster, type Cluster } from '../model/cluster';
import { loadDocuments, loadObjects, type LoadedDocument } from '../model/load';
import { renderRefusals } from '../model/networkRules';
import { type Rejection, rejection } from '../model/outcome';
import type { Problem } from '../model/problem';
import type { DesiredRow } from '../nb/desired';
import { TopologyInputError } from '../topology/errors';
import { topologyInputs, type TopologyInputs, type ZoneRenderInputs } from '../topology/fromCluster';
import { joinSubnetRefusals } from '../topology/joinFit';
import { masqueradeRefusals } from '../topology/masqueradeFit';
import { networkEndpoints } from '../topology/services';
import type { UplinkState } from '../uplink/conditions';
import { uplinksState } from '../uplink/replace';
import { routerGateways } from '../uplink/routerGateway';
import { podPlugs } from './pods';
import { renderProblem } from './renderProblem';
import { runtimeStateVersion, type RuntimeState } from './state';
import type { TopologyPlan, ZonePlan } from './topologyPlan';
import { planWarnings } from './warnings';
import { zoneCounts, zoneRows } from './zoneRows';

export type { TopologyPlan, ZonePlan } from './topologyPlan';
export { loadDocuments } from '../model/load';

/** A connect this plan replaces (its connectSubnets changed since the stored state), with the reason in words. */
export interface PlannedReplacement {
  kind: 'ClusterNetworkConnect';
  name: string;
  from: { cidr: string; networkPrefix: number }[];
  to: { cidr: string; networkPrefix: number }[];
  message: string;
}

export function connectReplacements(allocation: ClusterAllocation): PlannedReplacement[] {
  return Object.entries(allocation.connects).flatMap(([name, c]) =>
    c.replaced ? [{ kind: 'ClusterNetworkConnect' as const, name, ...c.replaced }] : [],
  );
}

/** The plan, or the input's problems (a Rejection: nothing can be planned). */
export type PlanResult = Rejection | { ok: true; plan: TopologyPlan };

export interface PlanOptions {
  /** Only this zone (default: every zone). */
  zone?: string;
  /** The allocation states of the other owners of the Northbound: their ids and keys are taken (alloc/others.ts). */
  others?: OtherOwners;
  /** The UplinkStates discovery gave: the external side of Uplink CUDNs' gateway routers (none: not rendered). */
  uplinkStates?: readonly UplinkState[];
  /** Zones hold their rows (default: while all zones' rows together stay within HELD_ROWS). */
  holdRows?: boolean;
}

/**
 * What a plan starts from: YAML or JSON text (`ovnk plan -f`), loaded documents, the objects
 * themselves (a Pulumi program's inputs, no text in between) or a Cluster already built.
 */
export type PlanSource = string | LoadedDocument[] | { objects: readonly unknown[] } | Cluster;

/** Documents -> Cluster, or the problems that make the input unusable. */
export function buildTopology(
  source: string | LoadedDocument[] | { objects: readonly unknown[] },
): { ok: true; cluster: Cluster } | Rejection {
  const loaded =
    typeof source === 'string'
      ? loadDocuments(source)
      : Array.isArray(source)
        ? { documents: source, problems: [] }
        : loadObjects(source.objects);
  if (loaded.problems.length > 0) return rejection(loaded.problems);
  const built = buildCluster(loaded.documents);
  return built.problems.length > 0 ? rejection(built.problems) : { ok: true, cluster: built.cluster };
}

/**
 * A topology allocated, with the renderers' inputs: what planTopology renders and the Pulumi check
 * cuts slices from.
 */
export interface AllocatedTopology {
  cluster: Cluster;
  allocation: ClusterAllocation;
  /** The allocation state and pod addresses to keep (planTopology adds the Uplink CUDNs' state). */
  state: RuntimeState;
  /** Refusals: allocation and connect problems. Nothing may be applied while there are any. */
  problems: Problem[];
  inputs: TopologyInputs;
}

export type AllocateResult = Rejection | { ok: true; allocated: AllocatedTopology };

/** Model, connect validation, allocation stable against `previous`, and the renderers' inputs; no row rendered. */
export function allocateTopology(
  source: PlanSource,
  previous?: RuntimeState,
  options: PlanOptions = {},
): AllocateResult {
  const built = isCluster(source) ? { ok: true as const, cluster: source } : buildTopology(source);
  if (!built.ok) return built;
  const { cluster } = built;
  const taken = takenByOthers(options.others).networkIds;
  const connects = validateConnects(cluster, previous?.allocation?.networkIds, taken);
  const allocation = allocateCluster({ cluster, connects }, previous?.allocation, options.others);
  const problems = [
    ...renderRefusals(cluster),
    ...masqueradeRefusals(cluster, allocation),
    ...joinSubnetRefusals(cluster, allocation),
    ...allocation.problems,
    ...Object.values(allocation.connects).flatMap((c) => c.problems),
  ];
  return refusingInputErrors(cluster, () => {
    const inputs = topologyInputs(
      cluster,
      allocation,
      previous?.pods ?? {},
      options.zone,
      previous?.podTunnels,
      routerGateways(options.uplinkStates ?? []),
    );
    const tunnels = Object.keys(inputs.tunnels).length > 0 ? { podTunnels: inputs.tunnels } : {};
    const state: RuntimeState = {
      version: runtimeStateVersion,
      allocation: allocation.state,
      pods: inputs.pods,
      ...tunnels,
    };
    return { ok: true, allocated: { cluster, allocation, state, problems, inputs } };
  });
}

/** The whole plan: allocateTopology, then per zone the rows (networks, connects, shared rows) and the pods to plug. */
export function planTopology(source: PlanSource, previous?: RuntimeState, options: PlanOptions = {}): PlanResult {
  const result = allocateTopology(source, previous, options);
  if (!result.ok) return result;
  const { cluster, allocation, inputs, problems } = result.allocated;
  return refusingInputErrors(cluster, () => {
    const connectPlan = prepareZones(cluster, allocation, networkEndpoints(inputs.zones[0]?.inputs ?? []));
    const zones = zonePlans(inputs.zones, connectPlan, options.holdRows);
    if (cluster.inventory.adoptUpstreamRows) for (const zone of zones) zone.adoptUpstream = true;
    const state: RuntimeState = { ...result.allocated.state, uplinks: uplinksState(cluster.networks) };
    const warnings = planWarnings(allocation, cluster, inputs.zones, options.uplinkStates ?? []);
    return { ok: true, plan: { cluster, allocation, state, zones, problems, warnings } };
  });
}

const isCluster = (source: PlanSource): source is Cluster =>
  typeof source !== 'string' && !Array.isArray(source) && !('objects' in source);

/** `body`'s result, or the TopologyInputError it threw as an input problem naming the object. */
function refusingInputErrors<T>(cluster: Cluster, body: () => T): T | Rejection {
  try {
    return body();
  } catch (error) {
    if (error instanceof TopologyInputError) return rejection([renderProblem(error, cluster)]);
    throw error;
  }
}

/**
 * The zones' plans. A per-node cluster's zones together hold N² rows (issue 25.4): when the first
 * zone's rows times the zones pass `HELD_ROWS`, each zone is counted per table without listing
 * its remote rows (zoneRows.ts zoneCounts) and its rows are rendered again each time they are read
 * (the same rows), so a plan of 2,000 zones holds one zone's rows at a time. Either way every zone
 * is rendered here once, so bad input is refused now, not when a zone's rows are read.
 */
function zonePlans(inputs: readonly ZoneRenderInputs[], connectPlan: ConnectZones, holdRows?: boolean): ZonePlan[] {
  const first = inputs[0] && zoneRows(inputs[0], connectPlan);
  const hold = holdRows ?? (first?.rows.length ?? 0) * inputs.length <= HELD_ROWS;
  return inputs.map((z, i) => {
    const plan = { name: z.zone.name, zone: z.zone, pods: z.inputs.flatMap((input) => podPlugs(input)) };
    if (hold) {
      const { rows, notes } = i === 0 ? first! : zoneRows(z, connectPlan);
      return { ...plan, rows, notes, tableCounts: tableCounts(rows) };
    }
    const { counts, notes } =
      i === 0 ? { counts: tableCounts(first!.rows), notes: first!.notes } : zoneCounts(z, connectPlan);
    return {
      ...plan,
      tableCounts: counts,
      get rows() {
        return zoneRows(z, connectPlan).rows;
      },
      notes,
    };
  });
}

function tableCounts(rows: readonly DesiredRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.table, (counts.get(row.table) ?? 0) + 1);
  return counts;
}

/** Past this many rows in all zones together, zones do not hold their rows (zonePlans). */
export const HELD_ROWS = 2_000_000;
