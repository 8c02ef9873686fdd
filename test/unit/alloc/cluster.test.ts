import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AllocationState } from '../../../provider/alloc/state';
import { mustParseCidr, overlaps } from '../../../provider/model/cidr';
import { allocateTopology } from '../../../provider/runtime/plan';
import { runtimeStateVersion } from '../../../provider/runtime/state';
import { yamlOf } from '../../support/objects';
import { cnc, namespaceCudn, labInventory } from '../connect/world';

const fixture = (name: string) => readFileSync(join(__dirname, '..', '..', 'fixtures', name), 'utf8');

function plan(text: string, previous?: AllocationState) {
  const outcome = allocateTopology(text, previous && { version: runtimeStateVersion, allocation: previous, pods: {} });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.allocated.allocation;
}

describe('changed connectSubnets', () => {
  const colored = fixture('colored-enterprise.yaml');
  const moved = colored.replace(
    '{cidr: 192.168.0.0/16, networkPrefix: 24}',
    '{cidr: 172.31.0.0/16, networkPrefix: 24}',
  );

  it('are a replacement, not a refusal: every network gets a fresh slice of the new subnets, the tunnel key stays', () => {
    const before = plan(colored);
    const after = plan(moved, JSON.parse(JSON.stringify(before.state)));
    const c = after.connects['colored-enterprise']!;
    expect(c.problems).toEqual([]);
    expect(c.accepted).toBe(true);
    expect(c.tunnelKey).toBe(before.connects['colored-enterprise']!.tunnelKey);
    expect(Object.fromEntries(Object.entries(c.networks).map(([owner, n]) => [owner, n.subnets.ipv4]))).toEqual({
      layer2_3: '172.31.2.0/31',
      layer3_1: '172.31.0.0/24',
      layer3_2: '172.31.1.0/24',
    });
    expect(c.replaced).toEqual({
      from: [
        { cidr: '192.168.0.0/16', networkPrefix: 24 },
        { cidr: 'fd01::/112', networkPrefix: 120 },
      ],
      to: [
        { cidr: '172.31.0.0/16', networkPrefix: 24 },
        { cidr: 'fd01::/112', networkPrefix: 120 },
      ],
      message: expect.stringMatching(
        /^ClusterNetworkConnect\/colored-enterprise: spec\.connectSubnets changed from \[192\.168\.0\.0\/16\/p24, fd01::\/112\/p120\] to \[172\.31\.0\.0\/16\/p24, fd01::\/112\/p120\]; upstream refuses this update \(connectSubnets is immutable\) .*replacement/,
      ),
    });
    expect(after.state.connects['colored-enterprise']!.connectSubnets[0]).toEqual({
      cidr: '172.31.0.0/16',
      networkPrefix: 24,
    });
  });

  it('planned again with the state they produced are no replacement any more', () => {
    const first = plan(moved, JSON.parse(JSON.stringify(plan(colored).state)));
    const again = plan(moved, JSON.parse(JSON.stringify(first.state)));
    expect(again.connects['colored-enterprise']!.replaced).toBeUndefined();
    expect(again.connects['colored-enterprise']!.networks).toEqual(first.connects['colored-enterprise']!.networks);
  });
});

describe('golden plans', () => {
  it("allocates the feature doc's blue/green example exactly as its annotation shows (the doc's tunnel key 16715782 comes from earlier history; a fresh cluster gets 16715779)", () => {
    const a = plan(fixture('blue-green.yaml'));
    const c = a.connects['blue-green-connect']!;
    expect(c.accepted).toBe(true);
    expect(c.annotations).toEqual({
      'k8s.ovn.org/network-connect-subnet':
        '{"layer3_1":{"ipv4":"192.168.0.0/24"},"layer3_2":{"ipv4":"192.168.1.0/24"}}',
      'k8s.ovn.org/connect-router-tunnel-key': '16715779',
    });
    expect(a.networkIds).toEqual({ 'cluster_udn_blue-network': 1, 'cluster_udn_green-network': 2 });
    expect(a.hostSubnets['cluster_udn_blue-network']).toEqual({
      'ovn-control-plane': ['103.103.0.0/24'],
      'ovn-worker': ['103.103.1.0/24'],
      'ovn-worker2': ['103.103.2.0/24'],
    });
    expect(a.datapathKeys.networks['cluster_udn_green-network']).toEqual({ transitSwitch: 16711685 });
  });

  it('allocates colored-enterprise: Layer2 transit router key before the connect router, the Layer2 /31 from a borrowed block', () => {
    const a = plan(fixture('colored-enterprise.yaml'));
    const c = a.connects['colored-enterprise']!;
    expect(c.problems).toEqual([]);
    expect(a.datapathKeys.networks['yellow_yellow-network']).toEqual({
      transitSwitch: 16711686,
      transitRouter: 16715779,
    });
    expect(c.tunnelKey).toBe(16715780);
    expect(c.annotations['k8s.ovn.org/network-connect-subnet']).toBe(
      '{"layer2_3":{"ipv4":"192.168.2.0/31","ipv6":"fd01::200/127"},"layer3_1":{"ipv4":"192.168.0.0/24","ipv6":"fd01::/120"},"layer3_2":{"ipv4":"192.168.1.0/24","ipv6":"fd01::100/120"}}',
    );
    expect(c.networks.layer2_3!.blocks).toEqual({ ipv4: '192.168.2.0/24', ipv6: 'fd01::200/120' });
  });

  it('adopts upstream annotations and then fills the lowest free slice, as upstream after a restart', () => {
    const annotations = {
      'k8s.ovn.org/network-connect-subnet': '{"layer3_2":{"ipv4":"192.168.5.0/24"}}',
      'k8s.ovn.org/connect-router-tunnel-key': '16715790',
    };
    const a = plan(
      yamlOf(
        labInventory({ namespaces: [{ name: 'ns-0' }, { name: 'ns-1' }] }),
        namespaceCudn('net-0', 'ns-0', [{ cidr: '10.1.0.0/16' }]),
        namespaceCudn('net-1', 'ns-1', [{ cidr: '10.2.0.0/16' }]),
        cnc('c', {}, annotations),
      ),
    );
    expect(a.connects.c!.tunnelKey).toBe(16715790);
    expect(a.connects.c!.networks).toMatchObject({
      layer3_1: { subnets: { ipv4: '192.168.0.0/24' } },
      layer3_2: { subnets: { ipv4: '192.168.5.0/24' } },
    });
  });
});

/** A world: which of 8 candidate networks exist (Layer3 even, Layer2 odd) and two connects. */
const worldArb = fc.record({
  present: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 2, maxLength: 8 }),
  nodes: fc.integer({ min: 1, max: 4 }),
});

function worldText(present: number[], nodes: number, order: (xs: object[]) => object[] = (xs) => xs): string {
  const networks = present.map((i) =>
    i % 2 === 0
      ? namespaceCudn(`net-${i}`, `ns-${i}`, [{ cidr: `10.${i + 1}.0.0/16`, hostSubnet: 24 }])
      : namespaceCudn(`net-${i}`, `ns-${i}`, [`10.${i + 1}.0.0/16`], { topology: 'Layer2' }),
  );
  const connects = [
    cnc('a', { connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 28 }] }),
    cnc('b', { connectSubnets: [{ cidr: '172.30.0.0/16', networkPrefix: 28 }] }),
  ];
  const inv = labInventory({ namespaces: Array.from({ length: 8 }, (_, i) => ({ name: `ns-${i}` })), nodes });
  return yamlOf(...order([inv, ...networks, ...connects]));
}

describe('properties', () => {
  it('never gives two networks of a connect overlapping slices', () => {
    fc.assert(
      fc.property(worldArb, ({ present, nodes }) => {
        const a = plan(worldText(present, nodes));
        for (const c of Object.values(a.connects)) {
          const slices = Object.values(c.networks).map((n) => mustParseCidr(n.subnets.ipv4!));
          slices.forEach((x, i) => slices.slice(i + 1).forEach((y) => expect(overlaps(x, y)).toBe(false)));
          expect(slices.length).toBe(present.length);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('never moves an allocation under any sequence of adds and removes', () => {
    fc.assert(
      fc.property(fc.array(worldArb, { minLength: 2, maxLength: 5 }), (worlds) => {
        let previous: ReturnType<typeof plan> | undefined;
        for (const { present, nodes } of worlds) {
          const next = plan(worldText(present, nodes), previous?.state);
          if (previous) expectStable(previous, next);
          previous = next;
        }
      }),
      { numRuns: 30 },
    );
  });

  it('does not depend on document order', () => {
    fc.assert(
      fc.property(worldArb, fc.integer(), ({ present, nodes }, seed) => {
        const shuffled = (xs: object[]) =>
          [...xs].sort((x, y) => hash(JSON.stringify(x), seed) - hash(JSON.stringify(y), seed));
        expect(plan(worldText(present, nodes, shuffled))).toEqual(plan(worldText(present, nodes)));
      }),
      { numRuns: 30 },
    );
  });

  it('changes nothing when re-planned with its own state', () => {
    fc.assert(
      fc.property(worldArb, ({ present, nodes }) => {
        const first = plan(worldText(present, nodes));
        const again = plan(worldText(present, nodes), JSON.parse(JSON.stringify(first.state)));
        expect(again).toEqual(first);
      }),
      { numRuns: 30 },
    );
  });
});

/** Everything present in both plans has the same value in both. */
function expectStable(before: ReturnType<typeof plan>, after: ReturnType<typeof plan>): void {
  for (const [name, id] of Object.entries(after.networkIds))
    if (before.networkIds[name] !== undefined) expect(id).toBe(before.networkIds[name]);
  for (const [cncName, c] of Object.entries(after.connects)) {
    for (const [owner, n] of Object.entries(c.networks)) {
      const old = before.connects[cncName]?.networks[owner];
      if (old && old.network === n.network) expect(n.subnets).toEqual(old.subnets);
    }
    expect(c.tunnelKey).toBe(before.connects[cncName]!.tunnelKey);
  }
  for (const [net, byNode] of Object.entries(after.hostSubnets)) {
    for (const [node, subnets] of Object.entries(byNode))
      if (before.hostSubnets[net]?.[node]) expect(subnets).toEqual(before.hostSubnets[net]![node]);
  }
}

function hash(text: string, seed: number): number {
  let h = seed | 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h;
}
