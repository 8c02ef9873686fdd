import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../provider/ovsdb/notation';
import { withRowUuids } from '../../../provider/ovsdb/rowUuids';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const insert = (name: string, row: Record<string, unknown> = {}): Operation =>
  ({ op: 'insert', table: 'Logical_Router_Static_Route', 'uuid-name': name, row }) as Operation;

const chosen = (op: Operation | undefined): string => {
  if (op?.op !== 'insert' || op.uuid === undefined) throw new Error(`not an insert with a uuid: ${JSON.stringify(op)}`);
  return op.uuid;
};

describe('choosing the uuids of the rows a transaction inserts', () => {
  it('gives each named insert a version 4 uuid whose first 32 bits count up in the order of the inserts', () => {
    const sent = withRowUuids([insert('a'), insert('b'), insert('c')]);
    const uuids = sent.map(chosen);
    for (const uuid of uuids) expect(uuid).toMatch(UUID);
    const counts = uuids.map((u) => Number.parseInt(u.slice(0, 8), 16));
    expect(counts[1]).toBe((counts[0]! + 1) >>> 0);
    expect(counts[2]).toBe((counts[0]! + 2) >>> 0);
    expect(new Set(uuids.map((u) => u.slice(8))).size).toBe(1); // one random draw per transaction
    expect(chosen(withRowUuids([insert('a')])[0]).slice(8)).not.toBe(uuids[0]!.slice(8));
    for (const op of sent) expect(op).not.toHaveProperty('uuid-name');
  });

  it('points every named-uuid reference at the chosen uuid: in rows, sets, maps, mutations and conditions', () => {
    const ops: Operation[] = [
      {
        op: 'mutate',
        table: 'Logical_Router',
        where: [['name', '==', 'lr']],
        mutations: [
          [
            'static_routes',
            'insert',
            [
              'set',
              [
                ['named-uuid', 'r1'],
                ['named-uuid', 'r2'],
              ],
            ],
          ],
        ],
      },
      insert('r1'),
      insert('r2'),
      {
        op: 'insert',
        table: 'Logical_Router',
        'uuid-name': 'lr2',
        row: { static_routes: ['named-uuid', 'r1'], options: ['map', [['k', 'v']]] },
      },
      {
        op: 'update',
        table: 'QoS',
        where: [['_uuid', '==', ['named-uuid', 'r2']]],
        row: { external_ids: ['map', [['ref', ['named-uuid', 'r2']]]] },
      },
    ] as Operation[];
    const before = JSON.stringify(ops);
    const sent = withRowUuids(ops);
    const [r1, r2] = [chosen(sent[1]), chosen(sent[2])];
    expect(sent[0]).toEqual({
      ...ops[0],
      mutations: [
        [
          'static_routes',
          'insert',
          [
            'set',
            [
              ['uuid', r1],
              ['uuid', r2],
            ],
          ],
        ],
      ],
    });
    expect(sent[3]).toEqual({
      op: 'insert',
      table: 'Logical_Router',
      uuid: chosen(sent[3]),
      row: { static_routes: ['uuid', r1], options: ['map', [['k', 'v']]] },
    });
    expect(sent[4]).toEqual({
      ...ops[4],
      where: [['_uuid', '==', ['uuid', r2]]],
      row: { external_ids: ['map', [['ref', ['uuid', r2]]]] },
    });
    expect(JSON.stringify(ops)).toBe(before); // the plan itself keeps its names
  });

  it('leaves strings that read "named-uuid" alone: a set of strings is not a reference', () => {
    const ops = [
      insert('a'),
      { op: 'update', table: 'ACL', where: [], row: { label: ['set', ['named-uuid', 'a']] } },
    ] as Operation[];
    expect(withRowUuids(ops)[1]).toEqual(ops[1]);
  });

  it("keeps an insert's own uuid and points its name's references at it", () => {
    const own = '0b8e3c2a-1d5e-4a6b-9c7d-2e4f6a8b0c1d';
    const ops = [
      { ...insert('a'), uuid: own },
      {
        op: 'mutate',
        table: 'Logical_Router',
        where: [],
        mutations: [['static_routes', 'insert', ['named-uuid', 'a']]],
      },
    ] as Operation[];
    const sent = withRowUuids(ops);
    expect(chosen(sent[0])).toBe(own);
    expect(sent[1]).toEqual({ ...ops[1], mutations: [['static_routes', 'insert', ['uuid', own]]] });
  });

  it('sends as they are: operations with no named insert, a name inserted twice, a name never inserted', () => {
    const none = [{ op: 'delete', table: 'ACL', where: [['name', '==', 'x']] }] as Operation[];
    expect(withRowUuids(none)).toBe(none);
    const twice = [insert('a'), insert('a')];
    expect(withRowUuids(twice)).toBe(twice);
    const unknown = [
      insert('a'),
      {
        op: 'mutate',
        table: 'Logical_Router',
        where: [],
        mutations: [['static_routes', 'insert', ['named-uuid', 'b']]],
      },
    ] as Operation[];
    expect(withRowUuids(unknown)[1]).toEqual(unknown[1]);
  });
});
