import { describe, expect, it } from 'vitest';
import type { DesiredRow, ObservedRow } from '../../../provider/nb/desired';
import { nbSchema } from '../../../provider/nb/generated/nb';
import { naturalKey, naturalRows, plannedAsObserved } from '../../../provider/nb/naturalKeys';
import { agrees, compareRows } from '../../../provider/nb/rowComparison';

// A router with a route and a NAT, a switch with a port, as a plan names them (references by
// identity, our ovnk.io keys) and as a Northbound holds them (uuids, no ovnk.io keys).
const planned = (): DesiredRow[] => [
  {
    table: 'Logical_Router',
    columns: { name: 'r1', static_routes: ['route-a'], nat: ['nat-a'], external_ids: { 'k8s.ovn.org/network': 'n' } },
  },
  {
    table: 'Logical_Router_Static_Route',
    columns: { ip_prefix: '10.0.0.0/16', nexthop: '100.65.0.1', external_ids: { 'ovnk.io/key': 'route-a' } },
  },
  {
    table: 'NAT',
    columns: {
      type: 'snat',
      external_ip: '169.254.0.11',
      logical_ip: '10.0.0.0/16',
      external_ids: { 'ovnk.io/key': 'nat-a', 'k8s.ovn.org/network': 'n' },
    },
  },
  { table: 'Logical_Switch', columns: { name: 's1', ports: ['p1'], acls: [] } },
  { table: 'Logical_Switch_Port', columns: { name: 'p1', addresses: ['0a:58:0a:00:00:03 10.0.0.3'] } },
];

const found = (): ObservedRow[] => [
  {
    table: 'Logical_Router',
    uuid: 'u-r1',
    columns: {
      name: 'r1',
      static_routes: [{ uuid: 'u-route' }],
      nat: [{ uuid: 'u-nat' }],
      policies: [],
      external_ids: { 'k8s.ovn.org/network': 'n' },
      options: {},
    },
  },
  {
    table: 'Logical_Router_Static_Route',
    uuid: 'u-route',
    columns: { ip_prefix: '10.0.0.0/16', nexthop: '100.65.0.1', policy: undefined, external_ids: {} },
  },
  {
    table: 'NAT',
    uuid: 'u-nat',
    columns: {
      type: 'snat',
      external_ip: '169.254.0.11',
      logical_ip: '10.0.0.0/16',
      external_ids: { 'k8s.ovn.org/network': 'n' },
    },
  },
  { table: 'Logical_Switch', uuid: 'u-s1', columns: { name: 's1', ports: [{ uuid: 'u-p1' }], acls: [] } },
  {
    table: 'Logical_Switch_Port',
    uuid: 'u-p1',
    columns: { name: 'p1', addresses: ['0a:58:0a:00:00:03 10.0.0.3'], up: [true] },
  },
];

const compare = (observed: ObservedRow[], rows = planned()) =>
  compareRows(naturalRows(plannedAsObserved(rows, nbSchema), nbSchema), naturalRows(observed, nbSchema));

const byUuid = (rows: ObservedRow[], uuid: string) => rows.find((r) => r.uuid === uuid)!;

describe('natural keys', () => {
  it('name NATs, routes and policies by their router and the columns upstream identifies them by', () => {
    const rows = naturalRows(found(), nbSchema);
    expect(rows.map((r) => `${r.table}: ${r.key}`)).toEqual([
      'Logical_Router: r1',
      'Logical_Router_Static_Route: r1 dst-ip 10.0.0.0/16 100.65.0.1',
      'NAT: r1 snat 169.254.0.11 10.0.0.0/16',
      'Logical_Switch: s1',
      'Logical_Switch_Port: p1',
    ]);
  });

  it('replace references by the keys of the rows they point to, and drop our ovnk.io keys', () => {
    const [router] = naturalRows(plannedAsObserved(planned(), nbSchema), nbSchema);
    expect(router!.columns.static_routes).toEqual(['r1 dst-ip 10.0.0.0/16 100.65.0.1']);
    const nat = naturalRows(plannedAsObserved(planned(), nbSchema), nbSchema)[2]!;
    expect(nat.columns.external_ids).toEqual({ 'k8s.ovn.org/network': 'n' });
  });

  it('identify ACLs by upstream id, else by direction, priority, match and action', () => {
    expect(naturalKey('ACL', { external_ids: { 'k8s.ovn.org/id': 'c:NetpolNode:x' }, priority: 1 })).toBe(
      'c:NetpolNode:x',
    );
    expect(naturalKey('ACL', { direction: 'to-lport', priority: 1001, match: 'ip4', action: 'allow' })).toBe(
      'to-lport 1001 ip4 allow',
    );
  });
});

describe('comparing a plan with a Northbound', () => {
  it('agrees when the Northbound holds the planned rows without our keys and with columns the plan does not manage', () => {
    expect(agrees(compare(found()))).toBe(true);
  });

  it('reports a deleted port once, as a missing row, not also as its switch ports', () => {
    const rows = found().filter((r) => r.uuid !== 'u-p1');
    byUuid(rows, 'u-s1').columns.ports = [];
    expect(compare(rows)).toEqual({
      missing: [
        { table: 'Logical_Switch_Port', key: 'p1', columns: { name: 'p1', addresses: ['0a:58:0a:00:00:03 10.0.0.3'] } },
      ],
      differing: [],
      unexpected: [],
    });
  });

  it('reports a NAT whose external_ip was changed once, as a row that differs in that column', () => {
    const rows = found();
    byUuid(rows, 'u-nat').columns.external_ip = '192.0.2.9';
    expect(compare(rows)).toEqual({
      missing: [],
      differing: [
        {
          table: 'NAT',
          key: 'r1 snat 169.254.0.11 10.0.0.0/16',
          foundKey: 'r1 snat 192.0.2.9 10.0.0.0/16',
          columns: [{ column: 'external_ip', expected: '169.254.0.11', found: '192.0.2.9' }],
        },
      ],
      unexpected: [],
    });
  });

  it('reports a route added by hand once, as unexpected, not also as its router static_routes', () => {
    const rows = found();
    rows.push({
      table: 'Logical_Router_Static_Route',
      uuid: 'u-x',
      columns: { ip_prefix: '192.0.2.0/24', nexthop: '1.1.1.1' },
    });
    (byUuid(rows, 'u-r1').columns.static_routes as unknown[]).push({ uuid: 'u-x' });
    const result = compare(rows);
    expect(result.missing).toEqual([]);
    expect(result.differing).toEqual([]);
    expect(result.unexpected.map((r) => `${r.table}: ${r.key}`)).toEqual([
      'Logical_Router_Static_Route: r1 dst-ip 192.0.2.0/24 1.1.1.1',
    ]);
  });

  it('reports a port moved to another switch as that switch ports column', () => {
    const rows = found();
    rows.push({ table: 'Logical_Switch', uuid: 'u-s2', columns: { name: 's2', ports: [{ uuid: 'u-p1' }] } });
    byUuid(rows, 'u-s1').columns.ports = [];
    const plan = [...planned(), { table: 'Logical_Switch', columns: { name: 's2', ports: [] } }];
    expect(compare(rows, plan).differing).toEqual([
      { table: 'Logical_Switch', key: 's1', columns: [{ column: 'ports', expected: ['p1'] }] },
      { table: 'Logical_Switch', key: 's2', columns: [{ column: 'ports', found: ['p1'] }] },
    ]);
  });

  it('reports a second row with a planned name as unexpected', () => {
    const rows = found();
    rows.push({ table: 'Logical_Switch', uuid: 'u-twin', columns: { name: 's1', ports: [] } });
    expect(compare(rows).unexpected.map((r) => r.key)).toEqual(['s1']);
  });

  it('compares a map column whole: a key the plan does not write differs', () => {
    const rows = found();
    byUuid(rows, 'u-nat').columns.external_ids = { 'k8s.ovn.org/network': 'n', 'by-hand': 'yes' };
    expect(compare(rows).differing[0]!.columns).toEqual([
      {
        column: 'external_ids',
        expected: { 'k8s.ovn.org/network': 'n' },
        found: { 'by-hand': 'yes', 'k8s.ovn.org/network': 'n' },
      },
    ]);
  });

  it("with columns 'all', also compares the columns only the Northbound holds", () => {
    const expected = naturalRows(plannedAsObserved(planned(), nbSchema), nbSchema);
    const result = compareRows(expected, naturalRows(found(), nbSchema), { columns: 'all' });
    expect(result.differing).toEqual([
      { table: 'Logical_Switch_Port', key: 'p1', columns: [{ column: 'up', found: true }] },
    ]);
  });
});
