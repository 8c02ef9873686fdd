import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocuments } from '../../../provider/model/load';
import { parseYaml } from '../../../provider/model/yamlInput';
import { ensureBuilt, PlanChild, repo } from '../../support/planChild';

// Issue 15 point 8: 1,000 nested brackets in a 2 KB file aborted node (exit 134) and alias bombs
// exited 4. The parser refuses them (exit 3, the document named) before anything recurses.

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}\n`;
const nestedMaps = (depth: number) => `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\n`;
const nestedBlocks = (depth: number) => `${'- '.repeat(depth)}x\n`;
const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]']
  .concat([...'bcdefghi'].map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(', ')}]`))
  .join('\n');
const aliasTower = ['a0: &a0 [x]']
  .concat(Array.from({ length: 80 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`))
  .join('\n');
const fixture = readFileSync(join(repo, 'test', 'fixtures', 'blue-green.yaml'), 'utf8');

const invalid = (text: string) =>
  loadDocuments(text).problems.map(({ reason, path, message }) => ({ reason, path, message }));

describe('YAML limits', () => {
  it('refuses collections nested more than 64 deep, naming the document, the line and the column', () => {
    for (const text of [nested(1000), nestedMaps(1000)])
      expect(invalid(text)).toEqual([
        {
          reason: 'InvalidDocument',
          path: 'document[0]',
          message: expect.stringMatching(
            /^document\[0\] nests collections more than 64 levels deep at line 1, column \d+$/,
          ),
        },
      ]);
    const blocks = '[0]'.repeat(64);
    expect(invalid(nestedBlocks(1000))).toEqual([
      {
        reason: 'InvalidDocument',
        path: `document[0]: ${blocks}`,
        message: expect.stringMatching(/nests collections more than 64 levels deep at line 1, column \d+$/),
      },
    ]);
  });

  // issue 25 point 5: 1,000,000 nesting levels cost 16-26 s and 1.1 GB before being refused
  it('refuses 1,000,000 nested brackets in well under a second, counting them while reading', () => {
    const start = performance.now();
    const problems = invalid(`a: ${nested(1_000_000)}`);
    expect(performance.now() - start).toBeLessThan(1000);
    expect(problems).toEqual([
      {
        reason: 'InvalidDocument',
        path: 'document[0]',
        message: 'document[0] nests collections more than 64 levels deep at line 1, column 68',
      },
    ]);
  });

  it('names the field path of a collection nested too deep inside an object', () => {
    const deep = Array.from({ length: 70 }, (_, i) => `${'  '.repeat(i + 2)}x${i}:`).join('\n');
    const text = `kind: ClusterUserDefinedNetwork\nspec:\n  network:\n${deep} 1\n`;
    const [found] = invalid(text);
    expect(found?.path).toMatch(/^document\[0\]: spec\.network\.x0\.x1\.x2\..*\.x61$/);
    expect(found?.message).toMatch(
      /^document\[0\]: spec\.network\.x0\..* nests collections more than 64 levels deep at line 66/,
    );
  });

  it('reads collections nested 64 deep', () => {
    expect(parseYaml(nested(64)).problems).toEqual([]);
    expect(parseYaml(nested(65)).problems).toHaveLength(1);
  });

  it('names the deep document among several', () => {
    expect(invalid(`${fixture}\n---\n${nested(200)}`).map((p) => p.path)).toEqual(['document[4]']);
  });

  it('refuses an alias bomb, a cyclic alias, an alias chain deeper than 64 and an unknown alias', () => {
    expect(invalid(bomb)).toEqual([
      { reason: 'InvalidDocument', path: 'document[0]', message: expect.stringContaining('Excessive alias count') },
    ]);
    expect(invalid('a: &x [*x]')).toEqual([
      {
        reason: 'InvalidDocument',
        path: 'document[0]',
        message: 'document[0] has alias *x inside the collection it names at line 1, column 8',
      },
    ]);
    expect(invalid(aliasTower)[0]?.message).toMatch(/nests collections more than 64 levels deep through its aliases/);
    expect(invalid('a: *nope')[0]?.message).toMatch(/^document\[0\] cannot be read: Unresolved alias/);
  });

  it('still reads anchors and aliases used as people use them', () => {
    const text = fixture
      .replace('{name: blue, labels: {network: blue}}', '{name: blue, labels: &blue {network: blue}}')
      .replace(
        '- {name: green, labels: {network: green}}',
        '- {name: green, labels: {network: green}}\n  - {name: blue2, labels: *blue}',
      );
    const loaded = loadDocuments(text);
    expect(loaded.problems).toEqual([]);
    const namespaces = (loaded.documents[0]!.body.spec as { namespaces: unknown[] }).namespaces;
    expect(namespaces[2]).toEqual({ name: 'blue2', labels: { network: 'blue' } });
  });

  it('gives documents whose objects have no prototype, so user keys are only keys', () => {
    const loaded = loadDocuments(
      fixture.replace('labels: {app: colored-enterprise}', 'labels: {__proto__: x, constructor: y}'),
    );
    const blue = loaded.documents.find((d) => d.metadata.name === 'blue-network')!;
    expect(Object.getPrototypeOf(blue.body)).toBeNull();
    expect(Object.keys(blue.metadata.labels).sort()).toEqual(['__proto__', 'constructor']);
  });
});

describe('ovnk plan on hostile YAML', () => {
  let dir: string;
  const child = new PlanChild();
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'ovnk-yaml-'));
  }, 120_000);
  afterAll(() => {
    child.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['1,000 nested brackets', nested(1000)],
    ['1,000 nested flow maps', nestedMaps(1000)],
    ['1,000 nested block sequences', nestedBlocks(1000)],
    ['an alias bomb', bomb],
    ['a cyclic alias', 'a: &x [*x]'],
  ])(
    'exits 3 naming the document for %s',
    async (name, text) => {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
      writeFileSync(file, text);
      const outcome = await child.run(['plan', '-f', file, '-o', 'json'], 15_000);
      expect(outcome).toMatchObject({ kind: 'done', code: 3 });
      const document = JSON.parse((outcome as { stdout: string }).stdout);
      const path = expect.stringMatching(/^document\[0\]($|: )/);
      expect(document).toMatchObject({ ok: false, exitCode: 3, path });
      expect(document.problems[0]).toMatchObject({ reason: 'InvalidDocument', path });
    },
    30_000,
  );

  // issue 25 point 5: a 20 MB file gave no answer in 240 s; 1,000,000 levels cost 16-26 s and 1.1 GB
  it('refuses a 20 MB file with exit 3 as soon as it has read past the limit, naming the limit', async () => {
    const file = join(dir, 'twenty-megabytes.yaml');
    const network = readFileSync(join(repo, 'test', 'fixtures', 'networks-layer3.yaml'), 'utf8');
    writeFileSync(file, `${network}\n---\n`.repeat(Math.ceil(20e6 / (network.length + 5))));
    const outcome = await child.run(['plan', '-f', file, '-o', 'json'], 15_000);
    expect(outcome).toMatchObject({ kind: 'done', code: 3 });
    expect((outcome as { wallMs: number }).wallMs).toBeLessThan(10_000);
    const document = JSON.parse((outcome as { stdout: string }).stdout);
    expect(document).toMatchObject({ ok: false, exitCode: 3, path: '-f', error: expect.stringContaining('16 MiB') });
  }, 30_000);

  it('refuses 1,000,000 nesting levels with exit 3 in seconds', async () => {
    const file = join(dir, 'million.yaml');
    writeFileSync(file, `spec: ${nested(1_000_000)}`);
    const outcome = await child.run(['plan', '-f', file, '-o', 'json'], 15_000);
    expect(outcome).toMatchObject({ kind: 'done', code: 3 });
    expect((outcome as { wallMs: number }).wallMs).toBeLessThan(10_000);
    expect(JSON.parse((outcome as { stdout: string }).stdout).error).toMatch(/more than 64 levels deep at line 1/);
  }, 30_000);
});
