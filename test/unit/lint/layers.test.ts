/**
 * The lint rules bite: the repository's own .dependency-cruiser.cjs runs over a small tree made in a
 * temp dir (one module per layer, then one importing file per case), and must report exactly the
 * cases that break ARCHITECTURE.md's arrows, I/O in the pure layers and cycles, and nothing for the
 * allowed arrows. The ESLint rules that let the layer check tell types from values run on text.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = join(__dirname, '..', '..', '..');

/** Where each layer's one module lives in the small tree. */
const modules: Record<string, string> = {
  stacks: 'stacks/m.ts',
  components: 'components/m.ts',
  cli: 'cli/m.ts',
  lab: 'lab/m.ts',
  shim: 'provider/shim.ts',
  ...Object.fromEntries(
    ['runtime', 'connect', 'topology', 'uplink', 'alloc', 'model', 'nb', 'ovsdb', 'host'].map((l) => [
      l,
      `provider/${l}/m.ts`,
    ]),
  ),
  /** The model's shared vocabulary, whose values nb may import. */
  externalIds: 'provider/model/externalIds.ts',
  /** The model's zone layouts, whose values the lab may import. */
  zones: 'provider/model/zones.ts',
};

interface Case {
  /** The importing layer (its file is `<layer dir>/case<N>.ts`). */
  from: string;
  /** A layer (its module) or a package (`node:fs`, `ssh2`). */
  to: string;
  type?: boolean;
  /** The rule that must report it; none for an allowed import. */
  rule?: string;
}

const allowed: Case[] = [
  ...['connect', 'topology', 'uplink', 'alloc', 'model', 'nb', 'host', 'ovsdb'].map((to) => ({ from: 'runtime', to })),
  ...['topology', 'alloc', 'model', 'nb'].map((to) => ({ from: 'connect', to })),
  ...['alloc', 'model', 'nb'].map((to) => ({ from: 'topology', to })),
  { from: 'uplink', to: 'model' },
  { from: 'alloc', to: 'model' },
  { from: 'nb', to: 'ovsdb' },
  { from: 'nb', to: 'externalIds' },
  { from: 'host', to: 'ovsdb' },
  { from: 'cli', to: 'runtime' },
  { from: 'cli', to: 'lab' },
  { from: 'components', to: 'runtime' },
  { from: 'components', to: 'shim' },
  { from: 'stacks', to: 'components' },
  { from: 'lab', to: 'host' },
  { from: 'lab', to: 'zones' },
  ...['cli', 'components', 'lab', 'nb', 'ovsdb', 'host'].map((from) => ({ from, to: 'model', type: true })),
  { from: 'cli', to: 'node:fs' },
  { from: 'host', to: 'node:net' },
  { from: 'topology', to: 'node:crypto' },
];

const refused: Case[] = [
  ...['nb', 'alloc', 'connect', 'topology', 'uplink'].map((to) => ({ from: 'cli', to, rule: 'arrows-cli' })),
  { from: 'cli', to: 'ovsdb', type: true, rule: 'arrows-cli' },
  { from: 'cli', to: 'model', rule: 'model-values' },
  { from: 'components', to: 'model', rule: 'model-values' },
  { from: 'nb', to: 'model', rule: 'model-values' },
  { from: 'lab', to: 'model', rule: 'model-values' },
  ...['ovsdb', 'host', 'runtime'].flatMap((to) =>
    ['model', 'alloc', 'topology', 'connect', 'uplink'].map((from) => ({ from, to, rule: `arrows-${from}` })),
  ),
  ...['node:fs', 'node:net', 'node:child_process', 'node:fs/promises', 'ssh2'].map((to) => ({
    from: 'topology',
    to,
    rule: 'pure-no-io',
  })),
  { from: 'model', to: 'node:os', rule: 'pure-no-io' },
  { from: 'components', to: 'ovsdb', rule: 'arrows-components' },
  { from: 'components', to: 'host', type: true, rule: 'arrows-components' },
  { from: 'uplink', to: 'alloc', rule: 'arrows-uplink' },
  { from: 'topology', to: 'connect', rule: 'arrows-topology' },
  { from: 'alloc', to: 'topology', rule: 'arrows-alloc' },
  { from: 'model', to: 'alloc', type: true, rule: 'arrows-model' },
  { from: 'ovsdb', to: 'nb', rule: 'arrows-ovsdb' },
  { from: 'stacks', to: 'runtime', rule: 'arrows-stacks' },
  { from: 'lab', to: 'runtime', rule: 'arrows-lab' },
];

const caseFile = (c: Case, i: number): string => join(dirname(modules[c.from]!), `case${i}.ts`);

function importLine(c: Case, file: string): string {
  const target = modules[c.to];
  if (target === undefined) return `import * as probe from '${c.to}';\nexport const used = probe;\n`;
  const spec = `./${relative(dirname(file), target).replace(/\.ts$/, '')}`.replace(/^\.\/\.\./, '..');
  return c.type
    ? `import type { Shape } from '${spec}';\nexport const used: Shape = { x: 1 };\n`
    : `import { value } from '${spec}';\nexport const used = value;\n`;
}

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

let dir: string;
let violations: Violation[];
const cases = [...allowed, ...refused];

function write(file: string, text: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-lint-'));
  copyFileSync(join(repo, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  write('tsconfig.test.json', JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }));
  for (const file of Object.values(modules))
    write(file, 'export const value = 1;\nexport interface Shape {\n  x: number;\n}\n');
  cases.forEach((c, i) => write(caseFile(c, i), importLine(c, caseFile(c, i))));
  // A type-only cycle, and a provider directory that is no layer.
  write('provider/nb/left.ts', "import type { Right } from './right';\nexport interface Left {\n  right?: Right;\n}\n");
  write('provider/nb/right.ts', "import type { Left } from './left';\nexport interface Right {\n  left?: Left;\n}\n");
  write('provider/extra/e.ts', "import { value } from '../nb/m';\nexport const used = value;\n");
  const cruise = join(repo, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const args = [cruise, '--no-cache', '-T', 'json', 'provider', 'cli', 'components', 'lab', 'stacks'];
  let output: string;
  try {
    output = execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    output = (error as { stdout: string }).stdout; // exits non-zero on errors, as npm run lint relies on
  }
  violations = (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const found = (file: string): string[] => violations.filter((v) => v.from === file).map((v) => v.rule.name);

describe('the layer rules of .dependency-cruiser.cjs', () => {
  it.each(refused.map((c) => [`${c.from} -> ${c.to}${c.type ? ' (type)' : ''}`, c] as const))(
    'refuses %s',
    (_name, c) => {
      expect(found(caseFile(c, cases.indexOf(c)))).toEqual([c.rule]);
    },
  );

  it('allows every arrow of ARCHITECTURE.md, model types anywhere and I/O outside the pure layers', () => {
    const wrongly = allowed.filter((c, i) => found(caseFile(c, i)).length > 0);
    expect(wrongly).toEqual([]);
  });

  it('refuses a cycle of type-only imports', () => {
    const cycles = violations.filter((v) => v.rule.name === 'no-circular');
    expect(cycles.map((v) => [v.from, ...v.cycle!.map((step) => step.name)])).toEqual([
      ['provider/nb/left.ts', 'provider/nb/right.ts', 'provider/nb/left.ts'],
    ]);
  });

  it('refuses a provider file outside every layer', () => {
    expect(found('provider/extra/e.ts')).toEqual(['provider-layer-known']);
  });

  it('reports nothing else', () => {
    const known = new Set([...refused.map((c) => caseFile(c, cases.indexOf(c))), 'provider/extra/e.ts']);
    const other = violations.filter((v) => !known.has(v.from) && v.rule.name !== 'no-circular');
    expect(other).toEqual([]);
  });
});

describe('the ESLint rules the layer check relies on', () => {
  async function lint(text: string): Promise<string[]> {
    const { ESLint } = await import('eslint');
    const eslint = new ESLint({ cwd: repo });
    const [result] = await eslint.lintText(text, { filePath: join(repo, 'provider', 'model', 'probe.ts') });
    return result!.messages.map((m) => m.ruleId ?? m.message);
  }

  it('refuses a value import used only as a type, which the layer check would count as a value', async () => {
    expect(await lint("import { Cidr } from './cidr';\nexport const c: Cidr | undefined = undefined;\n")).toEqual([
      '@typescript-eslint/consistent-type-imports',
    ]);
  });

  it('refuses an import whose every name is an inline type', async () => {
    expect(await lint("import { type Cidr } from './cidr';\nexport const c: Cidr | undefined = undefined;\n")).toEqual([
      '@typescript-eslint/no-import-type-side-effects',
    ]);
  });

  it('accepts `import type`', async () => {
    expect(await lint("import type { Cidr } from './cidr';\nexport const c: Cidr | undefined = undefined;\n")).toEqual(
      [],
    );
  });
  it('refuses a comment line past 120 characters, which Prettier does not wrap, and accepts a long string', async () => {
    expect(await lint(`// ${'word '.repeat(25)}\nexport const n = 1;\n`)).toEqual(['max-len']);
    expect(await lint(`export const message =\n  '${'word '.repeat(25)}';\n`)).toEqual([]);
    // an @example's code lines are indented past ` * ` and kept whole
    expect(await lint(`/**\n * @example\n *   ${'call(x); '.repeat(15)}\n */\nexport const n = 1;\n`)).toEqual([]);
  });

  it('refuses imports out of order (node, packages, then ours from the farthest folder in, alphabetical)', async () => {
    const use = 'export const n = [readFileSync, parse, cidr, load].length;\n';
    const ordered = [
      "import { readFileSync } from 'node:fs';",
      "import { parse } from 'yaml';",
      "import { load } from '../runtime/load';",
      "import { cidr } from './cidr';",
    ];
    expect(await lint(ordered.join('\n') + '\n' + use)).toEqual([]);
    const swapped = [ordered[1], ordered[0], ordered[3], ordered[2]];
    expect(await lint(swapped.join('\n') + '\n' + use)).toEqual(['import-x/order', 'import-x/order']);
  });
});
