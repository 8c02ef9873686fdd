/**
 * Nodes whose Uplink CUDNs' gateways take their external side from an UplinkState that discovery
 * could not read (the node did not answer, or refused us). Without the state the plan renders no
 * gateway on such a node (topology gatewayWaits: what upstream renders while it waits), so writing
 * its zone would remove a gateway an earlier apply made; upstream keeps that gateway while its
 * gateway sync fails (go-controller/pkg/ovn/uplink_gateway.go uplinkGatewayConfig returns before
 * SyncGateway, which alone changes the gateway). Such a node's own zone (per-node layout, as
 * upstream runs) is therefore not written at all: it fails alone, naming the node, and the next
 * apply that reaches the node writes it. A central zone holds every node, so it is still written
 * (issue 25: the other nodes complete), and a node it cannot discover loses its gateway there until
 * an apply reaches it again. Pure.
 */
import { uplinksOf } from '../../model/cudn';
import type { Zone } from '../../model/zones';
import { activeNodesOf } from '../../uplink/active';
import type { ZonePlan } from '../topologyPlan';
import type { ClusterPlan } from './plan';

/** Node -> why it was not discovered, for the nodes an Uplink CUDN of the plan is active on. */
function undiscoveredGatewayNodes(plan: ClusterPlan): Map<string, string> {
  const out = new Map<string, string>();
  const discovery = plan.uplinks?.hosts?.discovery;
  if (discovery === undefined) return out;
  const { cluster } = plan;
  for (const network of cluster.networks.filter((n) => (uplinksOf(n)?.length ?? 0) > 0))
    for (const node of activeNodesOf(cluster, network)) {
      const found = discovery.get(node.name);
      if (found !== undefined && !found.ok) out.set(node.name, `${found.why} (${found.reason})`);
    }
  return out;
}

/** The node of a per-node zone that holds it back (see the header), if any. */
function heldBack(zone: Zone, undiscovered: ReadonlyMap<string, string>): string | undefined {
  if (zone.layout === 'central') return undefined;
  return zone.localNodes.find((n) => undiscovered.has(n));
}

/**
 * A zone's plan by name for apply (`written`) or diff (`compared`); for a zone held back (see the
 * header), the UndiscoveredNodeError saying so, thrown where the zone's work would start.
 */
export function zonePlanUnlessHeldBack(plan: ClusterPlan, step: 'written' | 'compared'): (zone: string) => ZonePlan {
  const undiscovered = undiscoveredGatewayNodes(plan);
  return (name) => {
    const planned = plan.topology.zones.find((z) => z.name === name)!;
    const node = heldBack(planned.zone, undiscovered);
    if (node !== undefined) throw new UndiscoveredNodeError(node, undiscovered.get(node)!, step);
    return planned;
  };
}

/** A zone not written (or, by diff, not compared) because a node of it was not discovered (see the header). */
export class UndiscoveredNodeError extends Error {
  override name = 'UndiscoveredNodeError';

  constructor(node: string, why: string, step: 'written' | 'compared' = 'written') {
    super(
      `not ${step}: node ${node} was not discovered: ${why}; its Uplink CUDNs' gateway takes an UplinkState that ` +
        'is unknown, so apply sends nothing to this zone and a gateway an earlier apply wrote stays',
    );
  }
}
