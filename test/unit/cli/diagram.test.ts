/**
 * `ovnk diagram` under the CLI contract: the picture whole on stdout (SVG and DOT as text, PNG as
 * bytes through a pipe) or in `--output-file`, exit 3 for a bad format or connect name. The README's
 * picture of colored-enterprise is what the command draws. What the drawing holds is proven in
 * test/unit/runtime/diagram.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, ovnk } from '../../support/cli';
import { repoRoot } from '../../support/dist';

const colored = join(repoRoot, 'stacks', 'topologies', 'colored-enterprise.yaml');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-diagram-'));
  ovnk(['--version']); // checks dist/ is fresh
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `ovnk ...args` with stdout as bytes (a pipe, as `> file` or `| display` get it). */
function bytesOf(args: string[]): { code: number; stdout: Buffer; stderr: string } {
  const run = spawnSync(process.execPath, [cliPath, ...args], { cwd: repoRoot, input: '', timeout: 120_000 });
  return { code: run.status ?? -1, stdout: run.stdout, stderr: run.stderr.toString('utf8') };
}

describe('ovnk diagram', () => {
  it('prints the SVG whole on stdout by default', () => {
    const run = ovnk(['diagram', '-f', colored]);
    expect(run.code).toBe(0);
    expect(XMLValidator.validate(run.stdout)).toBe(true);
    expect(run.stdout).toContain('<svg');
    expect(run.stdout).toContain('connect_router_colored&#45;enterprise');
  });

  it('prints the DOT text with -o dot', () => {
    const run = ovnk(['diagram', '-f', colored, '-o', 'dot']);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('digraph "lab" {')).toBe(true);
    expect(run.stdout.trimEnd().endsWith('}')).toBe(true);
  });

  it('writes a PNG to a pipe as bytes, and the same PNG into --output-file', () => {
    const piped = bytesOf(['diagram', '-f', colored, '-o', 'png']);
    expect(piped.code).toBe(0);
    const image = PNG.sync.read(piped.stdout);
    expect(image.width).toBeGreaterThan(1000);
    expect(image.height).toBeGreaterThan(300);
    const file = join(dir, 'ce.png');
    const saved = ovnk(['diagram', '-f', colored, '-o', 'png', '--output-file', file]);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toBe('');
    expect(readFileSync(file).equals(piped.stdout)).toBe(true);
  });

  it("draws the README's picture of colored-enterprise (same size as the command makes it)", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain('](docs/colored-enterprise.png)');
    expect(readme).toContain(
      'ovnk diagram  -f stacks/topologies/colored-enterprise.yaml -o png --output-file docs/colored-enterprise.png',
    );
    const committed = PNG.sync.read(readFileSync(join(repoRoot, 'docs', 'colored-enterprise.png')));
    const drawn = PNG.sync.read(bytesOf(['diagram', '-f', colored, '-o', 'png']).stdout);
    expect([committed.width, committed.height]).toEqual([drawn.width, drawn.height]);
  });

  it('exits 3 for an unknown format, naming the formats', () => {
    const run = ovnk(['diagram', '-f', colored, '-o', 'jpeg']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('use -o svg, -o png or -o dot');
  });

  it('exits 3 for a connect the input does not have, naming the ones it has', () => {
    const run = ovnk(['diagram', '-f', colored, '--connect', 'nope']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      '--connect "nope" is not a ClusterNetworkConnect of the input (connects: colored-enterprise)',
    );
  });

  it('draws one connect with --connect, and one zone with --zone', () => {
    const one = ovnk(['diagram', '-f', colored, '--connect', 'colored-enterprise', '-o', 'dot']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('"router:connect_router_colored-enterprise"');
    const zone = ovnk(['diagram', '-f', colored, '--zone', 'ovn-worker', '-o', 'dot']);
    expect(zone.code).toBe(0);
    expect(zone.stdout).toContain('GR_cluster_udn_blue.network_ovn-worker"');
    expect(zone.stdout).not.toContain('GR_cluster_udn_blue.network_ovn-worker2"');
  });

  // Where it is looked at: a pull request or a README shows the picture about 1000 px wide.
  // Before, colored-enterprise was one row 4066x854 px and its 11-point text 5.4 px tall there.
  for (const [name, file] of [
    ['colored-enterprise', () => colored],
    ['a six-network, ten-node plan', () => sixNetworks()],
  ] as const)
    it(`draws ${name} in rows, readable at 1000 px wide: text of 8 px and more, no wider than twice its height`, () => {
      const svg = ovnk(['diagram', '-f', file(), '-o', 'svg']);
      expect(svg.code).toBe(0);
      const width = Number(/<svg width="([\d.]+)pt" height="([\d.]+)pt"/.exec(svg.stdout)![1]);
      const sizes = [...svg.stdout.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
      expect(Math.min(...sizes) * (1000 / width)).toBeGreaterThanOrEqual(8);
      const png = PNG.sync.read(bytesOf(['diagram', '-f', file(), '-o', 'png']).stdout);
      expect(png.width).toBeLessThanOrEqual(2 * png.height);
      expect(png.width).toBeLessThanOrEqual(2400);
    });
});

/** Six primary networks (four Layer3, two Layer2) on ten nodes, two connects of three networks each. */
function sixNetworks(): string {
  const cudn = (i: number) => ({
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterUserDefinedNetwork',
    metadata: { name: `net-${i}`, labels: { group: i % 2 ? 'a' : 'b' } },
    spec: {
      namespaceSelector: { matchLabels: { tenant: `t${i}` } },
      network:
        i <= 4
          ? {
              topology: 'Layer3',
              layer3: { role: 'Primary', subnets: [{ cidr: `10.${100 + i}.0.0/16`, hostSubnet: 24 }] },
            }
          : { topology: 'Layer2', layer2: { role: 'Primary', subnets: [`10.${100 + i}.0.0/16`] } },
    },
  });
  const connect = (group: string, cidr: string) => ({
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterNetworkConnect',
    metadata: { name: `connect-${group}` },
    spec: {
      networkSelectors: [
        {
          networkSelectionType: 'ClusterUserDefinedNetworks',
          clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { group } } },
        },
      ],
      connectSubnets: [{ cidr, networkPrefix: 24 }],
      connectivity: ['PodNetwork'],
    },
  });
  const six = [1, 2, 3, 4, 5, 6];
  const documents = [
    {
      apiVersion: 'ovnk/v1alpha1',
      kind: 'Inventory',
      metadata: { name: 'six' },
      spec: {
        namespaces: six.map((i) => ({ name: `t${i}`, labels: { tenant: `t${i}` } })),
        nodes: Array.from({ length: 10 }, (_, i) => ({ name: `node-${i + 1}` })),
      },
    },
    ...six.map(cudn),
    connect('a', '192.168.0.0/16'),
    connect('b', '192.169.0.0/16'),
  ];
  const file = join(dir, 'six.json');
  writeFileSync(file, JSON.stringify(documents));
  return file;
}
