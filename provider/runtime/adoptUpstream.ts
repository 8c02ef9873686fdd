/**
 * Taking over the rows upstream wrote, for OKEP-5094's rolling upgrade of a cluster ovn-kubernetes
 * ran until now: its zones' Northbounds hold the old Layer2 topology without our owner marker.
 * Such rows are ours only when the user says so (the Inventory's `spec.adoptUpstreamRows: true`):
 * the apply's observe finds them (nb/upstreamRows.ts) and its one transaction takes them over:
 * updated to the plan with our owner marker (their identities into our ledger for
 * Static_MAC_Binding), and what the plan no longer holds removed. Without it, an apply that
 * finds them refuses, naming them, before anything changes.
 *
 * Upstream's rows are recognised as those carrying `k8s.ovn.org/network` of a network the zone
 * renders (or `k8s.ovn.org/owner-controller` its network controller), no `ovnk.io/owner`, and an
 * identity (name, upstream id or index) among the zone's planned rows. Taken over with them: rows
 * without any external_ids key whose identity we plan (upstream's Gateway_Chassis, its `-upgrade`
 * router port), and upstream's ports, routes, policies and NATs of those networks that the plan
 * does not hold (the old topology's, which the apply then removes). Upstream's other rows the plan
 * does not hold (ACLs, port groups, address sets, load balancers of what is not modelled) stay
 * upstream's. Rows of another ovnk owner are never touched.
 */
import { NETWORK_KEY, OWNER_CONTROLLER_KEY, TOPOLOGY_KEY } from '../model/externalIds';
import { describeRow } from '../nb/desired';
import type { Observation } from '../nb/observation';
import type { Upstream } from '../nb/observation';
import { networkControllerName } from '../topology/names';
import type { DesiredRow } from '../topology/rows';

/**
 * Where the rows of the old Layer2 topology that the plan no longer holds live (OKEP-5094 "After
 * upgrade cleanups": ports, routes, policies and NATs of the gateway routers and the layer2 switch).
 */
const OLD_TOPOLOGY_TABLES = [
  'Logical_Switch_Port',
  'Logical_Router_Port',
  'Logical_Router_Static_Route',
  'Logical_Router_Policy',
  'NAT',
];

/** Refusal: the zone's Northbound holds upstream's rows of our networks, and the user did not ask to take them over. */
export class UpstreamRowsError extends Error {
  override name = 'UpstreamRowsError';
  constructor(
    readonly endpoint: string,
    readonly rows: string[],
  ) {
    const shown = rows.slice(0, 8).join(', ');
    const more = rows.length > 8 ? ` and ${rows.length - 8} more` : '';
    super(
      `${endpoint}: ${rows.length} rows of the planned networks exist without an ovnk owner marker (written by ovn-kubernetes?): ${shown}${more}; they are left alone and nothing was written. To take them over (e.g. to upgrade a Layer2 network ovn-kubernetes rendered), set spec.adoptUpstreamRows: true in the Inventory`,
    );
  }
}

/**
 * Upstream's network topologies (go-controller/pkg/types/const.go Layer3Topology, Layer2Topology,
 * LocalnetTopology): every switch and router upstream writes for a user-defined network carries
 * `k8s.ovn.org/topology` beside `k8s.ovn.org/network` (util.GenerateExternalIDsForSwitchOrRouter,
 * topology/topologyfactory.go newClusterRouter and NewJoinSwitch), so asking for these three
 * finds them for every network at once.
 */
const TOPOLOGIES = ['layer2', 'layer3', 'localnet'];

/**
 * Upstream's rows of the zone's networks, for observe: tagged `k8s.ovn.org/network` of a network
 * the zone renders or `k8s.ovn.org/owner-controller` its network controller (ACLs, port groups);
 * upstream tags every switch and router of a network, so those are probed on every apply (by
 * topology, whatever the network: TOPOLOGIES). Copp and meters upstream wrote stay theirs
 * (zone.ts leaves them out of the desired rows).
 */
export function upstreamOf(rows: readonly DesiredRow[]): Upstream | undefined {
  const networks = new Set<string>();
  for (const row of rows) {
    const network = (row.columns.external_ids as Record<string, string> | undefined)?.[NETWORK_KEY];
    if (network !== undefined) networks.add(network);
  }
  if (networks.size === 0) return undefined;
  const tagged = [...networks].sort().map((n): [string, string] => [NETWORK_KEY, n]);
  return {
    tags: [
      ...tagged,
      ...[...networks].sort().map((n): [string, string] => [OWNER_CONTROLLER_KEY, networkControllerName(n)]),
    ],
    probe: {
      tables: ['Logical_Switch', 'Logical_Router'],
      tags: tagged,
      by: TOPOLOGIES.map((t): [string, string] => [TOPOLOGY_KEY, t]),
    },
    leftovers: OLD_TOPOLOGY_TABLES,
    keep: ['Copp', 'Meter', 'Meter_Band'],
  };
}

/**
 * After observe: upstream's rows found are refused (UpstreamRowsError) unless `adopt`, when the
 * apply's transaction takes them over; returns that, in words.
 */
export function takeOverUpstreamRows(observation: Observation, endpoint: string, adopt: boolean): string[] {
  const twins = observation.upstream ?? [];
  if (twins.length === 0) return [];
  if (!adopt)
    throw new UpstreamRowsError(
      endpoint,
      twins.filter((t) => t.tagged).map((t) => describeRow(t.table, t.identity)),
    );
  return [`took over ${twins.length} rows written without an owner marker (spec.adoptUpstreamRows)`];
}
