import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderConnect } from '../../../provider/connect/render';
import { prepareZones, type ZoneRows } from '../../../provider/connect/zones';
import type { DesiredRow } from '../../../provider/nb/desired';
import { allocateTopology } from '../../../provider/runtime/plan';
import { identityOf } from '../../../provider/topology/rows';
import { yamlOf } from '../../support/objects';
import { externalIds, zonesOf } from './rowsHelpers';
import { cnc, namespaceCudn, labInventory } from './world';

interface World {
  networks: { layer2: boolean }[];
  nodes: number;
  dual: boolean;
  connectivity: readonly string[];
  second: boolean;
  order: number[];
  nodeOrder: number[];
}

const worlds: fc.Arbitrary<World> = fc
  .record({
    networks: fc.array(fc.record({ layer2: fc.boolean() }), { minLength: 2, maxLength: 4 }),
    nodes: fc.integer({ min: 1, max: 5 }),
    dual: fc.boolean(),
    connectivity: fc.constantFrom(['PodNetwork'], ['ServiceNetwork'], ['PodNetwork', 'ServiceNetwork']),
    second: fc.boolean(),
    seed: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
  })
  .map(({ seed, ...w }) => ({ ...w, order: seed.slice(0, 8), nodeOrder: seed.slice(8) }));

function shuffle<T>(items: T[], keys: number[]): T[] {
  return items
    .map((item, i) => ({ item, k: keys[i % keys.length]! * 31 + i }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.item);
}

function network(i: number, layer2: boolean, dual: boolean): object {
  const ns = `ns-${i}`;
  if (layer2)
    return namespaceCudn(`net-${i}`, ns, [`10.${i + 1}.0.0/16`, ...(dual ? [`fd00:${i + 1}::/64`] : [])], {
      topology: 'Layer2',
    });
  return namespaceCudn(`net-${i}`, ns, [
    { cidr: `10.${i + 1}.0.0/16`, hostSubnet: 24 },
    ...(dual ? [{ cidr: `fd00:${i + 1}::/60`, hostSubnet: 64 }] : []),
  ]);
}

function worldText(w: World, zones: 'per-node' | 'central', shuffled = false): string {
  const nodes = Array.from({ length: w.nodes }, (_, i) => ({ name: `node-${i}`, chassisId: `chassis-${i}` }));
  const families = w.dual
    ? { clusterSubnets: ['10.128.0.0/14', 'fd00:10:128::/48'], serviceCIDRs: ['172.16.1.0/24', 'fd00:10:96::/112'] }
    : {};
  const inv = labInventory({
    namespaces: w.networks.map((_, i) => ({ name: `ns-${i}` })),
    inventory: { zones, nodes: shuffled ? shuffle(nodes, w.nodeOrder) : nodes, ...families },
  });
  const subnets = (v4: string, v6: string) => [
    { cidr: v4, networkPrefix: 24 },
    ...(w.dual ? [{ cidr: v6, networkPrefix: 120 }] : []),
  ];
  const connects = [
    cnc('alpha', { connectSubnets: subnets('192.168.0.0/16', 'fd01::/112'), connectivity: w.connectivity }),
  ];
  if (w.second)
    connects.push(
      cnc('beta', { connectSubnets: subnets('172.30.0.0/16', 'fd02::/112'), connectivity: ['PodNetwork'] }),
    );
  const objects = [inv, ...w.networks.map((n, i) => network(i, n.layer2, w.dual)), ...connects];
  return yamlOf(...(shuffled ? shuffle(objects, w.order) : objects));
}

function ports(zone: ZoneRows): DesiredRow[] {
  return zone.rows.filter((r) => r.table === 'Logical_Router_Port');
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

/** Columns a per-node row may differ in from its central twin: reference sets, remote binding, the `:<node>` id. */
function comparable(row: DesiredRow): Record<string, unknown> {
  const { ports: _p, static_routes: _s, peer: _peer, ...columns } = row.columns;
  const options = { ...(columns.options as Record<string, string> | undefined) };
  delete options['requested-chassis'];
  const ids = { ...externalIds(row) };
  delete ids['k8s.ovn.org/id'];
  return {
    ...columns,
    ...(columns.options ? { options } : {}),
    ...(columns.external_ids ? { external_ids: ids } : {}),
  };
}

describe('connect rows, for any small cluster', () => {
  it('no two ports of one router share a tunnel key or an address', () => {
    fc.assert(
      fc.property(worlds, (w) => {
        for (const zone of zonesOf(worldText(w, 'per-node')).values()) {
          for (const [, onRouter] of groupBy(ports(zone), (p) => externalIds(p)['router-name']!)) {
            const addresses = onRouter.flatMap((p) => (p.columns.networks as string[]).map((n) => n.split('/')[0]));
            expect(new Set(addresses).size).toBe(addresses.length);
            const keys = onRouter.flatMap(
              (p) => (p.columns.options as Record<string, string> | undefined)?.['requested-tnl-key'] ?? [],
            );
            expect(new Set(keys).size).toBe(keys.length);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('every policy nexthop is the connect-router side of a local pair of the same network and family', () => {
    fc.assert(
      fc.property(worlds, (w) => {
        for (const zone of zonesOf(worldText(w, 'per-node')).values()) {
          const connectSides = ports(zone).filter(
            (p) => (p.columns.name as string).startsWith('crtor-') && p.columns.peer !== undefined,
          );
          for (const policy of zone.rows.filter((r) => r.table === 'Logical_Router_Policy')) {
            const ids = externalIds(policy);
            const own = connectSides.filter(
              (p) =>
                externalIds(p)['k8s.ovn.org/name'] === ids['k8s.ovn.org/name'] &&
                externalIds(p)['network-id'] === ids['source-network-id'],
            );
            const sameFamily = own
              .flatMap((p) => (p.columns.networks as string[]).map((n) => n.split('/')[0]!))
              .filter((ip) => ip.includes(':') === (ids['ip-family'] === 'v6'));
            expect(policy.columns.nexthops).toHaveLength(1);
            expect(sameFamily).toContain((policy.columns.nexthops as string[])[0]);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('central and per-node renders agree on every row they share', () => {
    fc.assert(
      fc.property(worlds, (w) => {
        const central = zonesOf(worldText(w, 'central')).get('central')!;
        const index = new Map(central.rows.map((r) => [`${r.table}\u0000${identityOf(r)}`, r]));
        for (const [name, zone] of zonesOf(worldText(w, 'per-node'))) {
          for (const row of zone.rows) {
            const twin =
              index.get(`${row.table}\u0000${identityOf(row)}`) ??
              index.get(`${row.table}\u0000${identityOf(row)}:${name}`);
            expect(twin, `${row.table} ${identityOf(row)} in zone ${name}`).toBeDefined();
            expect(comparable(row)).toEqual(comparable(twin!));
          }
        }
      }),
      { numRuns: 30 },
    );
  });

  it('rendering is deterministic and does not depend on document or node order', () => {
    fc.assert(
      fc.property(worlds, fc.constantFrom('per-node' as const, 'central' as const), (w, layout) => {
        const once = zonesOf(worldText(w, layout));
        expect(zonesOf(worldText(w, layout))).toEqual(once);
        expect(zonesOf(worldText(w, layout, true))).toEqual(once);
      }),
      { numRuns: 30 },
    );
  });

  it('identities are unique per table within every zone, before any merging', () => {
    fc.assert(
      fc.property(worlds, fc.constantFrom('per-node' as const, 'central' as const), (w, layout) => {
        const outcome = allocateTopology(worldText(w, layout));
        if (!outcome.ok) throw new Error('unusable world');
        const prepared = prepareZones(outcome.allocated.cluster, outcome.allocated.allocation);
        for (const zone of prepared.zones) {
          const keys = prepared.connects.flatMap((c) =>
            renderConnect(c, prepared.nodes, zone).rows.map((r) => `${r.table}\u0000${identityOf(r)}`),
          );
          expect(new Set(keys).size).toBe(keys.length);
        }
      }),
      { numRuns: 30 },
    );
  });
});
