/**
 * Topologies a hostile world writes, as fast-check arbitraries: a shipped topology file (stacks/,
 * test/fixtures/) with 1 to 4 mutations (a field deleted, duplicated, retyped or renamed; a name,
 * CIDR or number made odd; a value nested deep; a document dropped or one of upstream's CRD test
 * manifests added), written as YAML or JSON, sometimes with its text cut or garbage inserted.
 * Documents are trees of prototype-free objects, so a key named `__proto__` is a key.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { dict } from '../../provider/model/dict';
import { repo } from '../support/planChild';

type Tree = unknown;
type Key = string | number;

/** Every topology file the project ships, parsed (spec.targets dropped: plan stays offline). */
export const seeds: { file: string; documents: Tree[] }[] = [
  ...yamlFiles('stacks').filter((f) => !/Pulumi\./.test(f)),
  ...yamlFiles('stacks/topologies'),
  ...yamlFiles('test/fixtures'),
].map((file) => ({ file, documents: readYaml(readFileSync(join(repo, file), 'utf8')).map(offline) }));

/** Objects of upstream's CRD test scenarios (test/fixtures/crd-upstream), to graft into a topology. */
export const grafts: Tree[] = yamlFiles('test/fixtures/crd-upstream').flatMap((file) =>
  (readYaml(readFileSync(join(repo, file), 'utf8'))[0] as { manifest?: string }[]).flatMap((s) =>
    typeof s.manifest === 'string' ? readYaml(s.manifest) : [],
  ),
);

function yamlFiles(dir: string): string[] {
  return readdirSync(join(repo, dir))
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => `${dir}/${f}`);
}

function readYaml(text: string): Tree[] {
  return parseAllDocuments(text).map((d) => copy(d.toJS()));
}

function offline(document: Tree): Tree {
  const spec = (document as { spec?: Record<string, unknown> }).spec;
  if (spec && typeof spec === 'object') delete spec.targets;
  return document;
}

/** A deep copy whose objects have no prototype. */
function copy(value: Tree): Tree {
  if (Array.isArray(value)) return value.map(copy);
  if (value === null || typeof value !== 'object') return value;
  return dict(Object.entries(value).map(([k, v]) => [k, copy(v)] as const));
}

const oddNames = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
  ' ',
  'a'.repeat(300),
  'é',
  'ß',
  '日本語',
  '🙂',
  'ａｂｃ',
  '\u202Eevil',
  'zero\u200Bwidth',
  'nul\u0000byte',
  'line\nbreak',
  '-',
  '.',
  'a..b',
  'UPPER',
  '0',
  '1e3',
  'null',
  'true',
  '~',
  '*alias',
  '&anchor',
  '{}',
  '[x]',
  '../etc',
  'x/y',
  'k8s.ovn.org/x',
];
const oddCidrs = [
  '::/0',
  '0.0.0.0/0',
  'fd80::/10',
  'fd97::/16',
  '100.64.0.0/10',
  '10.0.0.0/8',
  '1.2.3.4/32',
  'fd00::1/128',
  '10.0.0.1/24',
  '10.0.0.0/33',
  '::ffff:10.0.0.0/104',
  '01.2.3.4/8',
  '10.0.0.0/-1',
  'fd00::/129',
  '1.2.3.4',
  '',
  'fe80::/10',
  '169.254.0.0/16',
  'fd69::/112',
  '100.65.0.0/16',
  '0.0.0.0/32',
  '255.255.255.255/32',
  'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128',
  '8000::/1',
  '128.0.0.0/1',
  '10.0.0.0/31',
  'fd30::/127',
];
const oddNumbers = [
  0,
  -1,
  1,
  2,
  31,
  32,
  33,
  64,
  127,
  128,
  129,
  4095,
  4096,
  5000,
  5001,
  32767,
  2 ** 31,
  2 ** 53,
  1.5,
  1e308,
];
const oddValues: Tree[] = [null, true, false, 0, '', 'x', [], [[]], dict(), dict([['a', dict()]]), ['x', 1, null]];
const garbage = [
  '[',
  ']',
  '{',
  '}',
  ': ',
  '- ',
  '&a ',
  '*a',
  '!!binary ',
  '%YAML 1.1\n',
  '\t',
  '"',
  "'",
  '\u0000',
  '---\n',
  '? ',
];

export type Mutation =
  | { kind: 'delete' | 'duplicate' | 'dropDocument'; at: number }
  | { kind: 'retype'; at: number; value: Tree }
  | { kind: 'rename' | 'name'; at: number; name: string }
  | { kind: 'cidr'; at: number; cidr: string }
  | { kind: 'number'; at: number; value: number }
  | { kind: 'nest'; at: number; depth: number; list: boolean }
  | { kind: 'graft'; at: number };

export type TextMutation = { kind: 'cut' | 'insert'; at: number; text: string };

export interface FuzzCase {
  seed: number;
  mutations: Mutation[];
  json: boolean;
  text: TextMutation[];
}

const at = fc.nat();
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delete', 'duplicate', 'dropDocument'), at }),
  fc.record({
    kind: fc.constant('retype'),
    at,
    value: fc.oneof(fc.constantFrom(...oddValues), fc.jsonValue({ maxDepth: 3 })),
  }),
  fc.record({
    kind: fc.constantFrom('rename', 'name'),
    at,
    name: fc.oneof(fc.constantFrom(...oddNames), fc.string({ unit: 'binary', maxLength: 12 })),
  }),
  fc.record({ kind: fc.constant('cidr'), at, cidr: fc.constantFrom(...oddCidrs) }),
  fc.record({ kind: fc.constant('number'), at, value: fc.oneof(fc.constantFrom(...oddNumbers), fc.integer()) }),
  fc.record({
    kind: fc.constant('nest'),
    at,
    depth: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 60, max: 200 })),
    list: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('graft'), at }),
);

export const fuzzCase: fc.Arbitrary<FuzzCase> = fc.record({
  seed: fc.nat({ max: seeds.length - 1 }),
  mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
  json: fc.boolean(),
  text: fc.oneof(
    { weight: 4, arbitrary: fc.constant<TextMutation[]>([]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.record({ kind: fc.constantFrom('cut', 'insert'), at, text: fc.constantFrom(...garbage) }),
        { maxLength: 2 },
      ),
    },
  ),
});

/** The case's file text: the seed's documents mutated, serialized, then its text mutated. */
export function render(c: FuzzCase): string {
  const documents = seeds[c.seed]!.documents.map(copy);
  for (const m of c.mutations) mutate(documents, m);
  let text = c.json ? JSON.stringify(documents, null, 1) : documents.map((d) => stringify(d)).join('---\n');
  for (const t of c.text) {
    const cut = t.at % (text.length + 1);
    text = t.kind === 'cut' ? text.slice(0, cut) : `${text.slice(0, cut)}${t.text}${text.slice(cut)}`;
  }
  return text;
}

interface Place {
  parent: Record<string, Tree> | Tree[];
  key: Key;
}

/** Every place in the documents (the documents list itself included), found without recursion. */
function places(documents: Tree[]): Place[] {
  const out: Place[] = [];
  const stack: Tree[] = [documents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const key of Array.isArray(node) ? node.keys() : Object.keys(node)) {
      out.push({ parent: node as Place['parent'], key });
      stack.push((node as Record<Key, Tree>)[key]);
    }
  }
  return out;
}

function mutate(documents: Tree[], m: Mutation): void {
  if (m.kind === 'graft') return void documents.push(copy(grafts[m.at % grafts.length]));
  if (m.kind === 'dropDocument') return void (documents.length > 1 && documents.splice(m.at % documents.length, 1));
  const all = places(documents).filter((p) => p.parent !== documents || m.kind === 'duplicate');
  const fits = all.filter((p) => fitsKind(m, p));
  const place = fits[m.at % Math.max(fits.length, 1)];
  if (!place) return;
  const value = (place.parent as Record<Key, Tree>)[place.key];
  if (m.kind === 'delete') return remove(place);
  if (m.kind === 'duplicate') return void (place.parent as Tree[]).splice(Number(place.key), 0, copy(value));
  if (m.kind === 'rename') {
    remove(place);
    return void ((place.parent as Record<string, Tree>)[m.name] = value);
  }
  set(place, replacement(m, value));
}

function fitsKind(m: Mutation, p: Place): boolean {
  const value = (p.parent as Record<Key, Tree>)[p.key];
  if (m.kind === 'duplicate') return Array.isArray(p.parent);
  if (m.kind === 'rename') return !Array.isArray(p.parent);
  if (m.kind === 'name') return typeof value === 'string';
  if (m.kind === 'cidr') return typeof value === 'string' && /[/:.]/.test(value);
  if (m.kind === 'number') return typeof value === 'number';
  return true;
}

function replacement(m: Mutation, value: Tree): Tree {
  if (m.kind === 'retype') return copy(m.value);
  if (m.kind === 'name') return m.name;
  if (m.kind === 'cidr') return m.cidr;
  if (m.kind === 'number') return m.value;
  if (m.kind === 'nest') {
    let nested = value;
    for (let i = 0; i < m.depth; i++) nested = m.list ? [nested] : dict([['x', nested]]);
    return nested;
  }
  return value;
}

function remove(p: Place): void {
  if (Array.isArray(p.parent)) p.parent.splice(Number(p.key), 1);
  else delete p.parent[p.key];
}

function set(p: Place, value: Tree): void {
  (p.parent as Record<Key, Tree>)[p.key] = value;
}
