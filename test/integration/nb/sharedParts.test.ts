/**
 * Shared rows several owners add their own values to (nb/sharedParts.ts): upstream's
 * advertised-subnets address set and drop port group (topology/advertised.ts), written by two
 * owners whose networks share one Northbound, on a real ovsdb-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply } from '../../../provider/nb/apply';
import type { DesiredRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import type { OvsdbClient } from '../../../provider/ovsdb/client';
import { startNbUnderTest, stopNbUnderTest } from '../../support/nbUnderTest';
import type { OvsdbServer } from '../../support/ovsdbServer';

const NB = 'OVN_Northbound';
const SET = 'a10109792604843350142';
const GROUP = 'a13312563267853114862';
let server: OvsdbServer;
let client: OvsdbClient;

beforeAll(async () => {
  ({ server, client } = await startNbUnderTest());
});

afterAll(() => stopNbUnderTest({ server, client }));

/** An owner's network: its switch and stor- port, and its part of the shared set and group. */
function network(name: string, subnet: string): DesiredRow[] {
  const port = `stor-${name}`;
  return [
    { table: 'Logical_Switch', columns: { name, ports: [port] } },
    { table: 'Logical_Switch_Port', columns: { name: port, type: 'router', addresses: ['router'] } },
    {
      table: 'Address_Set',
      columns: { name: SET, addresses: [subnet], external_ids: { 'k8s.ovn.org/name': 'advertised-network-subnets' } },
      shared: true,
    },
    {
      table: 'Port_Group',
      columns: { name: GROUP, ports: [port], external_ids: { 'k8s.ovn.org/name': 'advertised-network-subnets' } },
      shared: true,
    },
  ];
}

async function select(table: string, name: string) {
  const [result] = await client.transact(NB, [{ op: 'select', table, where: [['name', '==', name]] }]);
  return result.rows ?? [];
}

/** The set's addresses, and the names of the group's ports (decoded rows: sets as arrays, uuids as `{ uuid }`). */
async function contents(): Promise<{ addresses: string[]; ports: string[] } | undefined> {
  const [set] = await select('Address_Set', SET);
  const [group] = await select('Port_Group', GROUP);
  if (!set || !group) return undefined;
  const uuids = (group.ports as { uuid: string }[]).map((p) => p.uuid);
  const [lsps] = await client.transact(NB, [{ op: 'select', table: 'Logical_Switch_Port', where: [] }]);
  const ports = (lsps.rows ?? [])
    .filter((r) => uuids.includes((r._uuid as { uuid: string }).uuid))
    .map((r) => r.name as string);
  return { addresses: [...(set.addresses as string[])].sort(), ports: ports.sort() };
}

const run = (owner: string, desired: DesiredRow[]) => apply(client, { owner, schema: nbSchema, desired });

describe('a shared address set and port group two owners add to', () => {
  it("hold both owners' parts, keep them on reapply, and lose only the leaving owner's part", async () => {
    await run('blue', network('blue', '10.100.0.0/16'));
    expect(await contents()).toEqual({ addresses: ['10.100.0.0/16'], ports: ['stor-blue'] });
    await run('red', network('red', '10.200.0.0/16'));
    expect(await contents()).toEqual({
      addresses: ['10.100.0.0/16', '10.200.0.0/16'],
      ports: ['stor-blue', 'stor-red'],
    });
    expect((await run('blue', network('blue', '10.100.0.0/16'))).plan.operations).toEqual([]);
    expect((await run('red', network('red', '10.200.0.0/16'))).plan.operations).toEqual([]);
    await run('blue', []);
    expect(await contents()).toEqual({ addresses: ['10.200.0.0/16'], ports: ['stor-red'] });
    await run('red', []);
    expect(await contents()).toBeUndefined();
  });

  it("replace an owner's own part when its subnets change, keeping the other owner's", async () => {
    await run('blue', network('blue', '10.100.0.0/16'));
    await run('red', network('red', '10.200.0.0/16'));
    await run('blue', network('blue', '10.101.0.0/16'));
    expect((await contents())?.addresses).toEqual(['10.101.0.0/16', '10.200.0.0/16']);
    await run('blue', []);
    await run('red', []);
  });
});
