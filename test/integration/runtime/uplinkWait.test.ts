/**
 * An Uplink CUDN's gateway on a real ovsdb-server while its node waits for the UplinkState and
 * after it resolves. Upstream (go-controller/pkg/ovn/uplink_gateway.go uplinkGatewayConfig, then
 * layer3/layer2_user_defined_network_controller.go addUpdateLocalNodeEvent): nodeGatewayConfig
 * fails while the state is not resolved, SyncGateway is not called and the node keeps no gateway;
 * a state change asks for the node's gateway sync again (uplink_state_controller.go
 * reconcileUplinkNetworks -> requestNetworkGatewaySync), and once the state resolves SyncGateway
 * (gateway.go gatewayInit) writes the gateway router with its external side. Each apply leaves
 * nothing for diff to report.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../provider/ovsdb/notation';
import { applyZone, diffZone, planTopology, type TopologyPlan } from '../../../provider/runtime/cli';
import type { UplinkState } from '../../../provider/uplink/conditions';
import { resolvedUplinkState, uplinkGatewayWorld, useNorthbound } from '../../support/worlds';

const owner = 'uplink-wait';
const nb = useNorthbound();

function plan(states: UplinkState[]): TopologyPlan {
  const result = planTopology(uplinkGatewayWorld, undefined, { uplinkStates: states });
  if (!result.ok) throw new Error(result.problems[0]!.message);
  return result.plan;
}

async function names(table: string): Promise<string[]> {
  const op: Operation = { op: 'select', table, where: [], columns: ['name'] };
  return ((await nb.client.transact('OVN_Northbound', [op]))[0]!.rows ?? []).map((r) => String(r.name)).sort();
}

/** Apply the plan's only zone, then check that diff reports nothing and a second apply sends nothing. */
async function applySettled(p: TopologyPlan): Promise<void> {
  const [zone] = p.zones;
  expect((await applyZone(nb.client, zone!, owner, p.state)).sent).toBe(true);
  expect((await diffZone(nb.client, zone!, owner)).lines).toEqual([]);
  expect((await applyZone(nb.client, zone!, owner, p.state)).sent).toBe(false);
}

const gatewayRouters = ['GR_cluster_udn_l2_node-a', 'GR_cluster_udn_l3_node-a'];

describe("an Uplink CUDN's gateway on a real Northbound, before and after its UplinkState resolves", () => {
  it('apply without a resolved state writes the networks without any gateway router, and diff then reports nothing', async () => {
    await applySettled(plan([resolvedUplinkState('False')]));
    expect(await names('Logical_Router')).toEqual([
      'cluster_udn_l2_transit_router',
      'cluster_udn_l3_ovn_cluster_router',
    ]);
    expect((await names('Logical_Router_Port')).filter((n) => n.includes('GR_'))).toEqual([]);
    expect((await names('Logical_Switch')).filter((n) => n.startsWith('ext_'))).toEqual([]);
  });

  it('the next apply once the state resolves adds each gateway whole, and diff then reports nothing', async () => {
    await applySettled(plan([resolvedUplinkState('True')]));
    expect((await names('Logical_Router')).filter((n) => n.startsWith('GR_'))).toEqual(gatewayRouters);
    const ports = await names('Logical_Router_Port');
    for (const gr of gatewayRouters) expect(ports).toEqual(expect.arrayContaining([`rtoe-${gr}`]));
    expect(ports).toEqual(expect.arrayContaining(['rtoj-GR_cluster_udn_l3_node-a', 'rtotr-GR_cluster_udn_l2_node-a']));
    expect(ports).toEqual(expect.arrayContaining(['trtor-GR_cluster_udn_l2_node-a']));
    expect((await names('Logical_Switch')).filter((n) => n.startsWith('ext_'))).toEqual([
      'ext_cluster_udn_l2_node-a',
      'ext_cluster_udn_l3_node-a',
    ]);
  });
});
