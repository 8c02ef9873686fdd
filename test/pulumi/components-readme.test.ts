import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import * as ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { inventoryDefaults } from '../../provider/model/inventory';
import { NB_KEY, SSH_KEYS, TLS_KEYS, ZONES_KEY } from '../../provider/runtime/pulumi/settings';
import { repoRoot } from './fixtures';
import { valueOf } from './mocks';

// The README's part for Pulumi users holds: its stack config keys are the ones the providers read,
// its Inventory reference lists every field of the Inventory schema with upstream's defaults, its
// TypeScript blocks compile against the package's sources and run as written (built) (its mocks, then its two
// programs), and it names no file the repository does not have.
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const part = readme.slice(readme.indexOf('## Using the components in your own Pulumi program'));
const section = (title: string) => {
  const start = part.indexOf(`### ${title}`);
  return part.slice(start, part.indexOf('\n### ', start + 4));
};
const dir = mkdtempSync(join(tmpdir(), 'ovnk-readme-ts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Leaf field paths of a JSON schema (`spec.nodes[].name`, `spec.targets.zones.<key>.nb`). */
function leaves(schema: Record<string, unknown>, path = ''): string[] {
  const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
  const items = schema.items as Record<string, unknown> | undefined;
  const extra = schema.additionalProperties;
  const below = [
    ...Object.entries(props ?? {}).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k)),
    ...(items ? leaves(items, `${path}[]`) : []),
    ...(extra && typeof extra === 'object' ? leaves(extra as Record<string, unknown>, `${path}.<key>`) : []),
  ];
  return below.length > 0 ? below : [path];
}

const blocks = (lang: string) =>
  [...part.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!);

/** Where the README's imports resolve: the built package to run, the sources to type-check. */
const modulesIn = (root: string): Record<string, string> => ({
  'ovnk-pulumi': join(root, 'components'),
  'ovnk-pulumi/runtime': join(root, 'provider', 'runtime'),
  'ovnk-pulumi/testing': join(root, 'components', 'testing'),
  '@pulumi/pulumi': dirname(require.resolve('@pulumi/pulumi/package.json', { paths: [repoRoot] })),
});
const withModules = (code: string, root = join(repoRoot, 'dist')) =>
  code.replace(
    /from "(ovnk-pulumi(?:\/runtime|\/testing)?|@pulumi\/pulumi)"/g,
    (_, m: string) => `from ${JSON.stringify(modulesIn(root)[m])}`,
  );

describe("the README's part for Pulumi users", () => {
  it('lists exactly the stack config keys the providers read', () => {
    const listed = new Set([...section('Stack configuration').matchAll(/`(ovnk:[A-Za-z]+)`/g)].map((m) => m[1]));
    const read = new Set([NB_KEY, ZONES_KEY, ...Object.values(TLS_KEYS), ...Object.values(SSH_KEYS)]);
    expect([...listed].sort()).toEqual([...read].sort());
  });

  it("lists every field of the Inventory schema, and upstream's defaults", () => {
    const schema = JSON.parse(
      readFileSync(join(repoRoot, 'provider', 'model', 'crd', 'schemas', 'inventory.json'), 'utf8'),
    );
    const text = section('The Inventory');
    const tokens = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const covered = (name: string) =>
      tokens.some((t) => t === name || t.endsWith(`.${name}`) || t.startsWith(`${name}.`) || t.startsWith(`${name}[`));
    const missing = leaves(schema)
      .filter((p) => !['apiVersion', 'kind'].includes(p))
      .filter(
        (p) =>
          !covered(
            p
              .replace(/(\.<key>|\[\])+$/, '')
              .split('.')
              .pop()!,
          ),
      );
    expect(missing).toEqual([]);
    for (const path of leaves(schema).filter((p) => p.startsWith('spec.') && !p.includes('[]') && !p.includes('<key>')))
      expect(text, path).toContain(`\`${path}\``);
    for (const value of Object.values(inventoryDefaults).flat()) expect(text).toContain(`\`${value}\``);
  });

  it('names no file the repository does not have, in links or in code spans anywhere in the README', () => {
    const links = [...readme.matchAll(/\]\(([^)#]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    const paths = [...readme.matchAll(/`([\w./-]+\/[\w.-]+\.(?:ts|md|yaml|json|sh))`/g)].map((m) => m[1]!);
    expect([...links, ...paths].filter((p) => !existsSync(join(repoRoot, p)))).toEqual([]);
  });

  // Checked against the sources, whose declarations dist/ ships: a dist/ older than them (main
  // while other work lands) cannot fail this.
  it("its TypeScript compiles against the package's sources, strict", () => {
    const files = blocks('ts').map((code, i) => {
      const file = join(dir, `block${i}.ts`);
      writeFileSync(file, withModules(code, repoRoot));
      return file;
    });
    expect(files).toHaveLength(3);
    const program = ts.createProgram(files, {
      strict: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      esModuleInterop: true,
      resolveJsonModule: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(repoRoot, 'node_modules', '@types')],
    });
    const own = files.map((file) => program.getSourceFile(file)!);
    const errors = [
      ...program.getOptionsDiagnostics(),
      ...own.flatMap((f) => program.getSyntacticDiagnostics(f)),
      ...own.flatMap((f) => program.getSemanticDiagnostics(f)),
    ].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  }, 180_000);

  it('its mocks and its two programs run as written, with the allocations known', async () => {
    copyFileSync(join(repoRoot, 'stacks', 'topologies', 'colored-enterprise.yaml'), join(dir, 'topology.yaml'));
    const exported: Record<string, unknown> = {};
    const [fromFile, fromObjects, mocks] = blocks('ts');
    for (const code of [mocks!, fromFile!, fromObjects!]) {
      const js = ts.transpileModule(withModules(code), {
        compilerOptions: { module: ts.ModuleKind.CommonJS, esModuleInterop: true },
      }).outputText;
      const exports: Record<string, unknown> = {};
      new Function('exports', 'require', '__dirname', js)(exports, require, dir);
      Object.assign(exported, exports);
    }
    const values: Record<string, unknown> = {};
    for (const [name, output] of Object.entries(exported))
      if (pulumi.Output.isInstance(output)) values[name] = await valueOf(output);
    expect(Object.keys(values.networkIds as object).length).toBeGreaterThan(1);
    expect(values.blueId).toBe(1);
    expect(values.connectKey).toEqual(expect.any(Number));
  });
});
