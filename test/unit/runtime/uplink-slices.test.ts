/**
 * Point 6 of issue 16 on the Pulumi road: ClusterAllocations plans at preview, before any node
 * is discovered, so an Uplink CUDN's gateway routers get their external side in the per-zone
 * resources from the UplinkStates they are given (the Uplink components' outputs). Those rows
 * must equal what `ovnk plan` renders with the same UplinkStates, and a change of what the
 * states give the rows (not of their conditions) is a change of the resource.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredRow } from '../../../provider/nb/desired';
import { planTopology } from '../../../provider/runtime/plan';
import { pulumiKinds } from '../../../provider/runtime/pulumi';
import { unpack } from '../../../provider/runtime/pulumi/pack';
import { UNKNOWN } from '../../../provider/runtime/pulumi/protocol';
import { networkSliceRows, zoneSliceRows } from '../../../provider/runtime/pulumi/sliceRows';
import type { ClusterSlices } from '../../../provider/runtime/pulumi/slices';
import { identityOf } from '../../../provider/topology/rows';
import { renderSharedRows } from '../../../provider/topology/shared';
import type { UplinkState } from '../../../provider/uplink/conditions';
import { cudn, inventory, layer3 } from '../../support/objects';
import { resolvedUplinkState, testUplinkState, uplinkGatewayNode } from '../../support/worlds';

const objects = (zones: string) => [
  inventory('upl', { zones, ipFamilies: ['IPv4'], namespaces: [{ name: 'tenant' }], nodes: [uplinkGatewayNode] }),
  cudn('l3', layer3('10.100.0.0/16', 24), { uplinks: ['blue'] }),
];

/** testUplinkState of upstream's uplink_gateway_test.go (Resolved=True). */
const state = (mac = '02:42:ac:12:00:02', message = ''): UplinkState =>
  testUplinkState(
    [
      { type: 'Resolved', status: 'True', reason: 'Resolved', message },
      { type: 'GatewayReady', status: 'False', reason: 'GatewayConfigurationPending', message },
    ],
    mac,
  );

const key = (r: DesiredRow) => `${r.table}/${identityOf(r)}/${JSON.stringify(r.columns)}`;
const shared = new Set(renderSharedRows().map(key));

async function sliced(zones: string) {
  const [inventory, ...networks] = objects(zones);
  const checked = await pulumiKinds.ClusterAllocations.check(
    {},
    { owner: 'u/cluster', inventory, networks, connects: [] },
  );
  expect(checked.failures ?? []).toEqual([]);
  const planned = planTopology(JSON.stringify([inventory, ...networks]), undefined, { uplinkStates: [state()] });
  if (!planned.ok) throw new Error('does not plan');
  const expected = planned.plan.zones[0]!.rows.filter((r) => !shared.has(key(r))).map(key);
  return { slices: checked.inputs!.slices as ClusterSlices, expected };
}

describe("an Uplink CUDN's rows in the Pulumi resources", () => {
  it('a ZoneRows resource given the UplinkStates renders the external side ovnk plan renders with them', async () => {
    const { slices, expected } = await sliced('per-node');
    const rows = zoneSliceRows(unpack(slices.zone), 'node-a', [state()]).map(key);
    expect(rows.sort()).toEqual(expected.sort());
    expect(rows.some((r) => r.startsWith('Logical_Switch_Port/breth0_cluster_udn_l3_node-a/'))).toBe(true);
    expect(
      zoneSliceRows(unpack(slices.zone), 'node-a').some(
        (r) => r.table === 'Logical_Switch_Port' && identityOf(r) === 'breth0_cluster_udn_l3_node-a',
      ),
    ).toBe(false);
  });

  it('a NetworkRows resource (central) does the same', async () => {
    const { slices, expected } = await sliced('central');
    const slice = unpack(Object.values(slices.networks)[0]!);
    expect(
      networkSliceRows(slice as never, 'central', [state()])
        .map(key)
        .sort(),
    ).toEqual(expected.sort());
  });

  it('diff: new gateway facts in the states are a change, new condition texts are not', async () => {
    const { slices } = await sliced('per-node');
    const props = { owner: 'u/zone/node-a', zone: 'node-a', slice: slices.zone, schemaVersion: 2 };
    const olds = { ...props, uplinkStates: [state()] };
    const diff = (news: object) => pulumiKinds.ZoneRows.diff!('id', olds, { ...props, ...news });
    expect((await diff({ uplinkStates: [state('02:42:ac:12:00:09')] })).changes).toBe(true);
    expect((await diff({ uplinkStates: [state(undefined, 'other text')] })).changes).toBe(false);
  });

  it('a ZoneRows resource whose UplinkState is missing or not resolved renders no gateway, as ovnk plan does (uplink_gateway.go uplinkGatewayConfig)', async () => {
    const { slices } = await sliced('per-node');
    const planned = planTopology(JSON.stringify(objects('per-node')));
    if (!planned.ok) throw new Error('does not plan');
    const expected = planned.plan.zones[0]!.rows.filter((r) => !shared.has(key(r))).map(key);
    for (const states of [[], [resolvedUplinkState('False')]]) {
      const rows = zoneSliceRows(unpack(slices.zone), 'node-a', states);
      expect(rows.map(key).sort()).toEqual(expected.sort());
      expect(rows.filter((r) => JSON.stringify(r).includes('GR_cluster_udn_l3_node-a'))).toEqual([]);
    }
  });

  it('at preview, UplinkStates still unknown are kept by check and make diff say the rows change (nothing is rendered before create or update)', async () => {
    const { slices } = await sliced('per-node');
    const props = { owner: 'u/zone/node-a', zone: 'node-a', slice: slices.zone, schemaVersion: 2 };
    const checked = await pulumiKinds.ZoneRows.check({}, { ...props, uplinkStates: UNKNOWN });
    expect(checked).toEqual({ inputs: { ...props, uplinkStates: UNKNOWN } });
    const waiting = { ...props, uplinkStates: [resolvedUplinkState('False')] };
    expect((await pulumiKinds.ZoneRows.diff!('id', waiting, { ...props, uplinkStates: UNKNOWN })).changes).toBe(true);
    // the state resolving later is a change: the next update renders the whole gateway
    expect((await pulumiKinds.ZoneRows.diff!('id', waiting, { ...props, uplinkStates: [state()] })).changes).toBe(true);
  });
});
