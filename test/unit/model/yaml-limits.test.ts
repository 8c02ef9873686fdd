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
    for (const text of [nested(1000), nestedMaps(1000), nestedBlocks(1000)])
      expect(invalid(text)).toEqual([
        {
          reason: 'InvalidDocument',
          path: 'document[0]',
          message: expect.stringMatching(
            /^document\[0\] nests collections more than 64 levels deep at line 1, column \d+$/,
          ),
        },
      ]);
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
      expect(document).toMatchObject({ ok: false, exitCode: 3, path: 'document[0]' });
      expect(document.problems[0]).toMatchObject({ reason: 'InvalidDocument', path: 'document[0]' });
    },
    30_000,
  );
});
