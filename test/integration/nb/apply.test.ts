import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSchemas, SchemaAdaptationError } from '../../../provider/nb/adapt';
import { apply, ConcurrentChangeError, observe, planApply, transactPlan } from '../../../provider/nb/apply';
import type { DesiredRow } from '../../../provider/nb/desired';
import { findRepoRoot } from '../../../provider/nb/generate/sources';
import { nbSchema } from '../../../provider/nb/generated/nb';
import type { OvsdbClient } from '../../../provider/ovsdb/client';
import type { Condition } from '../../../provider/ovsdb/notation';
import { startNbUnderTest, stopNbUnderTest } from '../../support/nbUnderTest';
import { type OvsdbServer, nbctl as nbctlAt } from '../../support/ovsdbServer';
import { recording as recordingOf, writes } from '../../support/recordingDatabase';

const run = promisify(execFile);
const NB = 'OVN_Northbound';
let server: OvsdbServer;
let client: OvsdbClient;

const recording = () => recordingOf(client);

beforeAll(async () => {
  ({ server, client } = await startNbUnderTest());
  await run('ovn-nbctl', [`--db=${server.unix}`, 'lr-add', 'ovn_cluster_router']);
});

afterAll(() => stopNbUnderTest({ server, client }));

const nbctl = (...args: string[]) => nbctlAt(server, ...args);

async function rows(table: string, where: Condition[] = []) {
  const [result] = await client.transact(NB, [{ op: 'select', table, where }]);
  return result.rows ?? [];
}

function topology(prefix: string, mac = '0a:58:64:40:00:01'): DesiredRow[] {
  return [
    {
      table: 'Logical_Router',
      columns: {
        name: `${prefix}-lr`,
        ports: [`${prefix}-lrp`],
        static_routes: [`${prefix}-r1`],
        options: { 'requested-tnl-key': '50000' },
      },
    },
    { table: 'Logical_Router_Port', columns: { name: `${prefix}-lrp`, mac, networks: ['100.64.0.1/31'] } },
    {
      table: 'Logical_Router_Static_Route',
      columns: { ip_prefix: '10.1.0.0/16', nexthop: '100.64.0.2', external_ids: { 'ovnk.io/key': `${prefix}-r1` } },
    },
    {
      table: 'Logical_Router_Static_Route',
      columns: { ip_prefix: '10.2.0.0/16', nexthop: '100.64.0.3', external_ids: { 'ovnk.io/key': `${prefix}-r2` } },
      parents: [{ table: 'Logical_Router', identity: 'ovn_cluster_router', column: 'static_routes' }],
    },
  ];
}

const ownedBy = (owner: string): Condition[] => [['external_ids', 'includes', ['map', [['ovnk.io/owner', owner]]]]];

describe('apply against a real ovsdb-server (OVN_Northbound 7.0.0)', () => {
  it('creates the rows, with our marker, children referenced from their parents', async () => {
    const db = recording();
    const result = await apply(db, { owner: 'o-create', schema: nbSchema, desired: topology('c') });
    expect(result.sent).toBe(true);
    expect(writes(db)).toHaveLength(1);
    expect(result.plan.summary).toContain('create Logical_Router "c-lr"');
    const routers = await rows('Logical_Router', ownedBy('o-create'));
    expect(routers.map((r) => r.name)).toEqual(['c-lr']);
    expect(routers[0].ports).toEqual([{ uuid: result.created['Logical_Router_Port/c-lrp'] }]);
    const cluster = (await rows('Logical_Router', [['name', '==', 'ovn_cluster_router']]))[0];
    expect(cluster.static_routes).toContainEqual({ uuid: result.created['Logical_Router_Static_Route/c-r2'] });
    expect((await rows('Logical_Router_Static_Route', ownedBy('o-create'))).length).toBe(2);
  });

  it('sends nothing the second time', async () => {
    await apply(client, { owner: 'o-twice', schema: nbSchema, desired: topology('t') });
    const db = recording();
    const again = await apply(db, { owner: 'o-twice', schema: nbSchema, desired: topology('t') });
    expect(again.sent).toBe(false);
    expect(again.plan.operations).toEqual([]);
    expect(writes(db)).toEqual([]);
  });

  it('repairs a hand change made with ovn-nbctl', async () => {
    await apply(client, { owner: 'o-repair', schema: nbSchema, desired: topology('h') });
    await nbctl('set', 'Logical_Router_Port', 'h-lrp', 'mac="0a:00:00:00:00:99"');
    await nbctl('remove', 'Logical_Router', 'h-lr', 'options', 'requested-tnl-key');
    const repaired = await apply(client, { owner: 'o-repair', schema: nbSchema, desired: topology('h') });
    expect(repaired.plan.summary).toEqual([
      'update Logical_Router "h-lr": options: {} -> {requested-tnl-key="50000"}',
      'update Logical_Router_Port "h-lrp": mac: "0a:00:00:00:00:99" -> "0a:58:64:40:00:01"',
    ]);
    expect(await nbctl('get', 'Logical_Router_Port', 'h-lrp', 'mac')).toBe('"0a:58:64:40:00:01"');
    expect((await apply(client, { owner: 'o-repair', schema: nbSchema, desired: topology('h') })).sent).toBe(false);
  });

  it('leaves a foreign row with the same name untouched, and delete removes exactly ours', async () => {
    await nbctl('lr-add', 'same-lr', '--', 'set', 'Logical_Router', 'same-lr', 'options:requested-tnl-key=50000');
    const foreignBefore = await rows('Logical_Router', [['name', '==', 'same-lr']]);
    const desired: DesiredRow[] = [
      { table: 'Logical_Router', columns: { name: 'same-lr', options: { 'requested-tnl-key': '50000' } } },
    ];
    await apply(client, { owner: 'o-same', schema: nbSchema, desired: topology('keep') });
    const created = await apply(client, {
      owner: 'o-same',
      schema: nbSchema,
      desired: [...topology('keep'), ...desired],
    });
    expect(created.plan.summary).toEqual(['create Logical_Router "same-lr"']);
    expect(await rows('Logical_Router', [['name', '==', 'same-lr']])).toHaveLength(2);
    const routesOfCluster = () =>
      rows('Logical_Router', [['name', '==', 'ovn_cluster_router']]).then(
        (r) => (r[0].static_routes as unknown[]).length,
      );
    const before = await routesOfCluster();
    const removed = await apply(client, { owner: 'o-same', schema: nbSchema, desired: [] });
    expect(removed.plan.changes.map((c) => c.action)).toEqual(Array(5).fill('delete'));
    expect(await rows('Logical_Router', [['name', '==', 'same-lr']])).toEqual(foreignBefore);
    expect(await rows('Logical_Router_Static_Route', ownedBy('o-same'))).toEqual([]);
    expect(await routesOfCluster()).toBe(before - 1);
    expect((await rows('Logical_Router', ownedBy('o-create'))).length).toBe(1);
  });

  it('reads only the columns the desired rows manage, with what identifies and guards a row', async () => {
    const request = { owner: 'o-columns', schema: nbSchema, desired: topology('col') };
    await apply(client, request);
    const db = recording();
    const observation = await observe(db, request);
    const router = observation.owned.find((r) => r.table === 'Logical_Router')!;
    expect(Object.keys(router.columns).sort()).toEqual([
      '_uuid',
      'external_ids',
      'name',
      'options',
      'ports',
      'static_routes',
    ]);
    const route = observation.owned.find((r) => r.table === 'Logical_Router_Static_Route')!;
    expect(Object.keys(route.columns).sort()).toEqual(['_uuid', 'external_ids', 'ip_prefix', 'nexthop']);
    // a switch's references to ACLs and ports lead to our rows there, which are read by uuid (observeSelects.ts)
    const selects = db.sent.flat().filter((op) => op.op === 'select' && op.table === 'Logical_Switch');
    expect(selects[0]).toMatchObject({ columns: ['_uuid', 'acls', 'external_ids', 'name', 'ports'] });
    expect((await apply(client, { ...request, desired: [] })).plan.changes.map((c) => c.action)).toEqual(
      Array(4).fill('delete'),
    );
  });

  it('deletes a Meter with its bands in one transaction, never emptying the bands of the meter that goes', async () => {
    const meter = (name: string, band: string): DesiredRow[] => [
      { table: 'Meter', columns: { name, unit: 'pktps', bands: [band] } },
      { table: 'Meter_Band', columns: { action: 'drop', rate: 10, external_ids: { 'ovnk.io/key': band } } },
    ];
    await apply(client, {
      owner: 'o-meter',
      schema: nbSchema,
      desired: [...meter('m-a', 'band-a'), ...meter('m-b', 'band-b')],
    });
    const db = recording();
    const removed = await apply(db, { owner: 'o-meter', schema: nbSchema, desired: [] });
    expect(removed.plan.summary.sort()).toEqual([
      'delete Meter "m-a"',
      'delete Meter "m-b"',
      'delete Meter_Band "band-a"',
      'delete Meter_Band "band-b"',
    ]);
    const sent = writes(db)[0]!;
    const lastDelete = sent.map((op) => op.op).lastIndexOf('delete');
    expect(sent.slice(0, lastDelete).filter((op) => op.op === 'mutate')).toEqual([]);
    expect(await rows('Meter', ownedBy('o-meter'))).toEqual([]);
    expect(await rows('Meter_Band', ownedBy('o-meter'))).toEqual([]);
  });

  it('takes a deleted band out of a meter that stays, which keeps its own band', async () => {
    const ours = await apply(client, {
      owner: 'o-band',
      schema: nbSchema,
      desired: [
        { table: 'Meter', columns: { name: 'm-ours', unit: 'pktps', bands: ['band-ours'] } },
        { table: 'Meter_Band', columns: { action: 'drop', rate: 20, external_ids: { 'ovnk.io/key': 'band-ours' } } },
      ],
    });
    const ourBand = ours.created['Meter_Band/band-ours']!;
    await client.transact(NB, [
      { op: 'insert', table: 'Meter_Band', 'uuid-name': 'theirs', row: { action: 'drop', rate: 30 } },
      {
        op: 'insert',
        table: 'Meter',
        row: {
          name: 'm-theirs',
          unit: 'pktps',
          bands: [
            'set',
            [
              ['named-uuid', 'theirs'],
              ['uuid', ourBand],
            ],
          ],
        },
      },
    ]);
    await apply(client, { owner: 'o-band', schema: nbSchema, desired: [] });
    const theirs = (await rows('Meter', [['name', '==', 'm-theirs']]))[0]!;
    expect(theirs.bands).toHaveLength(1);
    expect(theirs.bands).not.toContainEqual({ uuid: ourBand });
    expect(await rows('Meter', [['name', '==', 'm-ours']])).toEqual([]);
    expect(await rows('Meter_Band', [['_uuid', '==', ['uuid', ourBand]]])).toEqual([]);
  });

  it('fails with a clear error when another writer changes a row between observe and transact', async () => {
    const request = { owner: 'o-race', schema: nbSchema, desired: topology('race') };
    await apply(client, request);
    const changed = { ...request, desired: topology('race', '0a:58:64:40:00:02') };
    const observation = await observe(client, changed);
    await nbctl('set', 'Logical_Router_Port', 'race-lrp', 'mac="0a:00:00:00:00:77"');
    const { plan } = planApply(changed, observation);
    const error = await transactPlan(client, NB, plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentChangeError);
    expect((error as Error).message).toBe(
      'nb: another writer changed the database since it was read: expected Logical_Router_Port "race-lrp" (external_ids, mac) is unchanged; nothing was written (apply again to re-read)',
    );
    expect(await nbctl('get', 'Logical_Router_Port', 'race-lrp', 'mac')).toBe('"0a:00:00:00:00:77"');
  });

  it('does not claim a port added to our router when another writer deletes the router meanwhile: the transaction fails and writes nothing', async () => {
    const request = { owner: 'o-parent', schema: nbSchema, desired: topology('par') };
    await apply(client, request);
    const withPort: DesiredRow[] = [
      { ...request.desired[0]!, columns: { ...request.desired[0]!.columns, ports: ['par-lrp', 'par-lrp2'] } },
      ...request.desired.slice(1),
      {
        table: 'Logical_Router_Port',
        columns: { name: 'par-lrp2', mac: '0a:58:64:40:00:09', networks: ['100.64.0.9/31'] },
      },
    ];
    const db = recordingOf(client, { beforeWrite: () => nbctl('lr-del', 'par-lr').then(() => undefined) });
    const error = await apply(db, { ...request, desired: withPort }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentChangeError);
    expect((error as Error).message).toMatch(
      /expected Logical_Router "par-lr" \([0-9a-f-]+\) still exists; nothing was written/,
    );
    expect(await rows('Logical_Router_Port', [['name', '==', 'par-lrp2']])).toEqual([]);
  });

  it('refuses a pass ACL before any write, naming the feature and the server version', async () => {
    const db = recording();
    const desired: DesiredRow[] = [
      { table: 'Logical_Switch', columns: { name: 'acl-ls', acls: ['acl-1'] } },
      {
        table: 'ACL',
        columns: {
          priority: 1000,
          direction: 'to-lport',
          match: 'ip4',
          action: 'pass',
          tier: 0,
          external_ids: { 'k8s.ovn.org/id': 'acl-1' },
        },
      },
    ];
    const error = await apply(db, { owner: 'o-acl', schema: nbSchema, desired }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaAdaptationError);
    expect((error as SchemaAdaptationError).problems.map((p) => p.message)).toEqual([
      'ACL "acl-1": ACL.action="pass" is not allowed (needs OVN_Northbound >= 7.0.4 for the ACL "pass" action; server has 7.0.0)',
    ]);
    expect(writes(db)).toEqual([]);
    const allowed = await apply(client, {
      owner: 'o-acl',
      schema: nbSchema,
      desired: [desired[0], { ...desired[1], columns: { ...desired[1].columns, action: 'allow-related' } }],
    });
    expect(allowed.sent).toBe(true);
    expect((await rows('ACL', ownedBy('o-acl')))[0]).not.toHaveProperty('tier');
  });

  it('sees the same mismatches in the served schema as in the pinned bookworm fixture', async () => {
    const pinned = JSON.parse(
      readFileSync(
        join(findRepoRoot(__dirname), '..', 'shared', 'schemas', 'ovn-nb.v23.03.1-debian.ovsschema'),
        'utf8',
      ),
    );
    const served = await client.getSchema(NB);
    expect(served.version).toBe('7.0.0');
    expect(compareSchemas(nbSchema, served)).toEqual(compareSchemas(nbSchema, pinned));
  });

  it('any desired set of routes, applied, then applied again, sends nothing', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({ key: fc.stringMatching(/^[a-z0-9]{1,8}$/), third: fc.integer({ min: 0, max: 255 }) }),
          { selector: (r) => r.key, maxLength: 20 },
        ),
        async (routes) => {
          const owner = 'o-prop';
          const desired: DesiredRow[] = [
            { table: 'Logical_Router', columns: { name: 'prop-lr', static_routes: routes.map((r) => r.key) } },
            ...routes.map((r) => ({
              table: 'Logical_Router_Static_Route',
              columns: {
                ip_prefix: `10.${r.third}.0.0/16`,
                nexthop: '1.1.1.1',
                external_ids: { 'ovnk.io/key': r.key },
              },
            })),
          ];
          round++;
          await apply(client, { owner, schema: nbSchema, desired });
          const second = await apply(client, { owner, schema: nbSchema, desired });
          expect(second.plan.operations).toEqual([]);
          expect((await rows('Logical_Router_Static_Route', ownedBy(owner))).map((r) => r.ip_prefix).sort()).toEqual(
            routes.map((r) => `10.${r.third}.0.0/16`).sort(),
          );
        },
      ),
      { numRuns: 15 },
    );
    expect(round).toBe(15);
  });
});
