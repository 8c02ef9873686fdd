/**
 * What a program that installs the package gets (issue 29 point 7), checked on the packed file
 * list (`npm pack --dry-run`, no network) and on package.json: no install script of ours, no
 * CLI-only package among the dependencies, nothing packed that requires a package the install
 * lacks, and the library and the CLI loading without the CLI-only packages. The install from the
 * registry itself is test/pulumi/packaging.test.ts's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../../support/cli';
import { repoRoot, requireFreshDist } from '../../support/dist';

/** What only some `ovnk` commands need: optional peers, loaded on first use. */
const cliOnly = ['@kubernetes/client-node', '@resvg/resvg-js', '@viz-js/viz'];

interface Manifest {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}
const manifest: Manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
let packed: string[];
let dir: string;

/** The package a module specifier names (`@scope/name/sub` -> `@scope/name`), or undefined for a built-in. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The packages each packed .js file requires by name, literally or through requireOptional (not `config.require`). */
function requiredPackages(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const file of packed.filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    for (const m of text.matchAll(/(?:(?<![.\w$])require|\brequireOptional\)?)\(\s*["']([^"'./][^"']*)["']/g)) {
      const name = packageOf(m[1]!);
      if (name !== undefined && name !== 'ovnk-pulumi') found.set(name, (found.get(name) ?? new Set()).add(file));
    }
  }
  return found;
}

/** Node with the CLI-only packages unresolvable, as where a program installed only the library. */
function withoutCliOnly(args: string[]): { code: number; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--require', join(dir, 'hide.js'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    input: '',
    timeout: 120_000,
    env: { ...process.env, OVNK_TEST_HIDDEN: JSON.stringify(cliOnly) },
  });
  return { code: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  requireFreshDist(['cli', 'provider', 'lab', 'components', 'stacks']);
  const listing = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  packed = (JSON.parse(listing) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  dir = mkdtempSync(join(tmpdir(), 'ovnk-manifest-'));
  // Node's own error for a package that is not there, for the hidden names only.
  writeFileSync(
    join(dir, 'hide.js'),
    `const Module = require('node:module');
const hidden = JSON.parse(process.env.OVNK_TEST_HIDDEN);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.some((h) => request === h || request.startsWith(h + '/'))) {
    const error = new Error("Cannot find module '" + request + "'");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
`,
  );
}, 60_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('runs no script of ours when a program installs it (the build is prepack, for npm pack in a checkout)', () => {
    const installScripts = ['preinstall', 'install', 'postinstall', 'prepare'];
    expect(Object.keys(manifest.scripts).filter((s) => installScripts.includes(s))).toEqual([]);
    expect(manifest.scripts.prepack).toBe('npm run build');
  });

  it('holds the built library, the CLI and the README only: no sources, source maps, tests or benchmarks', () => {
    const outside = packed.filter(
      (f) => !['README.md', 'package.json'].includes(f) && !/^dist\/(provider|components|cli|lab|stacks)\//.test(f),
    );
    expect(outside).toEqual([]);
    expect(packed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    // source maps point at sources the package does not ship
    expect(packed.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(packed).toContain('dist/components/index.js');
    expect(packed).toContain('dist/cli/main.js');
  });

  it("keeps the CLI-only packages out of a program's install: optional peers, and devDependencies of a checkout", () => {
    for (const name of cliOnly) {
      expect(manifest.dependencies, name).not.toHaveProperty([name]);
      expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(manifest.devDependencies[name], name).toBe(manifest.peerDependencies[name]);
    }
  });

  it('requires no package a program would lack, and every dependency is one the library itself requires', () => {
    const required = requiredPackages();
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    expect([...required.keys()].filter((name) => !declared.has(name))).toEqual([]);
    // commander is the one dependency only the CLI requires: every command parses its flags with it
    // (0.2 MB, no dependencies of its own), so it stays a dependency rather than an optional peer.
    const byLibrary = (name: string) => [...(required.get(name) ?? [])].some((f) => !f.startsWith('dist/cli/'));
    expect(Object.keys(manifest.dependencies).filter((name) => name !== 'commander' && !byLibrary(name))).toEqual([]);
    for (const name of cliOnly) expect(required.has(name), name).toBe(true);
  });

  it('loads the library and the runtime without the CLI-only packages', () => {
    const entries = ['components/index.js', 'components/testing.js', 'provider/runtime/index.js'];
    const script = entries.map((e) => `require(${JSON.stringify(join(repoRoot, 'dist', e))});`).join('');
    const run = withoutCliOnly(['-e', `${script} process.stdout.write('loaded')`]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('loaded');
  });

  it('runs the CLI without them, and a command that needs one says which package to install (exit 3)', () => {
    const colored = join(repoRoot, 'stacks', 'topologies', 'colored-enterprise.yaml');
    const dot = withoutCliOnly([cliPath, 'diagram', '-f', colored, '-o', 'dot']);
    expect(dot.code).toBe(0);
    expect(dot.stdout.startsWith('digraph')).toBe(true);
    const svg = withoutCliOnly([cliPath, 'diagram', '-f', colored, '-o', 'svg']);
    expect(svg.code).toBe(3);
    expect(svg.stdout).toBe('');
    expect(svg.stderr).toContain(
      'ovnk diagram (-o svg, -o png) needs the package @viz-js/viz, which is not installed: npm install @viz-js/viz',
    );
    writeFileSync(join(dir, 'kubeconfig'), 'apiVersion: v1\nkind: Config\n');
    const inventory = withoutCliOnly([cliPath, 'inventory', '--kubeconfig', join(dir, 'kubeconfig'), '-o', 'json']);
    expect(inventory.code).toBe(3);
    expect(JSON.parse(inventory.stdout)).toMatchObject({
      ok: false,
      error:
        'ovnk inventory needs the package @kubernetes/client-node, which is not installed: npm install @kubernetes/client-node',
      package: '@kubernetes/client-node',
    });
  });
});
