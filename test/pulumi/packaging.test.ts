import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { dynamicUrn, PulumiHost, repoRoot, requireFreshDist } from '../support/pulumiHost';
import { topologyArgs } from './fixtures';

// The package as a consumer gets it: `npm pack` (the built dist), installed into a temporary
// project next to its peer @pulumi/pulumi; components constructed under mocks there, and each
// registered shim run once through the dynamic-provider host from that project.
let dir: string;
let registered: { type: string; name: string; inputs: Record<string, unknown> }[];

const program = `
const pulumi = require('@pulumi/pulumi');
const registered = [];
pulumi.runtime.setMocks({
  newResource: async (a) => {
    registered.push({ type: a.type, name: a.name, inputs: a.inputs });
    // as the README says: ClusterAllocations answers with its own check, as the engine's preview does
    if (a.type !== 'pulumi-nodejs:dynamic/ovnk:ClusterAllocations') return { id: a.name + '-id', state: a.inputs };
    const checked = await require('ovnk-pulumi/runtime').pulumiKinds.ClusterAllocations.check({}, a.inputs);
    return { id: a.name + '-id', state: checked.inputs };
  },
  call: (a) => { throw new Error('Mock not implemented: ' + a.token); },
}, 'consumer', 'dev', false);
const ovnk = require('ovnk-pulumi');
const args = JSON.parse(require('fs').readFileSync('topology.json', 'utf8'));
const central = new ovnk.Cluster('c', { ...args, inventory: { ...args.inventory, spec: { ...args.inventory.spec, zones: 'central' } } });
const perNode = new ovnk.Cluster('p', args);
const uplinks = JSON.parse(require('fs').readFileSync('uplinks.json', 'utf8'));
const withUplinks = new ovnk.Cluster('u', uplinks);
Promise.all([central.urn, perNode.urn, withUplinks.urn].map((u) => new Promise((r) => u.apply(r))))
  .then(() => new Promise((r) => setTimeout(r, 500)))
  .then(() => process.stdout.write(JSON.stringify(registered)));
`;

beforeAll(async () => {
  requireFreshDist();
  dir = mkdtempSync(join(tmpdir(), 'ovnk-pack-'));
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: repoRoot, stdio: 'pipe' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  // From the registry with an empty npm cache, as on a fresh machine (nothing an earlier run left
  // counts), with no --legacy-peer-deps (our peers must install cleanly); peers are omitted on disk
  // because the consumer links this checkout's @pulumi/pulumi (one SDK copy, as Pulumi requires).
  const cache = mkdtempSync(join(tmpdir(), 'ovnk-npm-cache-'));
  try {
    execFileSync('npm', ['install', '--omit=peer', '--no-audit', '--no-fund', '--ignore-scripts', `./${tarball}`], {
      cwd: dir,
      stdio: 'pipe',
      env: { ...process.env, npm_config_cache: cache },
    });
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
  mkdirSync(join(dir, 'node_modules', '@pulumi'), { recursive: true });
  symlinkSync(
    dirname(require.resolve('@pulumi/pulumi/package.json', { paths: [repoRoot] })),
    join(dir, 'node_modules', '@pulumi', 'pulumi'),
    'dir',
  );
  writeFileSync(join(dir, 'topology.json'), JSON.stringify(topologyArgs('colored-enterprise', 'per-node')));
  const uplinkObjects = parseAllDocuments(
    readFileSync(join(repoRoot, 'test', 'fixtures', 'uplink-lab.yaml'), 'utf8'),
  ).map((d) => d.toJS() as { kind: string });
  const of = (kind: string) => uplinkObjects.filter((o) => o.kind === kind);
  writeFileSync(
    join(dir, 'uplinks.json'),
    JSON.stringify({ inventory: of('Inventory')[0], networks: of('ClusterUserDefinedNetwork'), uplinks: of('Uplink') }),
  );
  writeFileSync(join(dir, 'program.js'), program);
  registered = JSON.parse(execFileSync(process.execPath, ['program.js'], { cwd: dir, encoding: 'utf8' }));
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed library in a consumer project', () => {
  it('installs as a real directory (not a link) and constructs every component and resource kind under mocks', () => {
    expect(existsSync(join(dir, 'node_modules', 'ovnk-pulumi', 'dist', 'provider', 'runtime', 'index.js'))).toBe(true);
    expect(existsSync(join(dir, 'node_modules', 'ovnk-pulumi', 'test'))).toBe(false);
    const types = new Set(registered.map((r) => r.type));
    expect([...types].sort()).toEqual([
      'ovnk:cluster:Cluster',
      'ovnk:connect:NetworkConnect',
      'ovnk:network:Layer2Network',
      'ovnk:network:Layer3Network',
      'ovnk:uplink:Uplink',
      'pulumi-nodejs:dynamic/ovnk:ClusterAllocations',
      'pulumi-nodejs:dynamic/ovnk:ConnectRouter',
      'pulumi-nodejs:dynamic/ovnk:NetworkRows',
      'pulumi-nodejs:dynamic/ovnk:UplinkState',
      'pulumi-nodejs:dynamic/ovnk:ZoneRows',
    ]);
  });

  it('@pulumi/kubernetes is an optional peer only Kubernetes mode requires: the consumer has none, and only the kubernetes target requires it', () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', 'ovnk-pulumi', 'package.json'), 'utf8'));
    expect(manifest.peerDependenciesMeta['@pulumi/kubernetes']).toEqual({ optional: true });
    expect(existsSync(join(dir, 'node_modules', '@pulumi', 'kubernetes'))).toBe(false);
    const requiring = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((e) => {
        const path = join(folder, e.name);
        if (e.isDirectory()) return requiring(path);
        return e.name.endsWith('.js') && /require\(["']@pulumi\/kubernetes/.test(readFileSync(path, 'utf8'))
          ? [path]
          : [];
      });
    // inside the functions Kubernetes mode calls, so the Northbound components above load without it
    const root = join(dir, 'node_modules', 'ovnk-pulumi', 'dist');
    expect(
      requiring(root)
        .map((p) => p.slice(root.length + 1))
        .sort(),
    ).toEqual(['components/kubernetes.js', 'stacks/index.js']);
  });

  it("installs none of the CLI-only packages; the consumer's ovnk draws DOT and names the package a picture needs", () => {
    for (const name of ['@kubernetes/client-node', '@viz-js/viz', '@resvg/resvg-js'])
      expect(existsSync(join(dir, 'node_modules', ...name.split('/'))), name).toBe(false);
    const ovnk = join(dir, 'node_modules', 'ovnk-pulumi', 'dist', 'cli', 'main.js');
    const colored = join(repoRoot, 'stacks', 'topologies', 'colored-enterprise.yaml');
    const draw = (format: string) =>
      spawnSync(process.execPath, [ovnk, 'diagram', '-f', colored, '-o', format], { cwd: dir, encoding: 'utf8' });
    const dot = draw('dot');
    expect(dot.status).toBe(0);
    expect(dot.stdout.startsWith('digraph')).toBe(true);
    const svg = draw('svg');
    expect(svg.status).toBe(3);
    expect(svg.stderr).toContain('needs the package @viz-js/viz, which is not installed: npm install @viz-js/viz');
  });

  it('every serialized shim is small, requires the runtime by package name and names no path of this machine', () => {
    for (const r of registered.filter((x) => x.type.startsWith('pulumi-nodejs'))) {
      const text = String(r.inputs.__provider);
      expect(text).toMatch(/require\(['"]ovnk-pulumi\/runtime['"]\)/);
      expect(text.length).toBeLessThan(4096);
      expect(text).not.toContain(repoRoot);
      expect(text).not.toContain(dir);
    }
  });

  it("each kind's shim runs through the host from the consumer project (Configure, then Check)", async () => {
    const host = await PulumiHost.start(dir, 'consumer');
    try {
      await host.configure({});
      const slices: Record<
        string,
        { networks: Record<string, unknown>; connects: Record<string, unknown>; zone: unknown }
      > = {};
      for (const cluster of ['c', 'p', 'u']) {
        const r = registered.find((x) => x.type.endsWith('ClusterAllocations') && x.name === `${cluster}-allocations`)!;
        const checked = await host.check(dynamicUrn('ClusterAllocations', r.name), {}, r.inputs);
        expect(checked.failures).toEqual([]);
        slices[cluster] = checked.inputs.slices as (typeof slices)[string];
      }
      const sliceOf = (r: { name: string; type: string; inputs: Record<string, unknown> }) => {
        const s = slices[r.name.split('-')[0]!]!;
        if (r.type.endsWith(':NetworkRows')) return s.networks[String(r.inputs.network)];
        return r.type.endsWith(':ConnectRouter') ? s.connects[String(r.inputs.connect)] : s.zone;
      };
      for (const type of ['NetworkRows', 'ConnectRouter', 'ZoneRows']) {
        const r = registered.find((x) => x.type.endsWith(`:${type}`))!;
        const result = await host.check(dynamicUrn(type, r.name), {}, { ...r.inputs, slice: sliceOf(r) });
        expect({ type, failures: result.failures }).toEqual({ type, failures: [] });
        expect((result.inputs.slice as { digest: string }).digest).toMatch(/^[0-9a-f]{64}$/);
      }
      const uplink = registered.find((x) => x.type.endsWith(':UplinkState') && x.name === 'u-uplink-red-ovn-worker')!;
      const state = await host.check(dynamicUrn('UplinkState', uplink.name), {}, uplink.inputs);
      expect(state.failures).toEqual([]);
      expect(state.inputs.stateName).toBe('red.ovn-worker');
    } finally {
      await host.stop();
    }
  });
});
