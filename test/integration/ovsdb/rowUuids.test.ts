import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OvsdbClient } from '../../../provider/ovsdb/client';
import { OvsdbClusterClient } from '../../../provider/ovsdb/cluster';
import { DuplicateUuid } from '../../../provider/ovsdb/errors';
import type { Operation } from '../../../provider/ovsdb/notation';
import { withRowUuids } from '../../../provider/ovsdb/rowUuids';
import { startNbUnderTest, stopNbUnderTest } from '../../support/nbUnderTest';
import { startOvsdbCluster } from '../../support/ovsdbCluster';
import type { OvsdbServer } from '../../support/ovsdbServer';

const NB = 'OVN_Northbound';
let server: OvsdbServer;
let client: OvsdbClient;

beforeAll(async () => {
  ({ server, client } = await startNbUnderTest());
});

afterAll(() => stopNbUnderTest({ server, client }));

/** A router and its routes, the router's reference to them before their inserts (a forward reference). */
function routerWithRoutes(router: string, count: number): Operation[] {
  const names = Array.from({ length: count }, (_, i) => `${router}_r${i}`);
  return [
    {
      op: 'insert',
      table: 'Logical_Router',
      'uuid-name': router,
      row: { name: router, static_routes: ['set', names.map((n): ['named-uuid', string] => ['named-uuid', n])] },
    },
    ...names.map((n, i): Operation => ({
      op: 'insert',
      table: 'Logical_Router_Static_Route',
      'uuid-name': n,
      row: { ip_prefix: `10.0.0.${i}/32`, nexthop: '100.64.0.1', external_ids: ['map', [['ovnk.io/owner', router]]] },
    })),
  ];
}

async function routesOf(router: string): Promise<{ uuids: string[]; prefixes: string[] }> {
  const [lr, routes] = await client.transact(NB, [
    { op: 'select', table: 'Logical_Router', where: [['name', '==', router]], columns: ['static_routes'] },
    {
      op: 'select',
      table: 'Logical_Router_Static_Route',
      where: [['external_ids', 'includes', ['map', [['ovnk.io/owner', router]]]]],
      columns: ['_uuid', 'ip_prefix'],
    },
  ]);
  const refs = (lr!.rows![0]!.static_routes as { uuid: string }[]).map((r) => r.uuid).sort();
  const rows = routes!.rows!;
  expect(rows.map((r) => (r._uuid as { uuid: string }).uuid).sort()).toEqual(refs);
  return { uuids: refs, prefixes: rows.map((r) => r.ip_prefix as string).sort() };
}

describe('inserting rows under uuids we chose (ovsdb-server, the insert operation\'s "uuid")', () => {
  it('stores each row under its chosen uuid, forward references included, the same rows as under uuid-names', async () => {
    const sent = withRowUuids(routerWithRoutes('lr_chosen', 5));
    const results = await client.transact(NB, sent);
    const chosen = sent.map((op) => (op.op === 'insert' ? op.uuid : undefined));
    expect(results.map((r) => r.uuid)).toEqual(chosen);
    const ours = await routesOf('lr_chosen');
    expect(ours.uuids).toEqual(chosen.slice(1).sort());

    await client.transact(NB, routerWithRoutes('lr_named', 5));
    const named = await routesOf('lr_named');
    expect(ours.prefixes).toEqual(named.prefixes);
    expect(named.uuids).toHaveLength(5);
  });

  it('refuses the same operations sent again: the chosen uuids are taken (a resend finds its own commit)', async () => {
    const sent = withRowUuids(routerWithRoutes('lr_resent', 2));
    await client.transact(NB, sent);
    const again = await client.transact(NB, sent).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(DuplicateUuid);
    expect(again).toMatchObject({ index: 0, op: 'insert', table: 'Logical_Router' });
    expect((await routesOf('lr_resent')).uuids).toHaveLength(2);
  });

  it('stores them under the chosen uuids on every member of a RAFT cluster', async () => {
    const cluster = await startOvsdbCluster(3);
    try {
      const writer = new OvsdbClusterClient(cluster.remotes, NB);
      const sent = withRowUuids(routerWithRoutes('lr_raft', 3));
      await writer.transact(NB, sent);
      writer.close();
      const chosen = sent.map((op) => (op.op === 'insert' ? op.uuid : undefined)).sort();
      for (const member of cluster.members) {
        const reader = await OvsdbClient.connect(member.unix);
        // a follower may apply the commit a moment after the leader answered
        const select = () =>
          reader.transact(NB, [{ op: 'select', table: 'Logical_Router_Static_Route', where: [], columns: ['_uuid'] }]);
        let uuids: string[] = [];
        for (let tries = 0; tries < 50 && uuids.length < 3; tries++) {
          const [result] = await select();
          uuids = result!.rows!.map((r) => (r._uuid as { uuid: string }).uuid);
          if (uuids.length < 3) await new Promise((r) => setTimeout(r, 100));
        }
        const [router] = await reader.transact(NB, [
          { op: 'select', table: 'Logical_Router', where: [['name', '==', 'lr_raft']], columns: ['_uuid'] },
        ]);
        reader.close();
        expect([(router!.rows![0]!._uuid as { uuid: string }).uuid, ...uuids].sort()).toEqual(chosen);
      }
    } finally {
      await cluster.stop();
    }
  });
});
