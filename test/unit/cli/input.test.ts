import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { documentOf, ovnk } from '../../support/cli';
import { repoRoot } from '../../support/dist';

// blue-green.yaml's documents, one per file, as a person splits a topology (kubectl's -f forms).
const whole = join(repoRoot, 'test', 'fixtures', 'blue-green.yaml');
const text = readFileSync(whole, 'utf8');
const parts = text.split(/^---\n/m).filter((p) => p.trim() !== '');
let dir: string;
let split: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-input-'));
  split = join(dir, 'split');
  mkdirSync(split);
  // names sort as the documents come; one is JSON, and files of other kinds are not inputs
  parts.forEach((part, i) => writeFileSync(join(split, `${i}-part.yaml`), part));
  const last = join(split, `${parts.length - 1}-part.yaml`);
  rmSync(last);
  writeFileSync(last.replace(/\.yaml$/, '.json'), JSON.stringify(parse(parts.at(-1)!)));
  writeFileSync(join(split, 'README.md'), '# not a topology\n');
  writeFileSync(join(split, 'notes.txt'), 'kind: Nonsense\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const planOf = (...args: string[]) => ovnk(['plan', ...args, '-o', 'json']);
const inputsOf = (...names: string[]) => names.flatMap((n) => ['-f', join(dir, n)]);
const write = (name: string, content: string) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};

describe('-f takes input as kubectl apply -f does', () => {
  const expected = () => documentOf(planOf('-f', whole));

  it('-f - reads standard input and plans what the file plans', () => {
    const run = ovnk(['plan', '-f', '-', '-o', 'json'], { input: text });
    expect(run.code).toBe(0);
    expect(documentOf(run)).toEqual(expected());
  });

  it('-f given several times plans the documents of every file together', () => {
    const files = parts.map((part, i) => write(`several-${i}.yaml`, part));
    const run = planOf(...files.flatMap((f) => ['-f', f]));
    expect(run.code).toBe(0);
    expect(documentOf(run)).toEqual(expected());
  });

  it('-f DIRECTORY reads its *.yaml, *.yml and *.json files, sorted, and nothing else', () => {
    const run = planOf('-f', split);
    expect(run.code, run.stderr).toBe(0);
    expect(documentOf(run)).toEqual(expected());
  });

  it('mixes the forms: a file, standard input and a directory', () => {
    const inventory = write('mixed-inventory.yaml', parts[0]!);
    const rest = join(dir, 'mixed');
    mkdirSync(rest);
    parts.slice(2).forEach((part, i) => writeFileSync(join(rest, `${i}.yml`), part));
    const run = ovnk(['plan', '-f', inventory, '-f', '-', '-f', rest, '-o', 'json'], { input: parts[1] });
    expect(run.code, run.stderr).toBe(0);
    expect(documentOf(run)).toEqual(expected());
  });
});

describe('input errors name their file', () => {
  it('a problem in the second of two files names that file, and one on standard input names -', () => {
    const good = write('good.yaml', parts.slice(0, 2).join('---\n'));
    const bad = write('bad.yaml', parts.slice(2).join('---\n').replace('networkPrefix: 24', 'networkPrefix: big'));
    const run = planOf('-f', good, '-f', bad);
    expect(run.code).toBe(3);
    expect(documentOf(run)).toMatchObject({
      file: bad,
      problems: [{ file: bad, path: expect.stringContaining('spec.connectSubnets[0].networkPrefix') }],
    });
    const piped = ovnk(['plan', '-f', good, '-f', '-'], { input: 'kind: [unclosed\n' });
    expect(piped.code).toBe(3);
    expect(piped.stderr).toMatch(/^error: -: document\[0\]: /);
  });

  it('a misspelled kind in one file of a directory is refused, naming the file and the kind', () => {
    const typo = join(dir, 'typo');
    mkdirSync(typo);
    parts.forEach((part, i) =>
      writeFileSync(join(typo, `${i}.yaml`), part.replace('kind: ClusterNetworkConnect', 'kind: ClusterNetworkConect')),
    );
    const run = planOf('-f', typo);
    expect(run.code).toBe(3);
    const problem = documentOf(run).problems.find((p: { reason: string }) => p.reason === 'UnknownKind');
    expect(problem).toMatchObject({
      file: expect.stringMatching(/typo\/\d\.yaml$/),
      path: expect.stringMatching(/^ClusterNetworkConect\//),
    });
  });

  it("a directory's files are read in name order, so its problems come in that order", () => {
    const ordered = join(dir, 'ordered');
    mkdirSync(ordered);
    for (const name of ['b.yaml', 'c.yml', 'a.json']) writeFileSync(join(ordered, name), '{"kind": "Nothing"}\n');
    const run = planOf('-f', ordered);
    expect(run.code).toBe(3);
    const files = documentOf(run).problems.map((p: { file: string }) => p.file);
    expect([...new Set(files)]).toEqual(['a.json', 'b.yaml', 'c.yml'].map((n) => join(ordered, n)));
  });

  it('a file that cannot be read, an empty directory and - given twice exit 3, naming what was given', () => {
    const missing = planOf(...inputsOf('good.yaml', 'nope.yaml'));
    expect(missing.code).toBe(3);
    expect(documentOf(missing)).toMatchObject({
      file: join(dir, 'nope.yaml'),
      path: '-f',
      error: `cannot read ${join(dir, 'nope.yaml')}: ENOENT`,
    });
    mkdirSync(join(dir, 'empty'));
    const empty = planOf('-f', join(dir, 'empty'));
    expect(empty.code).toBe(3);
    expect(documentOf(empty).error).toBe(`${join(dir, 'empty')} is a directory without *.yaml, *.yml or *.json files`);
    const twice = planOf('-f', '-', '-f', '-');
    expect(twice.code).toBe(3);
    expect(documentOf(twice).error).toBe('standard input (-f -) can be read only once');
  });
});
