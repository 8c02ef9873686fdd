import { describe, expect, it } from 'vitest';
import type { DesiredRow, ObservedRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import { vswitchSchema } from '../../../provider/nb/generated/vswitch';
import { ledgerHome, LedgerError } from '../../../provider/nb/ledger';
import { reconcile, ReconcileError } from '../../../provider/nb/reconcile';
import { materialize, owner, uuidFor } from './fixtures';

const KEY = `ovnk.io/owned/${owner}`;
const lbg = (name: string): DesiredRow => ({ table: 'Load_Balancer_Group', columns: { name, load_balancer: [] } });
const binding = (ip: string, mac = '0a:58:a9:fe:01:01'): DesiredRow => ({
  table: 'Static_MAC_Binding',
  columns: { logical_port: 'rtoe-GR_n1', ip, mac, override_dynamic_mac: true },
});
const desired = () => [lbg('cnc_svc_x'), binding('169.254.0.1')];
const ledgerText = JSON.stringify({
  Load_Balancer_Group: ['cnc_svc_x'],
  Static_MAC_Binding: ['rtoe-GR_n1/169.254.0.1'],
});

const plan = (rows: DesiredRow[], foreign: ObservedRow[] = [], text?: string) =>
  reconcile({ owner, schema: nbSchema, desired: rows, observed: [], foreign, ledger: { homeExists: true, text } });

/**
 * The server after `rows` were written: ledger rows carry no marker, so observe reports them as
 * rows of ledger tables.
 */
const written = (rows: DesiredRow[]) => materialize(rows).observed;

describe('the ledger of rows without external_ids', () => {
  it('is written with the rows it owns, in the same transaction, sorted, and checked to be ours afterwards', () => {
    const result = plan(desired());
    expect(result.operations.map((op) => op.op)).toEqual(['insert', 'insert', 'wait', 'mutate', 'wait']);
    expect(result.operations.slice(2)).toEqual([
      {
        op: 'wait',
        table: 'NB_Global',
        where: [['external_ids', 'excludes', ['map', [[KEY, ledgerText]]]]],
        columns: [],
        until: '==',
        rows: [{}],
        timeout: 0,
      },
      {
        op: 'mutate',
        table: 'NB_Global',
        where: [],
        mutations: [['external_ids', 'insert', ['map', [[KEY, ledgerText]]]]],
      },
      {
        op: 'wait',
        table: 'NB_Global',
        where: [['external_ids', 'includes', ['map', [[KEY, ledgerText]]]]],
        columns: [],
        until: '==',
        rows: [{}],
        timeout: 0,
      },
    ]);
    expect(result.guards).toEqual([
      `NB_Global.external_ids["${KEY}"] does not hold this transaction's value yet (it is not a resent transaction that committed)`,
      `NB_Global.external_ids["${KEY}"] was not written by another writer meanwhile`,
    ]);
    const lbgInsert = result.operations[0] as { row: Record<string, unknown> };
    expect(lbgInsert.row.external_ids).toBeUndefined();
    expect(result.summary).toContain(`update NB_Global: external_ids["${KEY}"]: absent -> ${ledgerText}`);
  });

  it('is rewritten only while it still holds the text that was read', () => {
    const stored = JSON.stringify({ Load_Balancer_Group: ['cnc_svc_x'] });
    const result = plan(desired(), written([lbg('cnc_svc_x')]), stored);
    expect(result.operations.slice(-3)).toEqual([
      {
        op: 'wait',
        table: 'NB_Global',
        where: [['external_ids', 'includes', ['map', [[KEY, stored]]]]],
        columns: [],
        until: '==',
        rows: [{}],
        timeout: 0,
      },
      { op: 'mutate', table: 'NB_Global', where: [], mutations: [['external_ids', 'delete', ['set', [KEY]]]] },
      {
        op: 'mutate',
        table: 'NB_Global',
        where: [],
        mutations: [['external_ids', 'insert', ['map', [[KEY, ledgerText]]]]],
      },
    ]);
    expect(result.guards.at(-1)).toBe(`NB_Global.external_ids["${KEY}"] is unchanged since it was read`);
  });

  it('inserts the home row when the database has none yet', () => {
    const result = reconcile({
      owner,
      schema: nbSchema,
      desired: desired(),
      observed: [],
      ledger: { homeExists: false },
    });
    expect(result.operations.at(-1)).toEqual({
      op: 'insert',
      table: 'NB_Global',
      row: { external_ids: ['map', [[KEY, ledgerText]]] },
    });
  });

  it('sends nothing on a second reconcile of the same rows', () => {
    expect(plan(desired(), written(desired()), ledgerText).operations).toEqual([]);
  });

  it('leaves a foreign group with the same name untouched and reports it', () => {
    const theirs = written([lbg('cnc_svc_x')]);
    let error: ReconcileError | undefined;
    try {
      plan([lbg('cnc_svc_x')], theirs);
    } catch (e) {
      error = e as ReconcileError;
    }
    expect(error).toBeInstanceOf(ReconcileError);
    expect(error!.problems.map((p) => [p.reason, p.table, p.identity])).toEqual([
      ['foreignTwin', 'Load_Balancer_Group', 'cnc_svc_x'],
    ]);
    expect(error!.foreignTwins).toBe(1);
    expect(error!.problems.map((p) => p.message)).toEqual([
      `Load_Balancer_Group "cnc_svc_x": a row with this identity already exists (${theirs[0]!.uuid}) and is not ours (not in NB_Global.external_ids["${KEY}"]); it is left alone and ours cannot be inserted beside it (unique index [["name"]])`,
    ]);
    expect(plan([], theirs).operations).toEqual([]);
  });

  it('deletes rows dropped from the desired set, and the ledger key with the last of them', () => {
    const observed = written(desired());
    const one = plan([lbg('cnc_svc_x')], observed, ledgerText);
    expect(one.summary).toEqual([
      'delete Static_MAC_Binding "rtoe-GR_n1/169.254.0.1"',
      `update NB_Global: external_ids["${KEY}"]: ${ledgerText} -> {"Load_Balancer_Group":["cnc_svc_x"]}`,
    ]);
    const none = plan([], observed, ledgerText);
    expect(none.operations.filter((op) => op.op === 'delete').map((op) => (op as { table: string }).table)).toEqual([
      'Load_Balancer_Group',
      'Static_MAC_Binding',
    ]);
    expect(none.operations).toContainEqual({
      op: 'mutate',
      table: 'NB_Global',
      where: [],
      mutations: [['external_ids', 'delete', ['set', [KEY]]]],
    });
  });

  it('guards the deletion of a ledger row with a wait on every column it had', () => {
    const observed = written([binding('169.254.0.1')]);
    const result = plan([], observed, JSON.stringify({ Static_MAC_Binding: ['rtoe-GR_n1/169.254.0.1'] }));
    expect(result.operations[0]).toMatchObject({
      op: 'wait',
      table: 'Static_MAC_Binding',
      columns: ['ip', 'logical_port', 'mac', 'override_dynamic_mac'],
    });
  });

  it('repairs a hand change of a ledger-owned row, guarded by its index columns', () => {
    const observed = written(desired());
    observed[1]!.columns.mac = '0a:00:00:00:00:99';
    const result = plan(desired(), observed, ledgerText);
    expect(result.operations).toEqual([
      {
        op: 'wait',
        table: 'Static_MAC_Binding',
        where: [['_uuid', '==', ['uuid', observed[1]!.uuid]]],
        columns: ['ip', 'logical_port', 'mac'],
        until: '==',
        rows: [{ ip: '169.254.0.1', logical_port: 'rtoe-GR_n1', mac: '0a:00:00:00:00:99' }],
        timeout: 0,
      },
      {
        op: 'update',
        table: 'Static_MAC_Binding',
        where: [['_uuid', '==', ['uuid', observed[1]!.uuid]]],
        row: { mac: '0a:58:a9:fe:01:01' },
      },
    ]);
  });

  it('refuses a stored ledger that is not JSON, naming its key', () => {
    expect(() => plan([], [], '{oops')).toThrow(LedgerError);
    expect(() => plan([], [], '{oops')).toThrow(`NB_Global.external_ids["${KEY}"] is not JSON`);
  });

  it('has its home in the root singleton of each database that has one', () => {
    expect(ledgerHome(nbSchema.name)).toEqual({ table: 'NB_Global', column: 'external_ids' });
    expect(ledgerHome(vswitchSchema.name)).toEqual({ table: 'Open_vSwitch', column: 'external_ids' });
    expect(ledgerHome('OVN_Southbound')).toBeUndefined();
  });

  it('still refuses tables without external_ids that have no unique index', () => {
    expect(() =>
      reconcile({
        owner,
        schema: vswitchSchema,
        desired: [{ table: 'AutoAttach', columns: { system_name: 'aa' } }],
        observed: [],
      }),
    ).toThrow(
      'AutoAttach has no external_ids column to carry our owner marker, and no unique index to record its rows by in a ledger',
    );
  });

  it('identifies a static MAC binding by its index columns', () => {
    expect(
      plan([binding('169.254.0.1'), binding('169.254.0.1', '0a:00:00:00:00:02')].slice(0, 1)).changes[0],
    ).toMatchObject({ identity: 'rtoe-GR_n1/169.254.0.1' });
    expect(() => plan([binding('169.254.0.1'), binding('169.254.0.1', '0a:00:00:00:00:02')])).toThrow(
      'another desired Static_MAC_Binding row has the same identity',
    );
  });
});

describe('rows with several parents', () => {
  const sw = (n: number, name: string, extra: Record<string, unknown> = {}): ObservedRow => ({
    table: 'Logical_Switch',
    uuid: uuidFor(n),
    columns: { name, load_balancer_group: [], acls: [], external_ids: {}, ...extra },
  });
  const switches = () => [sw(1, 'sw-a'), sw(2, 'sw-b'), sw(3, 'sw-c')];
  const parent = (identity: string) => ({ table: 'Logical_Switch', identity, column: 'load_balancer_group' });
  const group = (...parents: string[]): DesiredRow => ({ ...lbg('cnc_svc_x'), parents: parents.map(parent) });
  const text = JSON.stringify({ Load_Balancer_Group: ['cnc_svc_x'] });

  it('attaches a row to each foreign parent with a guarded mutate, once', () => {
    const result = plan([group('sw-a', 'sw-b')], switches());
    expect(result.operations.filter((op) => op.op === 'wait').map((op) => (op as { where: unknown }).where)).toEqual([
      [['_uuid', '==', ['uuid', uuidFor(1)]]],
      [['_uuid', '==', ['uuid', uuidFor(2)]]],
      [['external_ids', 'excludes', ['map', [[KEY, text]]]]],
      [['external_ids', 'includes', ['map', [[KEY, text]]]]],
    ]);
    expect(result.summary).toContain(
      'attach Load_Balancer_Group "cnc_svc_x": to Logical_Switch "sw-a" load_balancer_group',
    );
    expect(result.summary).toContain(
      'attach Load_Balancer_Group "cnc_svc_x": to Logical_Switch "sw-b" load_balancer_group',
    );
    const after = materialize([group('sw-a', 'sw-b')], switches());
    expect(plan([group('sw-a', 'sw-b')], [...after.observed, ...after.foreign], text).operations).toEqual([]);
  });

  it("detaches a row from a foreign row that is no longer its parent, keeping that row's other references", () => {
    const after = materialize([group('sw-a', 'sw-b')], switches());
    const b = after.foreign.find((r) => r.columns.name === 'sw-b')!;
    b.columns.load_balancer_group = [...(b.columns.load_balancer_group as unknown[]), { uuid: uuidFor(99) }];
    const result = plan([group('sw-a')], [...after.observed, ...after.foreign], text);
    expect(result.operations).toEqual([
      {
        op: 'mutate',
        table: 'Logical_Switch',
        where: [['_uuid', '==', ['uuid', uuidFor(2)]]],
        mutations: [['load_balancer_group', 'delete', ['set', [['uuid', after.observed[0]!.uuid]]]]],
      },
    ]);
    expect(result.summary).toEqual([
      'detach Load_Balancer_Group "cnc_svc_x": from Logical_Switch "sw-b" load_balancer_group',
    ]);
  });

  it('writes a child into a parent of the desired set and attaches it to the foreign ones', () => {
    const acl: DesiredRow = {
      table: 'ACL',
      columns: {
        direction: 'from-lport',
        priority: 100,
        action: 'drop',
        match: 'ip4',
        external_ids: { 'k8s.ovn.org/id': 'acl-1' },
      },
      parents: [
        { table: 'Logical_Switch', identity: 'ours', column: 'acls' },
        { table: 'Logical_Switch', identity: 'sw-c', column: 'acls' },
      ],
    };
    const result = plan([acl, { table: 'Logical_Switch', columns: { name: 'ours' } }], switches());
    expect(result.operations.find((op) => op.op === 'insert' && op.table === 'Logical_Switch')).toMatchObject({
      row: { acls: ['set', [['named-uuid', 'new_0']]] },
    });
    expect(result.summary).toEqual([
      'create ACL "acl-1"',
      'attach ACL "acl-1": to Logical_Switch "sw-c" acls',
      'create Logical_Switch "ours"',
    ]);
  });

  it('detaches a deleted non-root row from every parent that may hold it', () => {
    const acl: DesiredRow = {
      table: 'ACL',
      columns: {
        direction: 'to-lport',
        priority: 1,
        action: 'allow',
        match: '1',
        external_ids: { 'k8s.ovn.org/id': 'a' },
      },
      parents: [parent('sw-a'), parent('sw-b')].map((p) => ({ ...p, column: 'acls' })),
    };
    const after = materialize([acl], switches());
    const result = reconcile({
      owner,
      schema: nbSchema,
      desired: [],
      observed: after.observed,
      foreign: after.foreign,
    });
    const detaches = result.operations
      .filter((op) => op.op === 'mutate')
      .map((op) => `${(op as { table: string }).table}.${JSON.stringify((op as { where: unknown }).where)}`);
    expect(detaches).toContain(
      `Logical_Switch.${JSON.stringify([['acls', 'includes', ['uuid', after.observed[0]!.uuid]]])}`,
    );
    const deletion = result.operations.findIndex((op) => op.op === 'delete');
    expect(result.operations[deletion]).toEqual({
      op: 'delete',
      table: 'ACL',
      where: [['_uuid', '==', ['uuid', after.observed[0]!.uuid]]],
    });
    expect(result.operations.slice(deletion + 1).map((op) => op.op)).toEqual(detaches.map(() => 'mutate'));
  });
});
