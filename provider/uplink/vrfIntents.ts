/**
 * From the Uplink plan to VRF membership (OKEP-6019 with RouteAdvertisements): per node, one
 * intent per CUDN active there whose UplinkState resolved (its host interface and bridge, its
 * effective routing domain), the symmetric bridge conflicts among them, and how a node's VRF
 * result turns into the phase of each CUDN's gateway configuration (upstream's reasons:
 * UplinkConfigurationConflict for conflicts, UplinkVRFAttachmentFailed for any other VRF failure).
 * Pure.
 */
import type { InventoryNode } from '../model/inventoryNode';
import type { Network } from '../model/network';
import type { Failure } from '../model/outcome';
import type { RouteAdvertisements } from '../model/routeAdvertisements';
import type { GatewayPhase } from './gateway';
import { bridgeConflicts } from './vrfConflict';
import { effectiveDomain } from './vrfDomain';
import type { VrfIntent, VrfOutcome } from './vrfPlan';

export interface UplinkVrfInput {
  routeAdvertisements: RouteAdvertisements[];
  /** Network ids by OVN network name (the allocation's). */
  networkIds: Readonly<Record<string, number>>;
  /**
   * Host subnets per network, then per node (the allocation's): a Layer3 network's node subnets in
   * its advertised flows.
   */
  hostSubnets?: Readonly<Record<string, Readonly<Record<string, string[]>>>>;
}

/** What the runtime found or did on a node: outcomes per CUDN (applied: the steps ran), or why not. */
export type NodeVrfResult =
  | { ok: true; outcomes: VrfOutcome[]; applied: boolean }
  /** `lost`: the node stopped answering (SSH), not a VRF step that its kernel refused. */
  | (Failure & { lost?: boolean });

export interface ResolvedUse {
  network: Network;
  hostInterface: string;
  bridge: string;
}

/** Intents of one node, sorted by CUDN name; networks without an allocated id are left out (nothing renders them). */
export function nodeVrfIntents(node: InventoryNode, uses: ResolvedUse[], vrf: UplinkVrfInput): VrfIntent[] {
  return uses
    .flatMap(({ network, hostInterface, bridge }): VrfIntent[] => {
      const networkId = vrf.networkIds[network.name];
      if (networkId === undefined) return [];
      const domain = effectiveDomain(
        { name: network.objectName, networkId, labels: network.labels },
        node.labels,
        vrf.routeAdvertisements,
      );
      return [{ cudn: network.objectName, networkId, hostInterface, bridge, domain }];
    })
    .sort((a, b) => (a.cudn < b.cudn ? -1 : a.cudn > b.cudn ? 1 : 0));
}

/** CUDN names in a bridge conflict on this node, with the message they share. */
export function conflictsOf(node: string, intents: VrfIntent[]): Map<string, string> {
  return new Map(bridgeConflicts(node, intents).map((c) => [c.cudn, c.message]));
}

/**
 * The VRF part of a CUDN's gateway phase on a node; undefined when VRF has nothing against it. A
 * failed VRF step is UplinkVRFAttachmentFailed; a node lost during its VRF work fails a CUDN in
 * the default routing domain (`needsVrf` false) with upstream's untagged reason,
 * UplinkGatewayProgrammingFailed (uplink-upstream.md 3.5, "anything else").
 */
export function vrfPhase(result: NodeVrfResult | undefined, cudn: string, needsVrf = true): GatewayPhase | undefined {
  if (!result) return undefined;
  if (!result.ok) {
    const reason = result.lost && !needsVrf ? 'UplinkGatewayProgrammingFailed' : 'UplinkVRFAttachmentFailed';
    return { phase: 'failed', reason, message: result.why };
  }
  const outcome = result.outcomes.find((o) => o.cudn === cudn);
  if (!outcome) return undefined;
  if (outcome.state === 'conflict' || outcome.state === 'refused')
    return { phase: 'failed', reason: outcome.reason ?? 'UplinkVRFAttachmentFailed', message: outcome.message ?? '' };
  return outcome.changed && !result.applied ? { phase: 'pending' } : undefined;
}
