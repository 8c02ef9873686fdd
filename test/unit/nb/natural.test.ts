/**
 * Natural keys (provider/nb/natural.ts) and their comparison (naturalDiff.ts): the matching the
 * oracle and `ovnk audit` use, as ../shared/reference/upstream-oracle.md "Comparing" describes it.
 */
import { describe, expect, it } from 'vitest';
import { desiredIdRows, naturalTables } from '../../../provider/nb/natural';
import { compareNaturalTables, describeDifference } from '../../../provider/nb/naturalDiff';

const upstream = {
  Logical_Router: [{ id: 'u-r', columns: { _uuid: 'u-r', name: 'GR_blue_n1', nat: ['u-n'], static_routes: ['u-s'] } }],
  NAT: [
    {
      id: 'u-n',
      columns: { type: 'snat', external_ip: '172.18.0.2', logical_ip: '10.10.0.0/16', match: '', options: {} },
    },
  ],
  Logical_Router_Static_Route: [
    { id: 'u-s', columns: { ip_prefix: '0.0.0.0/0', nexthop: '172.18.0.1', policy: [], external_ids: { a: 'b' } } },
  ],
};

describe('natural keys', () => {
  it('keys a NAT and a static route by their router and distinguishing columns, references by key', () => {
    const tables = naturalTables(upstream);
    expect(tables.NAT![0]!.key).toBe('GR_blue_n1/snat/172.18.0.2/10.10.0.0/16/');
    expect(tables.Logical_Router_Static_Route![0]!.key).toBe('GR_blue_n1//0.0.0.0/0/172.18.0.1/');
    expect(tables.Logical_Router![0]!.columns.nat).toEqual(['NAT:GR_blue_n1/snat/172.18.0.2/10.10.0.0/16/']);
  });

  it('equals our desired rows of the same Northbound, whose children name their parents', () => {
    const ours = desiredIdRows([
      { table: 'Logical_Router', columns: { name: 'GR_blue_n1', external_ids: { 'ovnk.io/owner': 'x' } } },
      {
        table: 'NAT',
        columns: {
          type: 'snat',
          external_ip: '172.18.0.2',
          logical_ip: '10.10.0.0/16',
          external_ids: { 'ovnk.io/key': 'nat-1' },
        },
        parents: [{ table: 'Logical_Router', identity: 'GR_blue_n1', column: 'nat' }],
      },
      {
        table: 'Logical_Router_Static_Route',
        columns: { ip_prefix: '0.0.0.0/0', nexthop: '172.18.0.1', external_ids: { a: 'b', 'ovnk.io/key': 'r' } },
        parents: [{ table: 'Logical_Router', identity: 'GR_blue_n1', column: 'static_routes' }],
      },
    ]);
    expect(compareNaturalTables(naturalTables(upstream), naturalTables(ours))).toEqual([]);
  });

  it('reports a changed column, a missing and an extra row in words', () => {
    const changed = {
      ...upstream,
      NAT: [{ id: 'u-n', columns: { ...upstream.NAT[0]!.columns, external_ip: '172.18.0.9' } }],
    };
    const lines = compareNaturalTables(naturalTables(upstream), naturalTables(changed)).map((d) =>
      describeDifference(d),
    );
    expect(lines).toEqual([
      'Logical_Router GR_blue_n1: nat upstream ["NAT:GR_blue_n1/snat/172.18.0.2/10.10.0.0/16/"], ours ["NAT:GR_blue_n1/snat/172.18.0.9/10.10.0.0/16/"]',
      'NAT GR_blue_n1/snat/172.18.0.2/10.10.0.0/16/: only upstream has it',
      'NAT GR_blue_n1/snat/172.18.0.9/10.10.0.0/16/: only ours has it',
    ]);
  });
});
