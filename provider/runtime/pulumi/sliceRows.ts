/**
 * Rows of a slice in one zone, for create, update and read: the same pure renderers the CLI's
 * plan uses (topology/render, connect/render, topology/services), fed from the slice instead of a
 * plan of the whole cluster. A network renders its own ClusterIP load balancers and groups (its
 * slice carries its services); a connect's ServiceNetwork group references them (the network
 * resources come first). The shared Copp/meter rows belong to ClusterAllocations, never here.
 * An Uplink CUDN's gateway routers take their external side from the UplinkStates the resource
 * is given (the Uplink components' outputs; issue 16 point 6): ClusterAllocations plans at
 * preview, before any node is discovered, so its slices carry none. A node whose state is
 * missing or not resolved gets none of the gateway (topology/nodeContext.ts gatewayWaits); while
 * the states are unknown (preview) nothing is rendered: rows are rendered at create and update.
 */
import { renderConnect } from '../../connect/render';
import { uniqueRows } from '../../connect/zones';
import { dict, own } from '../../model/dict';
import { zonesOf, type Layout, type Zone } from '../../model/zones';
import type { DesiredRow } from '../../nb/desired';
import type { NetworkInput } from '../../topology/input';
import { mergeSharedParts } from '../../topology/merge';
import { renderNetwork } from '../../topology/render';
import { identityOf } from '../../topology/rows';
import { endpointsOf, loadBalancerRows } from '../../topology/services';
import { renderSharedRows } from '../../topology/shared';
import type { UplinkState } from '../../uplink/conditions';
import { routerGateways } from '../../uplink/routerGateway';
import { connectFromJson, type ConnectJson } from './connectJson';
import { SliceError } from './pack';
import type { ConnectSlice, NetworkSlice, ServiceSources, ZoneSlice } from './slices';

/** The network with its Uplink's gateways from `states` (a network without an Uplink as it is). */
function withUplinkGateways(network: NetworkInput, states: readonly UplinkState[]): NetworkInput {
  if (!network.uplink) return network;
  const gateways = routerGateways(states).get(network.uplink.name) ?? [];
  return { ...network, uplink: { name: network.uplink.name, gateways: dict(gateways) } };
}

/** The zone as both renderers take it; a zone the slice's layout does not have is refused. */
export function zoneSpec(layout: Layout, nodes: { name: string }[], zone: string): Zone {
  const zones = zonesOf(
    layout,
    nodes.map((n) => n.name),
  );
  const found = zones.find((z) => z.name === zone);
  if (found) return found;
  throw new SliceError(
    'zone',
    `"${zone}" is not a zone of this ${layout} cluster (zones: ${zones.map((z) => z.name).join(', ') || 'none'})`,
  );
}

/** The load balancers a ServiceNetwork connect's group names, backed by the slice's pods of each network. */
function balancers(
  sources: ServiceSources,
  connects: ConnectJson[],
  masqueradeSubnets: readonly string[],
): DesiredRow[] {
  const served = connects.filter((c) => c.serviceNetwork).flatMap((c) => c.networks.map((n) => n.name));
  return [...new Set(served)].flatMap((name) => {
    const pods = sources.backends.filter((b) => b.network === name).map((b) => ({ ...b, ips: b.addresses }));
    return loadBalancerRows(
      name,
      own(sources.namespaces, name) ?? [],
      sources.services,
      endpointsOf(pods),
      masqueradeSubnets,
    );
  });
}

export function networkSliceRows(slice: NetworkSlice, zone: string, states: readonly UplinkState[] = []): DesiredRow[] {
  const spec = zoneSpec(slice.layout, slice.nodes, zone);
  const network = withUplinkGateways(slice.network, states);
  return renderNetwork({ cluster: slice.cluster, network, nodes: slice.nodes, zone: spec, pods: slice.pods });
}

export function connectSliceRows(slice: ConnectSlice, zone: string): DesiredRow[] {
  return renderConnect(connectFromJson(slice.connect), slice.nodes, zoneSpec(slice.layout, slice.nodes, zone)).rows;
}

/** Every row of the zone but the shared ones: as the CLI's plan renders the zone. */
export function zoneSliceRows(slice: ZoneSlice, zone: string, states: readonly UplinkState[] = []): DesiredRow[] {
  const spec = zoneSpec(slice.layout, slice.nodes, zone);
  const networkRows = mergeSharedParts(
    slice.networks.flatMap((n) => {
      const network = withUplinkGateways(n.network, states);
      return renderNetwork({ cluster: slice.cluster, network, nodes: slice.nodes, zone: spec, pods: n.pods });
    }),
  );
  const connectRows = slice.connects.flatMap((c) => renderConnect(connectFromJson(c), slice.connectNodes, spec).rows);
  const others =
    connectRows.length === 0
      ? []
      : uniqueRows([...connectRows, ...balancers(slice.sources, slice.connects, slice.cluster.masqueradeSubnets)]);
  const shared = new Set(renderSharedRows().map((r) => `${r.table}/${identityOf(r)}`));
  return uniqueRows([...networkRows, ...others]).filter((r) => !shared.has(`${r.table}/${identityOf(r)}`));
}
