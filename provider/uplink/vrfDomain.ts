/**
 * The effective routing domain of an Uplink-backed CUDN on a node (OKEP-6019, "RouteAdvertisements
 * interaction"; upstream uplink-upstream.md §4.4): the CUDN's own VRF when a RouteAdvertisements
 * that advertises its PodNetwork selects it and the node with a non-default target (`auto` or a
 * name), else the default VRF (no advertisement, `default`, or advertised to both). The uplink
 * always joins the CUDN's own VRF, named as upstream names it. Pure.
 */
import { advertisesCudnPodNetwork, type RouteAdvertisements } from '../model/routeAdvertisements';
import type { Labels } from '../model/selector';

export type RoutingDomain =
  | { kind: 'default'; why: 'not-advertised' | 'default-target' }
  | { kind: 'vrf'; vrf: string; targets: string[]; by: string[] };

export interface VrfCudn {
  name: string;
  /** The cluster-wide network id (names long CUDN VRFs and picks the table when no mgmt port exists). */
  networkId: number;
  labels: Labels;
}

/** Upstream's first table id for per-network routing tables (ovnkube-node's routing-table-id-start). */
export const ROUTING_TABLE_ID_START = 1000;
/** Upstream's table base for VRFs not tied to a management port (the DPU route-import VRF). */
export const ROUTE_IMPORT_TABLE_BASE = 100000;

/** The CUDN's VRF device: its name when it fits 15 characters, else `mp<networkID>-udn-vrf`. */
export function cudnVrfName(cudn: string, networkId: number): string {
  return cudn.length <= 15 ? cudn : `mp${networkId}-udn-vrf`;
}

/** Upstream's management port of a network, whose ifindex picks the VRF table. */
export const managementPortName = (networkId: number): string => `ovn-k8s-mp${networkId}`;

/**
 * The table a new VRF gets: upstream's `ifindex(ovn-k8s-mp<id>) + 1000` when the network's
 * management port exists on the host, else `100000 + networkID` (upstream's rule for a VRF with no
 * management port, the DPU route-import VRF), so it never depends on interface numbering we cannot see.
 */
export function vrfTableFor(networkId: number, managementPortIndex: number | undefined): number {
  return managementPortIndex === undefined
    ? ROUTE_IMPORT_TABLE_BASE + networkId
    : ROUTING_TABLE_ID_START + managementPortIndex;
}

/** Does this RouteAdvertisements advertise the CUDN's pod network on this node? */
export function advertisesCudn(ra: RouteAdvertisements, cudn: VrfCudn, nodeLabels: Labels): boolean {
  return advertisesCudnPodNetwork(ra, cudn.labels, nodeLabels);
}

export function effectiveDomain(cudn: VrfCudn, nodeLabels: Labels, ras: RouteAdvertisements[]): RoutingDomain {
  const matching = ras.filter((ra) => advertisesCudn(ra, cudn, nodeLabels));
  if (matching.length === 0) return { kind: 'default', why: 'not-advertised' };
  const targets = [...new Set(matching.map((ra) => ra.targetVRF ?? 'default'))].sort();
  if (targets.includes('default')) return { kind: 'default', why: 'default-target' };
  return { kind: 'vrf', vrf: cudnVrfName(cudn.name, cudn.networkId), targets, by: matching.map((ra) => ra.name) };
}

/** The VRF a domain needs, `default` for the default VRF (what conflict detection compares). */
export const domainVrf = (domain: RoutingDomain): string => (domain.kind === 'vrf' ? domain.vrf : 'default');
