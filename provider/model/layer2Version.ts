/**
 * A node's Layer2 topology version (upstream's `k8s.ovn.org/layer2-topology-version`) and its
 * old-topology gateway port keys (`k8s.ovn.org/udn-layer2-node-gateway-router-lrp-tunnel-ids`), as
 * the Inventory's `spec.nodes[]` gives them (provider/topology/layer2Upgrade.ts renders them).
 */
import { dict } from './dict';
import type { FieldReader, Json } from './fields';

/** `1.0`: gateway routers on the layer2 switch; `2.0`: the transit router (upstream's TransitRouterTopoVersion). */
export type Layer2TopologyVersion = '1.0' | '2.0';
export const LAYER2_TOPOLOGY_VERSIONS = ['1.0', '2.0'] as const;

export interface Layer2NodeFields {
  layer2TopologyVersion?: Layer2TopologyVersion;
  layer2GatewayTunnelIds?: Record<string, number>;
}

/** The node's Layer2 topology version and old-topology gateway port keys, when given. */
export function layer2Version(r: FieldReader, map: Record<string, Json>, field: string): Layer2NodeFields {
  const out: Layer2NodeFields = {};
  const version = r.oneOf(map.layer2TopologyVersion, `${field}.layer2TopologyVersion`, LAYER2_TOPOLOGY_VERSIONS);
  if (version !== undefined) out.layer2TopologyVersion = version;
  if (map.layer2GatewayTunnelIds === undefined || map.layer2GatewayTunnelIds === null) return out;
  const ids = dict<number>();
  const given = r.record(map.layer2GatewayTunnelIds, `${field}.layer2GatewayTunnelIds`) ?? {};
  for (const [network, value] of Object.entries(given)) {
    const at = `${field}.layer2GatewayTunnelIds.${network}`;
    const id = r.integer(value, at);
    if (id === undefined) continue;
    if (id < 1 || id > MAX_LAYER2_GATEWAY_TUNNEL_ID)
      r.wrong(
        at,
        id,
        `a tunnel key from 1 to ${MAX_LAYER2_GATEWAY_TUNNEL_ID} (upstream's MaxLogicalPortTunnelKey - 1)`,
      );
    else ids[network] = id;
  }
  out.layer2GatewayTunnelIds = ids;
  return out;
}

/** Upstream's per-network tunnel-id allocator hands out 1..MaxLogicalPortTunnelKey - 1 (32767 - 1). */
export const MAX_LAYER2_GATEWAY_TUNNEL_ID = 32766;
