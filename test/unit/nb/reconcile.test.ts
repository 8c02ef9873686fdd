import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DesiredRow, ObservedRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import { describeChange, reconcile, ReconcileError, type RowChange } from '../../../provider/nb/reconcile';
import { materialize, owner, port, route, router, uuidFor } from './fixtures';

const plan = (desired: DesiredRow[], observed: ObservedRow[] = [], foreign: ObservedRow[] = []) =>
  reconcile({ owner, schema: nbSchema, desired, observed, foreign });

const topology = (): DesiredRow[] => [
  router('lr1', { ports: ['lrp1'], static_routes: ['r1'], options: { 'requested-tnl-key': '50000' } }),
  port('lrp1'),
  route('r1', '10.0.0.0/24', '100.64.0.2'),
];

const clusterRouter: ObservedRow = {
  table: 'Logical_Router',
  uuid: uuidFor(1),
  columns: { name: 'ovn_cluster_router', static_routes: [{ uuid: uuidFor(2) }], external_ids: {} },
};

describe('reconcile', () => {
  it('inserts new rows with named uuids, children before the root that references them', () => {
    const result = plan(topology());
    expect(result.operations.map((op) => [op.op, 'table' in op ? op.table : ''])).toEqual([
      ['insert', 'Logical_Router_Port'],
      ['insert', 'Logical_Router_Static_Route'],
      ['insert', 'Logical_Router'],
    ]);
    const lr = result.operations[2] as { row: Record<string, unknown> };
    expect(lr.row.ports).toEqual(['set', [['named-uuid', 'new_1']]]);
    expect(lr.row.static_routes).toEqual(['set', [['named-uuid', 'new_2']]]);
    expect(lr.row.external_ids).toEqual(['map', [['ovnk.io/owner', owner]]]);
    expect(result.summary).toEqual([
      'create Logical_Router "lr1"',
      'create Logical_Router_Port "lrp1"',
      'create Logical_Router_Static_Route "r1"',
    ]);
  });

  it('sends nothing when the observed rows are the desired ones', () => {
    const { observed } = materialize(topology());
    const result = plan(topology(), observed);
    expect(result.operations).toEqual([]);
    expect(result.summary).toEqual([]);
  });

  it('compares sets in any order, maps in any key order and the compact one-element set', () => {
    const desired = [
      router('lr1', { ports: ['a', 'b'], options: { x: '1', y: '2' } }),
      port('a', 'm1', ['10.0.0.1/24', '10.1.0.1/24']),
      port('b'),
    ];
    const { observed } = materialize(desired);
    observed[0].columns.ports = [...(observed[0].columns.ports as unknown[])].reverse();
    observed[0].columns.options = { y: '2', x: '1' };
    observed[1].columns.networks = ['10.1.0.1/24', '10.0.0.1/24'];
    observed[2].columns.networks = '100.64.0.1/31';
    expect(plan(desired, observed).operations).toEqual([]);
  });

  it('updates only the changed columns, guarded by a wait on the values it observed', () => {
    const { observed } = materialize(topology());
    const desired = topology();
    desired[1] = port('lrp1', '0a:58:64:40:00:99');
    const result = plan(desired, observed);
    const lrp = observed[1];
    expect(result.operations).toEqual([
      {
        op: 'wait',
        table: 'Logical_Router_Port',
        where: [['_uuid', '==', ['uuid', lrp.uuid]]],
        columns: ['external_ids', 'mac'],
        until: '==',
        rows: [{ external_ids: ['map', [['ovnk.io/owner', owner]]], mac: '0a:58:64:40:00:01' }],
        timeout: 0,
      },
      {
        op: 'update',
        table: 'Logical_Router_Port',
        where: [['_uuid', '==', ['uuid', lrp.uuid]]],
        row: { mac: '0a:58:64:40:00:99' },
      },
    ]);
    expect(result.summary).toEqual([
      'update Logical_Router_Port "lrp1": mac: "0a:58:64:40:00:01" -> "0a:58:64:40:00:99"',
    ]);
  });

  it('repairs a hand change of a managed column', () => {
    const { observed } = materialize(topology());
    observed[0].columns.options = { 'requested-tnl-key': '4242', 'hand-added': 'yes' };
    const result = plan(topology(), observed);
    expect(result.operations.filter((op) => op.op === 'update')).toEqual([
      {
        op: 'update',
        table: 'Logical_Router',
        where: [['_uuid', '==', ['uuid', observed[0].uuid]]],
        row: { options: ['map', [['requested-tnl-key', '50000']]] },
      },
    ]);
  });

  it('deletes our rows no longer desired, detaching a non-root row from its parents in the same transaction', () => {
    const { observed } = materialize(topology());
    const desired = topology();
    desired[0] = router('lr1', { ports: ['lrp1'], options: { 'requested-tnl-key': '50000' } });
    desired.pop();
    const result = plan(desired, observed);
    const routeUuid = observed[2].uuid;
    expect(result.operations.map((op) => op.op)).toEqual(['wait', 'delete', 'mutate']);
    expect(result.operations[1]).toEqual({
      op: 'delete',
      table: 'Logical_Router_Static_Route',
      where: [['_uuid', '==', ['uuid', routeUuid]]],
    });
    expect(result.operations[2]).toEqual({
      op: 'mutate',
      table: 'Logical_Router',
      where: [['static_routes', 'includes', ['uuid', routeUuid]]],
      mutations: [['static_routes', 'delete', ['set', [['uuid', routeUuid]]]]],
    });
    expect(result.summary).toEqual(['delete Logical_Router_Static_Route "r1"']);
  });

  it('never changes or deletes rows without our marker, even identical ones', () => {
    const { observed: theirs } = materialize(topology(), [], 'someone-else', 5000);
    const result = plan(topology(), [], theirs);
    expect(result.operations.map((op) => op.op)).toEqual(['insert', 'insert', 'insert']);
    const fromObserved = plan(
      [],
      theirs.map((r) => ({ ...r, columns: { ...r.columns, external_ids: {} } })),
    );
    expect(fromObserved.operations).toEqual([]);
  });

  it("adds our rows to a reference set and removes only ours, leaving others' rows in it", () => {
    const desired = [router('lr1', { ports: ['lrp1', 'lrp2'] }), port('lrp1'), port('lrp2')];
    const { observed } = materialize([router('lr1', { ports: ['lrp1', 'lrp3'] }), port('lrp1'), port('lrp3')]);
    const foreignPort = { uuid: uuidFor(77) };
    (observed[0].columns.ports as unknown[]).push(foreignPort);
    const result = plan(desired, observed);
    const mutations = result.operations
      .filter((op) => op.op === 'mutate')
      .map((op) => (op as { mutations: unknown[] }).mutations[0]);
    expect(mutations).toContainEqual(['ports', 'insert', ['set', [['named-uuid', 'new_2']]]]);
    expect(JSON.stringify(mutations)).not.toContain(foreignPort.uuid);
    expect(result.summary).toContain('update Logical_Router "lr1": ports + Logical_Router_Port "lrp2"');
    expect(result.summary).toContain('delete Logical_Router_Port "lrp3"');
  });

  it('attaches a non-root row to a foreign parent with a mutate in the same transaction, once', () => {
    const desired = [
      route('r9', '10.9.0.0/16', '100.64.0.9', {
        table: 'Logical_Router',
        identity: 'ovn_cluster_router',
        column: 'static_routes',
      }),
    ];
    const first = plan(desired, [], [clusterRouter]);
    expect(first.operations).toEqual([
      {
        op: 'wait',
        table: 'Logical_Router',
        where: [['_uuid', '==', ['uuid', clusterRouter.uuid]]],
        columns: ['_uuid'],
        until: '==',
        rows: [{ _uuid: ['uuid', clusterRouter.uuid] }],
        timeout: 0,
      },
      expect.objectContaining({ op: 'insert', table: 'Logical_Router_Static_Route', 'uuid-name': 'new_0' }),
      {
        op: 'mutate',
        table: 'Logical_Router',
        where: [['_uuid', '==', ['uuid', clusterRouter.uuid]]],
        mutations: [['static_routes', 'insert', ['set', [['named-uuid', 'new_0']]]]],
      },
    ]);
    expect(first.summary).toEqual([
      'create Logical_Router_Static_Route "r9"',
      'attach Logical_Router_Static_Route "r9": to Logical_Router "ovn_cluster_router" static_routes',
    ]);
    const { observed, foreign } = materialize(desired, [clusterRouter]);
    expect(plan(desired, observed, foreign).operations).toEqual([]);
  });

  it("lists a child whose parent is in the desired set in that parent's column", () => {
    const desired = [
      router('lr1'),
      route('r1', '10.0.0.0/8', '1.1.1.1', { table: 'Logical_Router', identity: 'lr1', column: 'static_routes' }),
    ];
    const result = plan(desired);
    expect((result.operations[1] as { row: Record<string, unknown> }).row.static_routes).toEqual([
      'set',
      [['named-uuid', 'new_1']],
    ]);
    expect(
      plan(
        desired,
        materialize([router('lr1', { static_routes: ['r1'] }), route('r1', '10.0.0.0/8', '1.1.1.1')]).observed,
      ).operations,
    ).toEqual([]);
  });

  it("refuses a parent column that does not hold references to the child's table", () => {
    const desired = [
      router('lr1'),
      route('r1', '10.0.0.0/8', '1.1.1.1', { table: 'Logical_Router', identity: 'lr1', column: 'ports' }),
    ];
    expect(() => plan(desired)).toThrow(
      'Logical_Router_Static_Route "r1": parent column Logical_Router.ports is not a set of references to Logical_Router_Static_Route',
    );
  });

  it('resolves a reference to a foreign row by its identity, guarded by that row still existing', () => {
    const copp: ObservedRow = {
      table: 'Copp',
      uuid: uuidFor(5),
      columns: { name: 'ovnkube-default', meters: {}, external_ids: {} },
    };
    const result = plan([router('lr1', { copp: 'ovnkube-default' })], [], [copp]);
    const insert = result.operations.find((op) => op.op === 'insert') as { row: Record<string, unknown> };
    expect(insert.row.copp).toEqual(['uuid', copp.uuid]);
    expect(result.operations[0]).toMatchObject({
      op: 'wait',
      table: 'Copp',
      where: [['_uuid', '==', ['uuid', copp.uuid]]],
    });
    expect(result.guards).toEqual([`Copp "ovnkube-default" (${copp.uuid}) still exists`]);
  });

  it('guards a row of ours whose reference set gets a new child by that row still existing, once', () => {
    const { observed } = materialize([router('lr1', { ports: [] })]);
    const lr = observed[0]!;
    const result = plan([router('lr1', { ports: ['p1', 'p2'] }), port('p1'), port('p2')], observed);
    const waits = result.operations.filter((op) => op.op === 'wait');
    expect(waits).toEqual([
      {
        op: 'wait',
        table: 'Logical_Router',
        where: [['_uuid', '==', ['uuid', lr.uuid]]],
        columns: ['_uuid'],
        until: '==',
        rows: [{ _uuid: ['uuid', lr.uuid] }],
        timeout: 0,
      },
    ]);
    expect(result.guards).toEqual([`Logical_Router "lr1" (${lr.uuid}) still exists`]);
  });

  it('reports every problem of the desired rows at once', () => {
    const desired: DesiredRow[] = [
      router('lr1', { copp: 'missing-copp', bogus: 1 }),
      router('lr1'),
      { table: 'No_Such_Table', columns: { name: 'x' } },
      { table: 'AutoAttach', columns: { system_name: 'x' } },
      route('orphan', '10.0.0.0/8', '1.1.1.1'),
      { table: 'Logical_Router_Static_Route', columns: { ip_prefix: '1.0.0.0/8', nexthop: '1.1.1.1' } },
    ];
    let error: ReconcileError | undefined;
    try {
      plan(desired);
    } catch (e) {
      error = e as ReconcileError;
    }
    expect(error).toBeInstanceOf(ReconcileError);
    expect(error!.problems.map((p) => [p.reason, p.table, p.identity])).toEqual([
      ['unknownColumns', 'Logical_Router', 'lr1'],
      ['duplicateIdentity', 'Logical_Router', 'lr1'],
      ['unknownTable', 'No_Such_Table', 'x'],
      ['unknownTable', 'AutoAttach', undefined],
      ['noIdentity', 'Logical_Router_Static_Route', undefined],
      ['unparented', 'Logical_Router_Static_Route', 'orphan'],
    ]);
    expect(error!.problems.map((p) => p.message)).toEqual([
      'desired row 0 (Logical_Router "lr1"): Logical_Router has no column(s) bogus',
      'desired row 1 (Logical_Router "lr1"): another desired Logical_Router row has the same identity',
      'desired row 2 (No_Such_Table "x"): table No_Such_Table is not in OVN_Northbound 7.18.0',
      'desired row 3 (AutoAttach): table AutoAttach is not in OVN_Northbound 7.18.0',
      'desired row 5 (Logical_Router_Static_Route): has no identity (name, external_ids k8s.ovn.org/id or ovnk.io/key)',
      'Logical_Router_Static_Route "orphan": Logical_Router_Static_Route is not a root table and no desired row references it (give it parents)',
    ]);
  });

  it('names the row, the column and the reference it cannot resolve', () => {
    expect(() => plan([router('lr1', { copp: 'missing-copp' })])).toThrow(
      'Logical_Router "lr1" column copp: reference "missing-copp": Copp "missing-copp" is neither in the desired rows nor among the observed rows',
    );
  });

  it('deletes all but one of several owned rows sharing an identity', () => {
    const { observed } = materialize([router('lr1')]);
    const twin = { ...observed[0], uuid: uuidFor(999999) };
    const result = plan([router('lr1')], [twin, ...observed]);
    expect(result.operations.filter((op) => op.op === 'delete')).toEqual([
      { op: 'delete', table: 'Logical_Router', where: [['_uuid', '==', ['uuid', twin.uuid]]] },
    ]);
  });
});

const routesArb = fc.uniqueArray(
  fc.record({
    key: fc.stringMatching(/^[a-z0-9-]{1,12}$/),
    third: fc.integer({ min: 0, max: 255 }),
    hop: fc.integer({ min: 1, max: 254 }),
  }),
  { selector: (r) => r.key, maxLength: 30 },
);

function desiredFrom(routes: { key: string; third: number; hop: number }[], routerNames: string[]): DesiredRow[] {
  const rows: DesiredRow[] = routerNames.map((name, i) =>
    router(name, {
      static_routes: routes.filter((_, j) => j % routerNames.length === i).map((r) => r.key),
      options: { n: String(i) },
    }),
  );
  return [...rows, ...routes.map((r) => route(r.key, `10.${r.third}.0.0/16`, `100.64.0.${r.hop}`))];
}

describe('reconcile properties', () => {
  const routers = fc.uniqueArray(fc.stringMatching(/^lr-[a-z]{1,6}$/), { minLength: 1, maxLength: 4 });

  it('reconciling the state the desired rows describe gives no operations', () => {
    fc.assert(
      fc.property(routesArb, routers, (routes, names) => {
        const desired = desiredFrom(routes, names);
        expect(plan(desired, materialize(desired).observed).operations).toEqual([]);
      }),
    );
  });

  it('the plan does not depend on the order of desired or observed rows', () => {
    const shuffled = <T>(items: T[], seed: number) =>
      [...items]
        .map((v, i) => ({ v, k: (i * 7919 + seed) % 104729 }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.v);
    fc.assert(
      fc.property(routesArb, routesArb, routers, fc.nat(), (before, after, names, seed) => {
        const { observed } = materialize(desiredFrom(before, names));
        const desired = desiredFrom(after, names);
        expect(plan(shuffled(desired, seed), shuffled(observed, seed + 1))).toEqual(plan(desired, observed));
      }),
    );
  });
});

describe('a change in words', () => {
  const change = {
    action: 'update' as const,
    table: 'Logical_Router',
    identity: 'lr1',
    details: ['options: {} -> {a="b"}'],
  };

  it('reads as the action apply takes, or as the drift diff finds, from one definition', () => {
    expect(describeChange(change as RowChange)).toBe('update Logical_Router "lr1": options: {} -> {a="b"}');
    expect(describeChange(change as RowChange, 'drift')).toBe('changed: Logical_Router "lr1": options: {} -> {a="b"}');
    expect(describeChange({ ...change, action: 'delete', details: [] } as RowChange, 'drift')).toBe(
      'extra row of ours: Logical_Router "lr1"',
    );
  });
});
