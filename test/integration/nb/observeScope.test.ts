import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply, observe, planApply } from '../../../provider/nb/apply';
import type { DesiredRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import type { OvsdbClient } from '../../../provider/ovsdb/client';
import type { Condition, Operation, WireRow } from '../../../provider/ovsdb/notation';
import { startNbUnderTest, stopNbUnderTest } from '../../support/nbUnderTest';
import type { OvsdbServer } from '../../support/ovsdbServer';
import { recording, writes } from '../../support/recordingDatabase';

const NB = 'OVN_Northbound';
let server: OvsdbServer;
let client: OvsdbClient;

beforeAll(async () => {
  ({ server, client } = await startNbUnderTest());
  // someone else's switch with an ACL and a port, as upstream's default network has by the thousand
  await client.transact(NB, [
    { op: 'insert', table: 'ACL', 'uuid-name': 'acl', row: aclRow('foreign-acl', 'allow') },
    { op: 'insert', table: 'Logical_Switch_Port', 'uuid-name': 'lsp', row: { name: 'foreign-lsp' } },
    {
      op: 'insert',
      table: 'Logical_Switch',
      row: { name: 'foreign-ls', acls: ['named-uuid', 'acl'], ports: ['named-uuid', 'lsp'] },
    },
  ]);
});

afterAll(() => stopNbUnderTest({ server, client }));

function aclRow(id: string, action: string): WireRow {
  return {
    action,
    direction: 'to-lport',
    priority: 1000,
    match: 'ip4',
    external_ids: ['map', [['k8s.ovn.org/id', id]]],
  };
}

const acl = (id: string, extra: Partial<DesiredRow> = {}): DesiredRow => ({
  table: 'ACL',
  columns: {
    action: 'drop',
    direction: 'to-lport',
    priority: 1000,
    match: 'ip4',
    external_ids: { 'k8s.ovn.org/id': id },
  },
  ...extra,
});

function ours(prefix: string, acls: string[]): DesiredRow[] {
  return [
    { table: 'Logical_Switch', columns: { name: `${prefix}-ls`, ports: [`${prefix}-lsp`], acls } },
    { table: 'Logical_Switch_Port', columns: { name: `${prefix}-lsp` } },
    ...acls.map((id) => acl(id)),
  ];
}

async function rows(table: string, where: Condition[] = []) {
  const [result] = await client.transact(NB, [{ op: 'select', table, where }]);
  return result!.rows ?? [];
}

const selectsOn = (sent: Operation[][], table: string) =>
  sent.flat().filter((op) => op.op === 'select' && op.table === table);

describe('observe reads our rows of the crowded tables without scanning them (nb/observeSelects.ts)', () => {
  it('finds our ACLs and ports under our switch by uuid, and a re-apply changes nothing', async () => {
    const request = { owner: 'o-crowded', schema: nbSchema, desired: ours('crowded', ['c-1', 'c-2']) };
    await apply(client, request);
    const db = recording(client);
    const observation = await observe(db, request);
    expect(observation.owned.filter((r) => r.table === 'ACL').map((r) => r.columns.external_ids)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ 'k8s.ovn.org/id': 'c-1' }),
        expect.objectContaining({ 'k8s.ovn.org/id': 'c-2' }),
      ]),
    );
    expect(observation.owned.filter((r) => r.table === 'Logical_Switch_Port')).toHaveLength(1);
    // every select on the crowded tables names one row by uuid: none scans them
    for (const table of ['ACL', 'Logical_Switch_Port'])
      for (const op of selectsOn(db.sent, table))
        expect((op as { where: Condition[] }).where[0]).toEqual(['_uuid', '==', expect.any(Array)]);
    expect([...observation.owned, ...observation.foreign].some((r) => r.columns.name === 'foreign-lsp')).toBe(false);
    const again = recording(client);
    await apply(again, request);
    expect(writes(again)).toEqual([]);
  });

  it('deletes an ACL of ours dropped from the desired rows, and leaves the foreign ACL alone', async () => {
    const request = { owner: 'o-drop', schema: nbSchema, desired: ours('drop', ['d-1', 'd-2']) };
    await apply(client, request);
    const result = await apply(client, { ...request, desired: ours('drop', ['d-1']) });
    expect(result.plan.summary.filter((line) => line.startsWith('delete'))).toEqual(['delete ACL "d-2"']);
    expect(
      await rows('ACL', [['external_ids', 'includes', ['map', [['k8s.ovn.org/id', 'foreign-acl']]]]]),
    ).toHaveLength(1);
  });

  it('finds an ACL of ours hanging from a foreign switch, and a destroy removes it from there', async () => {
    const parents = [{ table: 'Logical_Switch', identity: 'foreign-ls', column: 'acls' }];
    const request = { owner: 'o-hang', schema: nbSchema, desired: [acl('h-1', { parents }), acl('h-2', { parents })] };
    await apply(client, request);
    const again = recording(client);
    await apply(again, request);
    expect(writes(again)).toEqual([]);
    // one of two dropped: found by scanning ACL (a desired ACL still hangs from a foreign row)
    const dropped = await apply(client, { ...request, desired: [acl('h-1', { parents })] });
    expect(dropped.plan.summary.filter((line) => line.startsWith('delete'))).toEqual(['delete ACL "h-2"']);
    const destroyed = await apply(client, { ...request, desired: [] });
    expect(destroyed.plan.summary).toEqual(['delete ACL "h-1"']);
    const [sw] = await rows('Logical_Switch', [['name', '==', 'foreign-ls']]);
    const [theirs] = await rows('ACL', [['external_ids', 'includes', ['map', [['k8s.ovn.org/id', 'foreign-acl']]]]]);
    expect(sw!.acls).toEqual([theirs!._uuid]);
  });
});

describe('an owner that drops its last row hung from a foreign parent (nb/hung.ts)', () => {
  it('finds and deletes its last ACL and port under a foreign switch while it keeps other rows, and then stops scanning', async () => {
    await client.transact(NB, [{ op: 'insert', table: 'Logical_Switch', row: { name: 'their-ls' } }]);
    const hung = { parents: [{ table: 'Logical_Switch', identity: 'their-ls', column: 'acls' }] };
    const port: DesiredRow = {
      table: 'Logical_Switch_Port',
      columns: { name: 'kept-owner-lsp' },
      parents: [{ table: 'Logical_Switch', identity: 'their-ls', column: 'ports' }],
    };
    const kept: DesiredRow = { table: 'Logical_Switch', columns: { name: 'kept-owner-ls' } };
    const request = { owner: 'o-keep', schema: nbSchema, desired: [kept, acl('k-1', hung), port] };
    await apply(client, request);
    const dropped = { ...request, desired: [kept] };
    // what `ovnk diff` and a Pulumi read plan: observe then reconcile, nothing written
    const { plan } = planApply(dropped, await observe(client, dropped));
    expect(plan.summary.filter((line) => line.startsWith('delete'))).toEqual([
      'delete ACL "k-1"',
      'delete Logical_Switch_Port "kept-owner-lsp"',
    ]);
    await apply(client, dropped);
    const [sw] = await rows('Logical_Switch', [['name', '==', 'their-ls']]);
    expect([sw!.acls, sw!.ports]).toEqual([[], []]);
    expect(await rows('ACL', [['external_ids', 'includes', ['map', [['k8s.ovn.org/id', 'k-1']]]]])).toEqual([]);
    // nothing of ours hangs from a foreign row any more: the crowded tables are not scanned again
    const again = recording(client);
    await apply(again, dropped);
    expect(writes(again)).toEqual([]);
    for (const table of ['ACL', 'Logical_Switch_Port']) expect(selectsOn(again.sent, table)).toEqual([]);
  });
});

describe('root rows of ours in the crowded tables are scanned for only while the record lists them (nb/hung.ts)', () => {
  const group = (name: string): DesiredRow => ({ table: 'Port_Group', columns: { name } });
  const addressSet = (name: string): DesiredRow => ({ table: 'Address_Set', columns: { name } });
  const recordOf = async (owner: string) =>
    ((await rows('NB_Global', []))[0]!.external_ids as Record<string, string>)[`ovnk.io/hung/${owner}`];
  const scans = (sent: Operation[][], table: string) =>
    selectsOn(sent, table).filter((op) => (op as { where: Condition[] }).where[0]?.[0] !== '_uuid');

  it('scans the tables of its desired rows only, finds a dropped port group through the record, then stops', async () => {
    const kept: DesiredRow = { table: 'Logical_Switch', columns: { name: 'root-owner-ls' } };
    const request = { owner: 'o-root', schema: nbSchema, desired: [kept, group('root_pg'), addressSet('root_as')] };
    await apply(client, request);
    expect(await recordOf('o-root')).toBe('["Address_Set","Port_Group"]');
    const again = recording(client);
    await apply(again, request);
    expect(writes(again)).toEqual([]);
    expect(scans(again.sent, 'Load_Balancer')).toEqual([]);
    expect(scans(again.sent, 'Port_Group')).not.toEqual([]);
    // the port group dropped: a diff (observe then reconcile) and an apply find it through the record
    const dropped = { ...request, desired: [kept, addressSet('root_as')] };
    const { plan } = planApply(dropped, await observe(client, dropped));
    expect(plan.summary).toEqual(['delete Port_Group "root_pg"']);
    await apply(client, dropped);
    expect(await rows('Port_Group', [['name', '==', 'root_pg']])).toEqual([]);
    expect(await recordOf('o-root')).toBe('["Address_Set"]');
    const after = recording(client);
    await apply(after, dropped);
    expect(writes(after)).toEqual([]);
    expect(scans(after.sent, 'Port_Group')).toEqual([]);
  });

  it('scans every crowded root table for an owner without the record (rows written before it), and writes it', async () => {
    const request = { owner: 'o-legacy', schema: nbSchema, desired: [group('legacy_pg'), addressSet('legacy_as')] };
    await apply(client, request);
    await client.transact(NB, [
      {
        op: 'mutate',
        table: 'NB_Global',
        where: [],
        mutations: [['external_ids', 'delete', ['set', ['ovnk.io/hung/o-legacy']]]],
      },
    ]);
    const dropped = { ...request, desired: [group('legacy_pg')] };
    const db = recording(client);
    const result = await apply(db, dropped);
    for (const table of ['Address_Set', 'Load_Balancer', 'Port_Group']) expect(scans(db.sent, table)).not.toEqual([]);
    expect(result.plan.summary).toEqual(['delete Address_Set "legacy_as"']);
    expect(await recordOf('o-legacy')).toBe('["Port_Group"]');
  });
});
