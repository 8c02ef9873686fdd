import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply } from '../../../provider/nb/apply';
import type { DesiredRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import type { OvsdbClient } from '../../../provider/ovsdb/client';
import { startNbUnderTest, stopNbUnderTest } from '../../support/nbUnderTest';
import { type OvsdbServer, nbctl as nbctlAt } from '../../support/ovsdbServer';
import { recording as recordingOf, writes } from '../../support/recordingDatabase';

const NB = 'OVN_Northbound';
const owner = 'ledger-stack';
const KEY = `ovnk.io/owned/${owner}`;
let server: OvsdbServer;
let client: OvsdbClient;

const recording = () => recordingOf(client);
const nbctl = (...args: string[]) => nbctlAt(server, ...args);

beforeAll(async () => {
  ({ server, client } = await startNbUnderTest());
  await nbctl('init');
  for (const sw of ['sw-a', 'sw-b']) await nbctl('ls-add', sw);
  await nbctl('create', 'Load_Balancer_Group', 'name=their-group');
  for (const sw of ['sw-a', 'sw-b'])
    await nbctl(
      'add',
      'Logical_Switch',
      sw,
      'load_balancer_group',
      '@g',
      '--',
      '--id=@g',
      'get',
      'Load_Balancer_Group',
      'their-group',
    ).catch(async () => {
      const uuid = await nbctl('--bare', '--columns=_uuid', 'find', 'Load_Balancer_Group', 'name=their-group');
      await nbctl('add', 'Logical_Switch', sw, 'load_balancer_group', uuid);
    });
});

afterAll(() => stopNbUnderTest({ server, client }));

async function select(table: string): Promise<Record<string, unknown>[]> {
  const [result] = await client.transact(NB, [{ op: 'select', table, where: [] }]);
  return result!.rows ?? [];
}
const ledgerOf = async () => ((await select('NB_Global'))[0]!.external_ids as Record<string, string>)[KEY];
const groupsOf = async (sw: string) =>
  (await nbctl('--bare', '--columns=load_balancer_group', 'list', 'Logical_Switch', sw)).split(/\s+/).filter(Boolean);
const setLedger = async (text: string) => {
  const mutate = (mutator: string, value: unknown) => ({
    op: 'mutate' as const,
    table: 'NB_Global',
    where: [],
    mutations: [['external_ids', mutator, value]] as never,
  });
  await client.transact(NB, [mutate('delete', ['set', [KEY]]), mutate('insert', ['map', [[KEY, text]]])]);
};
const uuidOf = async (table: string, where: string) => nbctl('--bare', '--columns=_uuid', 'find', table, where);

const desired = (): DesiredRow[] => [
  {
    table: 'Load_Balancer_Group',
    columns: { name: 'cnc_svc_x', load_balancer: [] },
    parents: ['sw-a', 'sw-b'].map((identity) => ({ table: 'Logical_Switch', identity, column: 'load_balancer_group' })),
  },
  {
    table: 'Static_MAC_Binding',
    columns: { logical_port: 'rtoe-GR_n1', ip: '169.254.0.1', mac: '0a:58:a9:fe:00:01', override_dynamic_mac: true },
  },
];

describe('rows without external_ids, owned through the ledger, on a real NB server', () => {
  it('inserts a group attached to two switches of another owner and a static MAC binding, with the ledger', async () => {
    const db = recording();
    const result = await apply(db, { owner, schema: nbSchema, desired: desired() });
    expect(result.sent).toBe(true);
    expect(writes(db)).toHaveLength(1);
    const ours = await uuidOf('Load_Balancer_Group', 'name=cnc_svc_x');
    const theirs = await uuidOf('Load_Balancer_Group', 'name=their-group');
    for (const sw of ['sw-a', 'sw-b']) expect((await groupsOf(sw)).sort()).toEqual([ours, theirs].sort());
    expect(await nbctl('--bare', '--columns=mac', 'find', 'Static_MAC_Binding', 'ip=169.254.0.1')).toBe(
      '0a:58:a9:fe:00:01',
    );
    expect(JSON.parse((await ledgerOf())!)).toEqual({
      Load_Balancer_Group: ['cnc_svc_x'],
      Static_MAC_Binding: ['rtoe-GR_n1/169.254.0.1'],
    });
  });

  it('sends nothing on a second apply', async () => {
    const db = recording();
    const result = await apply(db, { owner, schema: nbSchema, desired: desired() });
    expect(result.plan.summary).toEqual([]);
    expect(writes(db)).toEqual([]);
  });

  it('repairs a hand change of a ledger-owned row', async () => {
    await nbctl(
      'set',
      'Static_MAC_Binding',
      await uuidOf('Static_MAC_Binding', 'ip=169.254.0.1'),
      'mac="0a:00:00:00:00:99"',
    );
    const result = await apply(recording(), { owner, schema: nbSchema, desired: desired() });
    expect(result.plan.summary).toEqual([
      'update Static_MAC_Binding "rtoe-GR_n1/169.254.0.1": mac: "0a:00:00:00:00:99" -> "0a:58:a9:fe:00:01"',
    ]);
    expect(await nbctl('--bare', '--columns=mac', 'find', 'Static_MAC_Binding', 'ip=169.254.0.1')).toBe(
      '0a:58:a9:fe:00:01',
    );
  });

  it('detaches the group from a switch that is no longer its parent', async () => {
    const rows = desired();
    rows[0]!.parents = rows[0]!.parents!.slice(0, 1);
    const result = await apply(recording(), { owner, schema: nbSchema, desired: rows });
    expect(result.plan.summary).toEqual([
      'detach Load_Balancer_Group "cnc_svc_x": from Logical_Switch "sw-b" load_balancer_group',
    ]);
    expect(await groupsOf('sw-b')).toEqual([await uuidOf('Load_Balancer_Group', 'name=their-group')]);
    expect((await apply(recording(), { owner, schema: nbSchema, desired: rows })).sent).toBe(false);
  });

  it('refuses a desired group whose name a foreign group has, and leaves that group alone', async () => {
    const rows: DesiredRow[] = [
      { table: 'Load_Balancer_Group', columns: { name: 'their-group', load_balancer: [] } },
      ...desired(),
    ];
    await expect(apply(recording(), { owner, schema: nbSchema, desired: rows })).rejects.toThrow(
      'Load_Balancer_Group "their-group": a row with this identity already exists',
    );
    expect(await uuidOf('Load_Balancer_Group', 'name=their-group')).not.toBe('');
  });

  it('a second writer of the same owner that rewrites the ledger meanwhile fails our transaction, which writes nothing', async () => {
    const rows = desired();
    rows.push({
      table: 'Static_MAC_Binding',
      columns: { logical_port: 'rtoe-GR_n1', ip: '169.254.0.7', mac: '0a:58:a9:fe:00:07', override_dynamic_mac: true },
    });
    const other = JSON.stringify({ Static_MAC_Binding: ['rtoe-GR_n1/169.254.0.9'] });
    const db = recordingOf(client, { beforeWrite: () => setLedger(other) });
    await expect(apply(db, { owner, schema: nbSchema, desired: rows })).rejects.toThrow(
      `expected NB_Global.external_ids["${KEY}"] is unchanged since it was read; nothing was written`,
    );
    expect(await ledgerOf()).toBe(other);
    expect(await nbctl('--bare', '--columns=mac', 'find', 'Static_MAC_Binding', 'ip=169.254.0.7')).toBe('');
    const restored = JSON.stringify({
      Load_Balancer_Group: ['cnc_svc_x'],
      Static_MAC_Binding: ['rtoe-GR_n1/169.254.0.1'],
    });
    await setLedger(restored);
  });

  it('destroy leaves no row of ours, no ledger key, and the foreign switches with their other groups', async () => {
    const theirs = await uuidOf('Load_Balancer_Group', 'name=their-group');
    const result = await apply(recording(), { owner, schema: nbSchema, desired: [] });
    expect(result.sent).toBe(true);
    expect(await uuidOf('Load_Balancer_Group', 'name=cnc_svc_x')).toBe('');
    expect(await select('Static_MAC_Binding')).toEqual([]);
    expect(await ledgerOf()).toBeUndefined();
    for (const sw of ['sw-a', 'sw-b']) expect(await groupsOf(sw)).toEqual([theirs]);
    expect((await apply(recording(), { owner, schema: nbSchema, desired: [] })).sent).toBe(false);
  });
});
