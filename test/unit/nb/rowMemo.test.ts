import { describe, expect, it } from 'vitest';
import { adaptRows, SchemaAdaptationError } from '../../../provider/nb/adapt';
import type { DesiredRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import { reconcile, ReconcileError } from '../../../provider/nb/reconcile';
import { internSchema } from '../../../provider/ovsdb/schema';
import { materialize, owner, port, route, router } from './fixtures';

// What is kept per row object (provider/nb/rowMemo.ts, adapt.ts, desired.ts) must give what
// working each row out again gives: the zones of a per-node plan share most row objects.
describe('rows shared by the zones of a plan', () => {
  const shared = [route('r1', '10.0.1.0/24', '100.88.0.3'), route('r2', '10.0.2.0/24', '100.88.0.4')];
  const zone = (name: string): DesiredRow[] => [
    router(name, { static_routes: ['r1', 'r2'], ports: [`${name}-p`] }),
    port(`${name}-p`),
    ...shared,
  ];

  it('plan each zone as rows of their own would, whatever zone came first', () => {
    const first = materialize(zone('lr-a'), [], owner, 1000);
    const second = materialize(zone('lr-b'), [], owner, 2000);
    second.observed[3]!.columns.nexthop = '100.88.0.9';
    reconcile({ owner, schema: nbSchema, desired: zone('lr-a'), observed: first.observed });
    const planned = reconcile({ owner, schema: nbSchema, desired: zone('lr-b'), observed: second.observed });
    const fresh = reconcile({
      owner,
      schema: nbSchema,
      desired: structuredClone(zone('lr-b')),
      observed: structuredClone(second.observed),
    });
    expect(planned).toEqual(fresh);
    expect(planned.summary).toEqual(['update Logical_Router_Static_Route "r2": nexthop: "100.88.0.9" -> "100.88.0.4"']);
  });

  it("carry each owner's marker when one row object is planned for two owners", () => {
    const marker = (who: string) => {
      const plan = reconcile({
        owner: who,
        schema: nbSchema,
        desired: [router('lr', { static_routes: ['r1'] }), shared[0]!],
        observed: [],
      });
      const insert = plan.operations.find((op) => op.op === 'insert' && op.table === 'Logical_Router_Static_Route');
      return (insert as unknown as { row: { external_ids: unknown } }).row.external_ids;
    };
    expect(marker('stack-a')).toEqual([
      'map',
      [
        ['ovnk.io/key', 'r1'],
        ['ovnk.io/owner', 'stack-a'],
      ],
    ]);
    expect(marker('stack-b')).toEqual([
      'map',
      [
        ['ovnk.io/key', 'r1'],
        ['ovnk.io/owner', 'stack-b'],
      ],
    ]);
  });

  it('refuse a row found without problems before when a zone holds it twice', () => {
    reconcile({
      owner,
      schema: nbSchema,
      desired: [router('lr', { static_routes: ['r1'] }), shared[0]!],
      observed: [],
    });
    expect(() =>
      reconcile({
        owner,
        schema: nbSchema,
        desired: [router('lr', { static_routes: ['r1'] }), shared[0]!, shared[0]!],
        observed: [],
      }),
    ).toThrow(ReconcileError);
  });

  it('adapt one row object to each server schema on its own', () => {
    const older = structuredClone(nbSchema);
    delete older.tables.Logical_Router_Static_Route!.columns.nexthop;
    expect(adaptRows([shared[0]!], nbSchema, internSchema(nbSchema))).toEqual([shared[0]]);
    expect(() => adaptRows([shared[0]!], nbSchema, internSchema(older))).toThrow(SchemaAdaptationError);
    expect(adaptRows([shared[0]!], nbSchema, internSchema(nbSchema))).toEqual([shared[0]]);
  });
});

describe('internSchema', () => {
  it('gives one object for schemas of one text and another for another text', () => {
    const a = internSchema(JSON.parse(JSON.stringify(nbSchema)));
    const b = internSchema(JSON.parse(JSON.stringify(nbSchema)));
    const changed = JSON.parse(JSON.stringify(nbSchema));
    changed.version = '0.0.1';
    expect(b).toBe(a);
    expect(internSchema(changed)).not.toBe(a);
  });

  it('tells apart schemas of one name, version and cksum whose content differs', () => {
    const a = internSchema(structuredClone(nbSchema));
    const edited = structuredClone(nbSchema);
    edited.tables.NB_Global!.columns.options!.type = 'string';
    expect(edited.cksum).toBe(a.cksum);
    const b = internSchema(edited);
    expect(b).not.toBe(a);
    expect(internSchema(structuredClone(edited))).toBe(b);
  });

  it('gives one object whatever order the server wrote the keys in', () => {
    const a = internSchema(structuredClone(nbSchema));
    const { tables, ...rest } = structuredClone(nbSchema);
    const reordered = { tables: Object.fromEntries(Object.entries(tables).reverse()), ...rest };
    expect(internSchema(reordered)).toBe(a);
  });
});
