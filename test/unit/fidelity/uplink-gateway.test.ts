/**
 * Point 6 of issue 16: an Uplink-backed CUDN's gateway router takes its external side from the
 * node's UplinkState, not from the node's own gateway bridge. Expected values from upstream:
 * - go-controller/pkg/ovn/uplink_gateway_test.go TestResolvedUplinkL3GatewayConfig: the state of
 *   Uplink `blue` on `node-a` (bridge breth0, MAC 02:42:ac:12:00:02, 192.0.2.10/24, default
 *   gateway 192.0.2.1) gives BridgeID breth0, MAC 02:42:ac:12:00:02, IPAddresses [192.0.2.10/24],
 *   NextHops [192.0.2.1];
 * - layer3/layer2_user_defined_network_controller.go nodeGatewayConfig: InterfaceID =
 *   GetNetworkScopedExtPortName(bridge, node) = `<bridge>_<P><node>`; the masquerade IP joins the
 *   addresses; gateway.go: `rtoe-` networks and MAC, `etor-` addresses, the default route per next
 *   hop, `physical_ip`/`physical_ips`; physNetName is the network name; no VLAN (uplink_gateway.go
 *   leaves VLANID unset);
 * - uplink_gateway.go uplinkGatewayConfig: a state that is missing or not resolved fails
 *   nodeGatewayConfig ("waiting for UplinkState ..."), so
 *   layer3_user_defined_network_controller.go addUpdateLocalNodeEvent and its Layer2 twin never
 *   reach gateway.go SyncGateway: no gateway router, no cluster/transit router routes, 1004
 *   policies or ports towards it, and on Layer2 no management SNAT (addOrUpdateUDNClusterSubnetEgressSNAT
 *   follows SyncGateway); the node switch, its management port and (Layer3, addNode) the
 *   management SNAT stay. Never the node's own bridge. Once the state resolves, the next sync
 *   writes the gateway whole.
 * The node's own gateway here is br-ex with other addresses, so taking it would fail every check.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredRow } from '../../../provider/nb/desired';
import { planTopology, type TopologyPlan } from '../../../provider/runtime/plan';
import { identityOf } from '../../../provider/topology/rows';
import type { UplinkState } from '../../../provider/uplink/conditions';
import { resolvedUplinkState, uplinkGatewayWorld } from '../../support/worlds';
import { has, rowOf, rowsIn, zoneRows } from './plan';

const world = uplinkGatewayWorld;
const upstreamState = resolvedUplinkState;

function planWith(states: UplinkState[]): TopologyPlan {
  const result = planTopology(world, undefined, { uplinkStates: states });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

/** The masquerade IP of the network's gateway router (169.254.169.0/24 base, per network id). */
const masqueradeOf = (rows: ReturnType<typeof zoneRows>, gr: string): string =>
  rowOf(rows, 'Logical_Router', gr).external_ids.physical_ips.split(',')[1];

describe.each([
  ['Layer3', 'cluster_udn_l3'],
  ['Layer2', 'cluster_udn_l2'],
])("an Uplink CUDN's gateway router (%s)", (_topology, network) => {
  const p = `${network}_`;
  const gr = `GR_${p}node-a`;

  it("takes the external side from the node's UplinkState: localnet <bridge>_<P><node>, rtoe- MAC and addresses, etor-, default route, physical_ip", () => {
    const rows = zoneRows(planWith([upstreamState('True')]), 'node-a');
    const masquerade = masqueradeOf(rows, gr);
    expect(rowOf(rows, 'Logical_Router', gr).external_ids).toMatchObject({
      physical_ip: '192.0.2.10',
      physical_ips: `192.0.2.10,${masquerade}`,
    });
    expect(rowOf(rows, 'Logical_Router_Port', `rtoe-${gr}`)).toMatchObject({
      mac: '02:42:ac:12:00:02',
      networks: ['192.0.2.10/24', `${masquerade}/32`],
    });
    const localnet = rowOf(rows, 'Logical_Switch_Port', `breth0_${p}node-a`);
    expect(localnet).toMatchObject({ type: 'localnet', addresses: ['unknown'], options: { network_name: network } });
    expect(localnet.options.tag_request).toBeUndefined();
    expect(rowOf(rows, 'Logical_Switch_Port', `etor-${gr}`)).toMatchObject({
      type: 'router',
      addresses: ['02:42:ac:12:00:02'],
      options: { 'router-port': `rtoe-${gr}` },
    });
    const defaults = rowsIn(rows, 'Logical_Router_Static_Route').filter(
      (r) => r.ip_prefix === '0.0.0.0/0' && r.output_port === `rtoe-${gr}`,
    );
    expect(defaults.map((r) => r.nexthop)).toEqual(['192.0.2.1']);
    expect(has(rows, 'Logical_Switch_Port', `br-ex_${p}node-a`)).toBe(false);
  });

  it('writes none of the gateway while the UplinkState is missing or not resolved, and never the node bridge', () => {
    for (const states of [[], [upstreamState('False')]]) {
      const rows = zoneRows(planWith(states), 'node-a');
      expect(rows.filter((r) => JSON.stringify(r).includes(gr))).toEqual([]);
      expect(rows.filter((r) => JSON.stringify(r).includes('br-ex'))).toEqual([]);
      expect(rowsIn(rows, 'Static_MAC_Binding')).toEqual([]);
      expect(has(rows, 'Logical_Switch_Port', `k8s-${p}node-a`)).toBe(true);
      const router = rowOf(rows, 'Logical_Router', routerOf(network));
      expect(router.static_routes).toEqual([]);
      expect(router.policies ?? []).toEqual([]);
      // Layer3: addNode's management SNAT (host subnet 10.100.0.0/24 to the masquerade IP);
      // Layer2: none, addOrUpdateUDNClusterSubnetEgressSNAT follows SyncGateway
      const nats = (router.nat as string[]).map((id) => id.split(':').slice(-2).join(' '));
      expect(nats).toEqual(
        network.endsWith('l3') ? [expect.stringMatching(/^169\.254\.169\.\d+ 10\.100\.0\.0\/24$/)] : [],
      );
    }
  });

  it('writes the whole gateway once the UplinkState resolves, removing or changing nothing but parents', () => {
    const waiting = keyed(planWith([]));
    const resolved = keyed(planWith([upstreamState('True')]));
    const removed = [...waiting.keys()].filter((k) => !resolved.has(k));
    expect(removed).toEqual([]);
    const parents = new Set(['Logical_Router', 'Logical_Switch']);
    const changed = [...waiting].filter(([k, r]) => !parents.has(r.table) && !sameRow(r, resolved.get(k)!));
    expect(changed.map(([k]) => k)).toEqual([]);
    const added = [...resolved.keys()].filter((k) => !waiting.has(k));
    for (const name of [gr, `rtoe-${gr}`, `etor-${gr}`, `ext_${p}node-a`, `breth0_${p}node-a`])
      expect(added.some((k) => k.endsWith(`\u0000${name}`))).toBe(true);
    expect(added.filter((k) => k.startsWith('Static_MAC_Binding')).length).toBeGreaterThan(0);
    expect(added.filter((k) => k.startsWith('Logical_Router_Static_Route')).length).toBeGreaterThan(0);
    expect(added.filter((k) => k.startsWith('NAT')).length).toBeGreaterThan(0);
  });
});

/** The network's router towards the gateway routers: Layer3's cluster router, Layer2's transit router. */
const routerOf = (network: string): string =>
  network.endsWith('l3') ? `${network}_ovn_cluster_router` : `${network}_transit_router`;

/** Zone node-a's rows (as written: parents inlined) by `<table>\0<identity>`. */
function keyed(plan: TopologyPlan): Map<string, DesiredRow> {
  return new Map(zoneRows(plan, 'node-a').map((r) => [`${r.table}\u0000${identityOf(r)}`, r]));
}

const sameRow = (a: DesiredRow, b: DesiredRow): boolean => JSON.stringify(a.columns) === JSON.stringify(b.columns);
