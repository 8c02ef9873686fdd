import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../provider/ovsdb/notation';
import { applyZone, destroyZone, diffZone, planTopology, type TopologyPlan } from '../../../provider/runtime/cli';
import { blueLayer3, gatewayNode, useNorthbound } from '../../support/worlds';

const NB = 'OVN_Northbound';
const owner = 'zone-gw';

const topology = blueLayer3(owner, [gatewayNode(1), gatewayNode(2)]);

const nb = useNorthbound();

function plan(): TopologyPlan {
  const result = planTopology(topology);
  if (!result.ok) throw new Error(result.problems[0]!.message);
  return result.plan;
}

async function select(table: string, columns?: string[]) {
  const op: Operation = { op: 'select', table, where: [], ...(columns ? { columns } : {}) };
  return (await nb.client.transact(NB, [op]))[0]!.rows ?? [];
}

describe("a zone with the gateway routers' external side, on a real ovsdb-server", () => {
  it('writes the Static_MAC_Binding rows with the others, creating NB_Global once for the state, the ledger and the record of crowded tables', async () => {
    const { zones, state } = plan();
    const wanted = zones[0]!.rows
      .filter((r) => r.table === 'Static_MAC_Binding')
      .map((r) => `${r.columns.logical_port} ${r.columns.ip}`);
    expect(wanted.sort()).toEqual([
      'rtoe-GR_cluster_udn_blue_n1 169.254.0.2',
      'rtoe-GR_cluster_udn_blue_n1 169.254.0.4',
      'rtoe-GR_cluster_udn_blue_n2 169.254.0.2',
      'rtoe-GR_cluster_udn_blue_n2 169.254.0.4',
    ]);
    expect(await select('NB_Global')).toEqual([]);
    const applied = await applyZone(nb.client, zones[0]!, owner, state);
    expect(applied.sent).toBe(true);
    const bindings = await select('Static_MAC_Binding', ['logical_port', 'ip']);
    expect(bindings.map((b) => `${b.logical_port} ${b.ip}`).sort()).toEqual(wanted.sort());
    const globals = await select('NB_Global', ['external_ids']);
    expect(globals).toHaveLength(1);
    expect(Object.keys(globals[0]!.external_ids as object).sort()).toEqual([
      `ovnk.io/hung/${owner}`,
      `ovnk.io/owned/${owner}`,
      `ovnk.io/state/${owner}`,
      `ovnk.io/txn/${owner}`,
    ]);
  });

  it('a second apply sends nothing and diff finds no drift', async () => {
    const { zones, state } = plan();
    expect((await applyZone(nb.client, zones[0]!, owner, state)).sent).toBe(false);
    expect((await diffZone(nb.client, zones[0]!, owner)).lines).toEqual([]);
  });

  it('a hand change to one of our bindings shows in diff, and apply repairs it', async () => {
    const [row] = (
      await nb.client.transact(NB, [
        {
          op: 'select',
          table: 'Static_MAC_Binding',
          where: [
            ['ip', '==', '169.254.0.4'],
            ['logical_port', '==', 'rtoe-GR_cluster_udn_blue_n1'],
          ],
        },
      ])
    )[0]!.rows!;
    await nb.client.transact(NB, [
      {
        op: 'update',
        table: 'Static_MAC_Binding',
        where: [['_uuid', '==', ['uuid', (row!._uuid as { uuid: string }).uuid]]],
        row: { mac: '0a:00:00:00:00:99' },
      },
    ]);
    const { zones, state } = plan();
    expect((await diffZone(nb.client, zones[0]!, owner)).lines).toEqual([
      `changed: Static_MAC_Binding "rtoe-GR_cluster_udn_blue_n1/169.254.0.4": mac: "0a:00:00:00:00:99" -> "${row!.mac}"`,
    ]);
    expect((await applyZone(nb.client, zones[0]!, owner, state)).sent).toBe(true);
    expect((await diffZone(nb.client, zones[0]!, owner)).lines).toEqual([]);
  });

  it('destroy removes our bindings and both keys, and leaves a binding someone else made', async () => {
    await nb.client.transact(NB, [
      {
        op: 'insert',
        table: 'Static_MAC_Binding',
        row: { logical_port: 'rtoe-GR_cluster_udn_blue_n1', ip: '169.254.0.99', mac: '0a:00:00:00:00:98' },
      },
    ]);
    expect((await destroyZone(nb.client, 'central', owner)).sent).toBe(true);
    expect((await select('Static_MAC_Binding', ['ip', 'mac'])).map((b) => `${b.ip} ${b.mac}`)).toEqual([
      '169.254.0.99 0a:00:00:00:00:98',
    ]);
    expect((await select('NB_Global', ['external_ids']))[0]!.external_ids).toEqual({});
    expect(await select('Logical_Router')).toEqual([]);
  });
});
