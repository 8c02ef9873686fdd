import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_DIRS, requireFreshDist } from '../../support/dist';

const repo = join(__dirname, '..', '..', '..');
const fixtures = join(repo, 'test', 'fixtures');
let dir: string;

function ovnk(...args: string[]) {
  const result = spawnSync('node', [join(repo, 'dist', 'cli', 'main.js'), ...args], { encoding: 'utf8' });
  return {
    code: result.status,
    json: args.includes('json') ? JSON.parse(result.stdout) : undefined,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

// the run built dist/ before its first file (test/setup/dist.ts); a build here would rewrite it
// under the other lane's CLI runs
beforeAll(() => {
  requireFreshDist(BUILT_DIRS);
  dir = mkdtempSync(join(tmpdir(), 'ovnk-plan-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ovnk plan', () => {
  it('exits 0 with the plan document when every connect is accepted', () => {
    const { code, json } = ovnk('plan', '-f', join(fixtures, 'blue-green.yaml'), '-o', 'json');
    expect(code).toBe(0);
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['connects', 'allocations', 'zones', 'state']));
    expect(Object.keys(json.zones)).toEqual(['ovn-control-plane', 'ovn-worker', 'ovn-worker2']);
    expect(json.connects['blue-green-connect']).toMatchObject({
      accepted: true,
      problems: [],
      annotations: { 'k8s.ovn.org/connect-router-tunnel-key': '16715779' },
    });
    expect(json.allocations.nodeIds).toEqual({ 'ovn-control-plane': 2, 'ovn-worker': 3, 'ovn-worker2': 4 });
  });

  it('exits 1 with the problems and their reasons when a connect is refused', () => {
    const file = join(dir, 'refused.yaml');
    writeFileSync(file, readFixture().replace('cidr: 192.168.0.0/16', 'cidr: 103.103.0.0/16'));
    const { code, json } = ovnk('plan', '-f', file, '-o', 'json');
    expect(code).toBe(1);
    expect(json.connects['blue-green-connect'].accepted).toBe(false);
    expect(json.connects['blue-green-connect'].problems[0]).toMatchObject({
      reason: 'ConnectSubnetConflict',
      path: 'ClusterNetworkConnect/blue-green-connect: spec.connectSubnets',
    });
  });

  it('exits 3 naming the file and field path for a field of the wrong type', () => {
    const file = join(dir, 'bad-field.yaml');
    writeFileSync(file, readFixture().replace('networkPrefix: 24', 'networkPrefix: twenty-four'));
    const { code, json } = ovnk('plan', '-f', file, '-o', 'json');
    expect(code).toBe(3);
    expect(json).toMatchObject({
      ok: false,
      file,
      path: 'ClusterNetworkConnect/blue-green-connect: spec.connectSubnets[0].networkPrefix',
    });
  });

  it('exits 3 for YAML that does not parse and for a file that does not exist', () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'kind: [oops\n');
    expect(ovnk('plan', '-f', file, '-o', 'json')).toMatchObject({ code: 3, json: { ok: false, path: 'document[0]' } });
    expect(ovnk('plan', '-f', join(dir, 'missing.yaml'), '-o', 'json')).toMatchObject({
      code: 3,
      json: { path: '-f' },
    });
  });

  it('stays stable against --previous: a network added later does not move the others', () => {
    const previous = join(dir, 'previous.json');
    writeFileSync(previous, JSON.stringify(ovnk('plan', '-f', join(fixtures, 'blue-green.yaml'), '-o', 'json').json));
    const file = join(dir, 'more.yaml');
    const red = `---\napiVersion: k8s.ovn.org/v1\nkind: ClusterUserDefinedNetwork\nmetadata: {name: aaa-network, labels: {app: colored-enterprise}}\nspec:\n  namespaceSelector: {matchLabels: {network: blue}}\n  network: {topology: Layer2, layer2: {role: Secondary, subnets: [10.9.0.0/16]}}\n`;
    writeFileSync(
      file,
      readFixture().replace(
        '  - {name: green, labels: {network: green}}',
        '  - {name: green, labels: {network: green}}\n  - {name: red, labels: {network: red}}',
      ) + red.replace('network: blue', 'network: red').replace('Secondary', 'Primary'),
    );
    const { code, json } = ovnk('plan', '-f', file, '--previous', previous, '-o', 'json');
    expect(code).toBe(0);
    expect(json.allocations.networkIds).toEqual({
      'cluster_udn_aaa-network': 3,
      'cluster_udn_blue-network': 1,
      'cluster_udn_green-network': 2,
    });
    expect(json.connects['blue-green-connect'].annotations['k8s.ovn.org/network-connect-subnet']).toBe(
      '{"layer2_3":{"ipv4":"192.168.2.0/31"},"layer3_1":{"ipv4":"192.168.0.0/24"},"layer3_2":{"ipv4":"192.168.1.0/24"}}',
    );
    expect(json.connects['blue-green-connect'].annotations['k8s.ovn.org/connect-router-tunnel-key']).toBe('16715779');
  });

  it('prints the allocation table for people on stdout with -o text', () => {
    const { code, stdout } = ovnk('plan', '-f', join(fixtures, 'colored-enterprise.yaml'));
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /\ncolored-enterprise +layer2_3 +yellow_yellow-network +192\.168\.2\.0\/31, fd01::200\/127 +192\.168\.2\.0\/24, fd01::200\/120\n/,
    );
    expect(stdout).toMatch(/\novn-worker +3 +cluster_udn_blue-network +103\.103\.1\.0\/24, fd00:103:0:1::\/64\n/);
  });

  it("offline, a file whose pods name nodes the Inventory does not list exits 3 naming the pod's node field and suggesting --lab", () => {
    const { code, json } = ovnk('plan', '-f', join(repo, 'stacks', 'colored-enterprise.yaml'), '-o', 'json');
    expect(code).toBe(3);
    expect(json).toMatchObject({ ok: false, path: 'Inventory/colored-enterprise: spec.pods[0].node' });
    expect(json.error).toContain(
      'pod blue/a names node "ovn-worker", which the Inventory does not list (spec.nodes lists no node)',
    );
    expect(json.error).toContain('give --lab');
  });
});

function readFixture(): string {
  return readFileSync(join(fixtures, 'blue-green.yaml'), 'utf8');
}
