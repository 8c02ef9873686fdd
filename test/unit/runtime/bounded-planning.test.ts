import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstClearBlock, formatCidr, mustParseCidr, overlaps, type Cidr } from '../../../provider/model/cidr';
import { ensureBuilt, PlanChild } from '../../support/planChild';

// Issue 15 point 7: a subnet that covers a default (transit, join) subnet made the planner step one
// block at a time: fd80::/10 meant about 2^54 steps. Each input is planned by the real `ovnk plan` in
// a child process, killed if it runs 15 s; what it used must stay under a second of CPU.

const inventory = (families: string, pods = ['green']) => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: bounds}
spec:
  ipFamilies: ${families}
  clusterSubnets: [10.244.0.0/16, "fd00:10:244::/48"]
  serviceCIDRs: [10.96.0.0/16, "fd00:10:96::/112"]
  masqueradeSubnets: [169.254.0.0/17, "fd69::/112"]
  namespaces:
  - {name: green, labels: {network: green}}
  - {name: gold, labels: {network: gold}}
  nodes: [{name: n1}, {name: n2}]
  pods: [${pods.flatMap((ns) => [`{name: a, namespace: ${ns}, node: n1}`, `{name: b, namespace: ${ns}, node: n2}`]).join(', ')}]
`;

const layer2 = (subnets: string, extra = '') => `
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: green, labels: {app: c}}
spec:
  namespaceSelector: {matchLabels: {network: green}}
  network:
    topology: Layer2
    layer2: {role: Primary, subnets: ${subnets}${extra}}
`;

const layer3 = (subnets: string) => `
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: gold, labels: {app: c}}
spec:
  namespaceSelector: {matchLabels: {network: gold}}
  network:
    topology: Layer3
    layer3: {role: Primary, subnets: ${subnets}}
`;

const connect = (subnets: string) => `
apiVersion: k8s.ovn.org/v1
kind: ClusterNetworkConnect
metadata: {name: c}
spec:
  networkSelectors:
  - networkSelectionType: ClusterUserDefinedNetworks
    clusterUserDefinedNetworkSelector: {networkSelector: {matchLabels: {app: c}}}
  connectSubnets: ${subnets}
  connectivity: [PodNetwork]
`;

const dual = '[IPv4, IPv6]';
const v6 = '[IPv6]';
const v4 = '[IPv4]';
const files = (...docs: string[]) => docs.join('\n---\n');

const both = ['green', 'gold'];
const gold = ['gold'];
const l3both = '[{cidr: 10.40.0.0/16, hostSubnet: 24}, {cidr: "fd40::/48", hostSubnet: 64}]';

const cases: [string, string][] = [
  ['a Layer2 fd80::/10 (the default transit fd97::/64 inside)', files(inventory(v6), layer2('["fd80::/10"]'))],
  ['a Layer2 fd97::/16 (2^48 blocks of /64 to step over)', files(inventory(v6), layer2('["fd97::/16"]'))],
  [
    'a Layer2 fd97::/32 next to a Layer3',
    files(inventory(v6, both), layer2('["fd97::/32"]'), layer3('[{cidr: "fd40::/48", hostSubnet: 64}]')),
  ],
  ['a Layer2 ::/0 (no block is free)', files(inventory(v6), layer2('["::/0"]'))],
  ['a Layer2 0.0.0.0/0 and ::/0', files(inventory(dual), layer2('[0.0.0.0/0, "::/0"]'))],
  ['a Layer2 0.0.0.0/1 and 8000::/1', files(inventory(dual), layer2('[0.0.0.0/1, "8000::/1"]'))],
  [
    'a Layer2 covering the join subnets it names',
    files(inventory(v6), layer2('["fd90::/12"]', ', joinSubnets: ["fd98::/16"]')),
  ],
  ['a Layer2 /32 and /128 with pods', files(inventory(dual), layer2('[10.9.9.9/32, "fd30::1/128"]'))],
  ['a Layer2 /32 and /128 without pods', files(inventory(dual, []), layer2('[10.9.9.9/32, "fd30::1/128"]'))],
  ['a Layer2 /31 and /127 with pods', files(inventory(dual), layer2('[10.9.9.8/31, "fd30::/127"]'))],
  [
    'a Layer3 ::/1 split at /64 (2^63 host subnets)',
    files(inventory(v6, gold), layer3('[{cidr: "::/1", hostSubnet: 64}]')),
  ],
  ['a Layer3 ::/1 split at /128', files(inventory(v6, gold), layer3('[{cidr: "::/1", hostSubnet: 128}]'))],
  [
    'a Layer3 fd00::/8 split at /64 (over the cluster subnets)',
    files(inventory(v6, gold), layer3('[{cidr: "fd00::/8", hostSubnet: 64}]')),
  ],
  ['a Layer3 192.0.0.0/2 split at /31', files(inventory(v4, gold), layer3('[{cidr: 192.0.0.0/2, hostSubnet: 31}]'))],
  ['a Layer3 0.0.0.0/0 split at /31', files(inventory(v4, gold), layer3('[{cidr: 0.0.0.0/0, hostSubnet: 31}]'))],
  [
    'a Layer3 10.0.0.0/30 split at /31 (tiny)',
    files(inventory(v4, gold), layer3('[{cidr: 10.0.0.0/30, hostSubnet: 31}]')),
  ],
  [
    'a Layer3 10.0.0.0/31 split at /31 (two nodes, one host subnet)',
    files(inventory(v4, gold), layer3('[{cidr: 10.0.0.0/31, hostSubnet: 31}]')),
  ],
  [
    'a connect over ::/0 with networkPrefix 127',
    files(
      inventory(v6, both),
      layer2('["fd30::/64"]'),
      layer3('[{cidr: "fd40::/48", hostSubnet: 64}]'),
      connect('[{cidr: "::/0", networkPrefix: 127}]'),
    ),
  ],
  [
    'a connect over 8000::/1 with networkPrefix 64 and 192.0.0.0/2 with 31',
    files(
      inventory(dual, both),
      layer2('[10.30.0.0/24, "fd30::/64"]'),
      layer3(l3both),
      connect('[{cidr: 192.0.0.0/2, networkPrefix: 31}, {cidr: "8000::/1", networkPrefix: 64}]'),
    ),
  ],
  [
    'a connect over a /31 and a /127 (tiny)',
    files(
      inventory(dual, both),
      layer2('[10.30.0.0/24, "fd30::/64"]'),
      layer3(l3both),
      connect('[{cidr: 192.168.0.0/31, networkPrefix: 32}, {cidr: "fd99:1::/127", networkPrefix: 128}]'),
    ),
  ],
];

let dir: string;
const child = new PlanChild();

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ovnk-bounds-'));
}, 120_000);
afterAll(() => {
  child.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('planning is bounded by arithmetic, not by the size of the address space', () => {
  it.each(cases)(
    'plans %s in under a second of CPU, naming a path when it refuses',
    async (name, text) => {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
      writeFileSync(file, text);
      const outcome = await child.run(['plan', '-f', file, '-o', 'json'], 15_000);
      expect(outcome.kind).toBe('done');
      if (outcome.kind !== 'done') return;
      expect(outcome.cpuMs).toBeLessThan(1000);
      expect([0, 1, 3]).toContain(outcome.code);
      const document = JSON.parse(outcome.stdout);
      if (outcome.code === 3) expect(document.path).toEqual(expect.any(String));
    },
    30_000,
  );

  it('shifts the transit subnet of a Layer2 fd97::/32 to the first /64 after it, as upstream steps', async () => {
    const file = join(dir, 'shift.yaml');
    writeFileSync(file, files(inventory(v6), layer2('["fd97::/32"]')));
    const outcome = await child.run(['plan', '-f', file, '-o', 'json'], 15_000);
    expect(outcome).toMatchObject({ kind: 'done', code: 0 });
    expect(outcome.kind === 'done' && outcome.stdout).toContain('fd97:1::');
  }, 30_000);

  it('refuses a Layer2 ::/0 naming its subnets, since no transit block is free', async () => {
    const file = join(dir, 'full.yaml');
    writeFileSync(file, files(inventory(v6), layer2('["::/0"]')));
    const outcome = await child.run(['plan', '-f', file, '-o', 'json'], 15_000);
    expect(outcome).toMatchObject({ kind: 'done', code: 3 });
    const document = JSON.parse((outcome as { stdout: string }).stdout);
    expect(document.problems).toContainEqual(
      expect.objectContaining({
        path: 'ClusterUserDefinedNetwork/green: spec.network.layer2.subnets',
        message: expect.stringContaining('no /64 after fd97::/64 is free'),
      }),
    );
  }, 30_000);
});

/** Upstream's walk: one block at a time while the candidate overlaps anything to avoid. */
function stepByStep(start: Cidr, avoid: Cidr[]): Cidr | undefined {
  let candidate = start;
  while (avoid.some((a) => overlaps(a, candidate))) {
    candidate = { ...candidate, base: candidate.base + (1n << BigInt(32 - candidate.prefix)) };
    if (candidate.base >= 1n << 32n) return undefined;
  }
  return candidate;
}

describe('firstClearBlock', () => {
  it('finds the block upstream finds by stepping, for any CIDRs to avoid (IPv4, small spaces)', () => {
    const cidr = fc
      .tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 32 }))
      .map(([value, prefix]) => ({
        family: 4 as const,
        base: (BigInt(value) >> BigInt(32 - prefix)) << BigInt(32 - prefix),
        prefix,
      }));
    const near = fc
      .tuple(fc.integer({ min: 0, max: 4095 }), fc.integer({ min: 12, max: 32 }))
      .map(([value, prefix]) => {
        const base = (BigInt(0x64580000 + value * 16) >> BigInt(32 - prefix)) << BigInt(32 - prefix);
        return { family: 4 as const, base, prefix };
      });
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 24 }),
        fc.array(fc.oneof(near, cidr), { maxLength: 8 }),
        (prefix, avoid) => {
          const start = {
            family: 4 as const,
            base: (0x64580000n >> BigInt(32 - prefix)) << BigInt(32 - prefix),
            prefix,
          };
          // Stepping through a /0 takes 2^prefix steps: keep the reference walk short.
          const walkable = avoid.filter((a) => a.prefix >= 12);
          expect(firstClearBlock(start, walkable)).toEqual(stepByStep(start, walkable));
        },
      ),
      { seed: 15, numRuns: 300 },
    );
  });

  it('jumps over a huge IPv6 CIDR in one step and says when the space ends', () => {
    const start = mustParseCidr('fd97::/64');
    expect(formatCidr(firstClearBlock(start, [mustParseCidr('fd80::/10')])!)).toBe('fdc0::/64');
    expect(firstClearBlock(start, [mustParseCidr('::/0')])).toBeUndefined();
    expect(firstClearBlock(start, [mustParseCidr('fd97::/64'), mustParseCidr('ff00::/8')])).toEqual(
      mustParseCidr('fd97:0:0:1::/64'),
    );
  });
});
