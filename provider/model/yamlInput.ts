/**
 * YAML (or JSON) text -> plain values, within limits, before anything recursive touches it.
 * yaml's composer and toJS, and our own readers, recurse once per nesting level: 1,000 nested
 * brackets in a 2 KB file exhausted node's stack (and inside V8's regexp compiler that kills the
 * process). So the token tree (which yaml's Parser builds without recursion) is measured first, a
 * document whose collections nest deeper than `maxDepth` (counting what its aliases stand for) or
 * whose alias refers to a collection containing it is refused, and aliases may expand at most
 * `maxAliasCount` times (yaml's guard against alias bombs, thrown from toJS, caught here).
 * Every object of the result has no prototype (dict.ts), so user-given keys are only keys.
 */
import { CST, type Document, isAlias, isCollection, isPair, LineCounter, parseAllDocuments, Parser } from 'yaml';
import { plainData } from './dict';
import { type Problem, problem } from './problem';

/** Kubernetes objects nest about ten levels; far below what exhausts a stack. */
export const maxDepth = 64;
export const maxAliasCount = 100;

export interface ParsedValue {
  value: unknown;
  /** `document[i]`, the object part of this document's problems until it has a kind and name. */
  where: string;
}

export function parseYaml(text: string): { values: ParsedValue[]; problems: Problem[] } {
  const lines = new LineCounter();
  const tooDeep = deepDocuments(text, lines);
  if (tooDeep.length > 0) return { values: [], problems: tooDeep };
  const values: ParsedValue[] = [];
  const problems: Problem[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    const where = `document[${i}]`;
    const refused = 'errors' in doc && doc.errors.length > 0 ? syntaxError(doc) : aliasProblem(doc, lines);
    if (refused !== undefined) return problems.push(invalid(where, refused));
    const converted = toPlain(doc);
    if (typeof converted === 'string') return problems.push(invalid(where, converted));
    if (converted.value !== null && converted.value !== undefined) values.push({ value: converted.value, where });
  });
  return { values, problems };
}

function invalid(where: string, why: string): Problem {
  return problem('InvalidDocument', where, '', `${where} ${why}`);
}

function syntaxError(doc: Document): string {
  return `is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`;
}

function toPlain(doc: Document): { value: unknown } | string {
  try {
    return { value: plainData(doc.toJS({ maxAliasCount })) };
  } catch (error) {
    return `cannot be read: ${(error as Error).message}`;
  }
}

/** Documents whose token tree nests deeper than maxDepth, measured without recursion. */
function deepDocuments(text: string, lines: LineCounter): Problem[] {
  const problems: Problem[] = [];
  let index = 0;
  for (const token of new Parser(lines.addNewLine).parse(text)) {
    if (token.type !== 'document') continue;
    const offset = deepestOffset(token);
    if (offset !== undefined) problems.push(invalid(`document[${index}]`, `${tooDeepText} ${at(lines, offset)}`));
    index += 1;
  }
  return problems;
}

const tooDeepText = `nests collections more than ${maxDepth} levels deep`;

/** Where the first collection below maxDepth starts, or undefined when there is none. */
function deepestOffset(root: CST.Document): number | undefined {
  const stack: [CST.Token, number][] = root.value ? [[root.value, 0]] : [];
  while (stack.length > 0) {
    const [token, above] = stack.pop()!;
    if (!CST.isCollection(token)) continue;
    if (above >= maxDepth) return token.offset;
    for (const item of token.items as CST.CollectionItem[])
      for (const child of [item.key, item.value]) if (child) stack.push([child, above + 1]);
  }
  return undefined;
}

function at(lines: LineCounter, offset: number): string {
  const { line, col } = lines.linePos(offset);
  return `at line ${line}, column ${col}`;
}

/**
 * Aliases stand for their anchor's collection: the depth they add counts, and one inside the
 * collection it names is a cycle (toJS would build a circular value). The tree is already known
 * to be shallow, so this recursion is bounded.
 */
function aliasProblem(doc: Document, lines: LineCounter): string | undefined {
  const anchors = new Map<string, number | 'open'>();
  let problem: string | undefined;
  const depth = (node: unknown): number => {
    if (problem !== undefined) return 0;
    if (isAlias(node)) {
      const found = anchors.get(node.source);
      if (found === 'open') problem = `has alias *${node.source} inside the collection it names ${where(node)}`;
      return typeof found === 'number' ? found : 0;
    }
    if (isPair(node)) return Math.max(depth(node.key), depth(node.value));
    if (!isCollection(node)) return 0;
    if (node.anchor) anchors.set(node.anchor, 'open');
    const deepest = 1 + Math.max(0, ...node.items.map(depth));
    if (node.anchor) anchors.set(node.anchor, deepest);
    if (deepest > maxDepth && problem === undefined) problem = `${tooDeepText} through its aliases ${where(node)}`;
    return deepest;
  };
  const where = (node: { range?: [number, number, number] | null }): string =>
    node.range ? at(lines, node.range[0]) : '';
  depth(doc.contents);
  return problem;
}
