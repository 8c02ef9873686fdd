/**
 * The oracle's comparison (oracle/compare.ts): upstream's rows as a dump stores them against our
 * planned rows, under provider/nb/naturalKeys.ts and compared on every column by
 * provider/nb/rowComparison.ts, as ../shared/reference/upstream-oracle.md "Comparing" describes.
 */
import { describe, expect, it } from 'vitest';
import {
  compareWithUpstream,
  describeDifference,
  oracleDifferences,
  plannedNatural,
  upstreamNatural,
} from '../../../oracle/compare';
import type { DesiredRow } from '../../../provider/nb/desired';
import { compareRows } from '../../../provider/nb/rowComparison';

const NAT_KEY = 'GR_blue_n1 snat 172.18.0.2 10.10.0.0/16';
const ROUTE_KEY = 'GR_blue_n1 dst-ip 0.0.0.0/0 172.18.0.1';

/** Upstream's rows as a dump holds them: keys, references as `Table:key`. */
const upstream = {
  Logical_Router: [
    {
      key: 'GR_blue_n1',
      columns: {
        name: 'GR_blue_n1',
        nat: [`NAT:${NAT_KEY}`],
        static_routes: [`Logical_Router_Static_Route:${ROUTE_KEY}`],
      },
    },
  ],
  NAT: [{ key: NAT_KEY, columns: { type: 'snat', external_ip: '172.18.0.2', logical_ip: '10.10.0.0/16' } }],
  Logical_Router_Static_Route: [
    { key: ROUTE_KEY, columns: { ip_prefix: '0.0.0.0/0', nexthop: '172.18.0.1', external_ids: { a: 'b' } } },
  ],
  Meter_Band: [{ key: 'drop 25', columns: { action: 'drop', rate: 25 } }],
};

const ours: DesiredRow[] = [
  { table: 'Logical_Router', columns: { name: 'GR_blue_n1', external_ids: { 'ovnk.io/owner': 'x' } } },
  {
    table: 'NAT',
    columns: {
      type: 'snat',
      external_ip: '172.18.0.2',
      logical_ip: '10.10.0.0/16',
      external_ids: { 'ovnk.io/key': 'n' },
    },
    parents: [{ table: 'Logical_Router', identity: 'GR_blue_n1', column: 'nat' }],
  },
  {
    table: 'Logical_Router_Static_Route',
    columns: { ip_prefix: '0.0.0.0/0', nexthop: '172.18.0.1', external_ids: { a: 'b', 'ovnk.io/key': 'r' } },
    parents: [{ table: 'Logical_Router', identity: 'GR_blue_n1', column: 'static_routes' }],
  },
  { table: 'Meter_Band', columns: { action: 'drop', rate: 25 } },
];

describe("the oracle's comparison", () => {
  it('keys a NAT, a static route and a meter band as the audit does, so a dump reads back under its own keys', () => {
    const keys = upstreamNatural(upstream).map((r) => `${r.table} ${r.key}`);
    expect(keys).toEqual([
      'Logical_Router GR_blue_n1',
      `NAT ${NAT_KEY}`,
      `Logical_Router_Static_Route ${ROUTE_KEY}`,
      'Meter_Band drop 25',
    ]);
  });

  it('finds our planned rows, whose children name their parents, equal to upstream’s but for our ovnk.io/ keys', () => {
    expect(compareWithUpstream(upstreamNatural(upstream), plannedNatural(ours))).toEqual([]);
  });

  it('reports a changed column with both values, a row only upstream has and one only we have', () => {
    const changed = ours.map((r) =>
      r.table === 'NAT' ? { ...r, columns: { ...r.columns, external_ip: '172.18.0.9' } } : r,
    );
    const extra: DesiredRow = { table: 'Meter_Band', columns: { action: 'drop', rate: 20 } };
    const lines = compareWithUpstream(upstreamNatural(upstream), plannedNatural([...changed.slice(0, 3), extra])).map(
      describeDifference,
    );
    expect(lines).toEqual([
      'Meter_Band drop 20: only ours has it',
      'Meter_Band drop 25: only upstream has it',
      `NAT ${NAT_KEY}: external_ip upstream "172.18.0.2", ours "172.18.0.9"`,
    ]);
  });

  it("reads the audit's comparison (ours expected, upstream found) in the same terms", () => {
    const audit = compareRows(plannedNatural(ours.slice(0, 3)), upstreamNatural(upstream), { columns: 'all' });
    expect(oracleDifferences(audit, 'expected')).toEqual([{ table: 'Meter_Band', key: 'drop 25', kind: 'missing' }]);
  });
});
