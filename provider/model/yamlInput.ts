/**
 * YAML (or JSON) text -> plain values, within limits, before anything recursive touches it.
 * yaml's composer and toJS, and our own readers, recurse once per nesting level: 1,000 nested
 * brackets in a 2 KB file exhausted node's stack (and inside V8's regexp compiler that kills the
 * process). So the token tree (which yaml's Parser builds without recursion) is measured first, a
 * document whose collections nest deeper than `maxDepth` (counting what its aliases stand for) or
 * whose alias refers to a collection containing it is refused, and aliases may expand at most
 * `maxAliasCount` times (yaml's guard against alias bombs, thrown from toJS, caught here). Before
 * that, yaml's Lexer (a generator, no tree) counts flow brackets and stops at the first one past
 * `maxDepth`: a million nested `[` is refused in milliseconds, not after building its tree.
 * Problems name the field path of the collection (`document[0]: spec.network.layer3`).
 * Every object of the result has no prototype (dict.ts), so user-given keys are only keys.
 */
import { CST, type Document, isAlias, isCollection, isPair, Lexer, LineCounter, parseAllDocuments, Parser } from 'yaml';
import { plainData } from './dict';
import { failure, type Outcome, success } from './outcome';
import { fieldPath, type Problem, problem } from './problem';

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
  const flow = flowTooDeep(text);
  if (flow) return { values: [], problems: [flow] };
  const tooDeep = deepDocuments(text, lines);
  if (tooDeep.length > 0) return { values: [], problems: tooDeep };
  const values: ParsedValue[] = [];
  const problems: Problem[] = [];
  for (const [i, doc] of parseAllDocuments(text).entries()) {
    const where = `document[${i}]`;
    const refused = 'errors' in doc && doc.errors.length > 0 ? syntaxError(doc) : aliasProblem(doc, lines);
    if (refused !== undefined) {
      problems.push(invalid(where, refused));
      continue;
    }
    const converted = toPlain(doc);
    if (!converted.ok) problems.push(invalid(where, converted.why));
    else if (converted.value !== null && converted.value !== undefined) values.push({ value: converted.value, where });
  }
  return { values, problems };
}

function invalid(where: string, why: string, field = ''): Problem {
  return problem('InvalidDocument', where, field, `${fieldPath(where, field)} ${why}`);
}

function syntaxError(doc: Document): string {
  return `is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`;
}

function toPlain(doc: Document): Outcome<unknown> {
  try {
    return success(plainData(doc.toJS({ maxAliasCount })));
  } catch (error) {
    return failure(`cannot be read: ${(error as Error).message}`);
  }
}

/** Documents whose token tree nests deeper than maxDepth, measured without recursion. */
function deepDocuments(text: string, lines: LineCounter): Problem[] {
  const problems: Problem[] = [];
  let index = 0;
  for (const token of new Parser(lines.addNewLine).parse(text)) {
    if (token.type !== 'document') continue;
    const deep = deepest(token);
    if (deep !== undefined) {
      const where = `document[${index}]`;
      problems.push(invalid(where, `${tooDeepText} ${at(lines, deep.offset)}`, deep.path));
    }
    index += 1;
  }
  return problems;
}

export const tooDeepText = `nests collections more than ${maxDepth} levels deep`;

/** A field path's next part: `.key` of a mapping (`[key]` when not a plain name), `[i]` of a sequence. */
function step(path: string, token: CST.Token, item: CST.CollectionItem, index: number): string {
  const key = item.key && CST.isScalar(item.key) ? item.key.source : undefined;
  const isSeq = token.type === 'block-seq' || (token.type === 'flow-collection' && token.start.source === '[');
  if (isSeq || key === undefined) return `${path}[${index}]`;
  return /^[A-Za-z_][\w-]*$/.test(key) ? `${path}${path ? '.' : ''}${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** The first collection below maxDepth: where it starts and its field path; undefined when there is none. */
function deepest(root: CST.Document): { offset: number; path: string } | undefined {
  const stack: [CST.Token, number, string][] = root.value ? [[root.value, 0, '']] : [];
  while (stack.length > 0) {
    const [token, above, path] = stack.pop()!;
    if (!CST.isCollection(token)) continue;
    if (above >= maxDepth) return { offset: token.offset, path };
    (token.items as CST.CollectionItem[]).forEach((item, i) => {
      const next = step(path, token, item, i);
      for (const child of [item.key, item.value]) if (child) stack.push([child, above + 1, next]);
    });
  }
  return undefined;
}

/** yaml's Lexer marks (document start, scalar start, flow error end): in the tokens, not in the text. */
const LEXER_MARKS = new Set(['\x02', '\x1f', '\x18']);

/**
 * The first flow collection (`[` or `{`) nested deeper than maxDepth, found token by token without
 * building anything, with its document and line; undefined when there is none.
 */
function flowTooDeep(text: string): Problem | undefined {
  let depth = 0;
  let offset = 0;
  let document = 0;
  let content = false;
  for (const token of new Lexer().lex(text)) {
    if (token === '---' || token === '...') {
      if (content) document += 1;
      content = false;
    } else if (!LEXER_MARKS.has(token) && token.trim() !== '' && !token.startsWith('#')) content = true;
    if (token === '[' || token === '{') depth += 1;
    else if (token === ']' || token === '}') depth = Math.max(0, depth - 1);
    if (depth > maxDepth)
      return invalid(`document[${document}]`, `${tooDeepText} ${at(linesUpTo(text, offset), offset)}`);
    if (!LEXER_MARKS.has(token)) offset += token.length;
  }
  return undefined;
}

/** The line starts of `text` up to `offset`, for `at`. */
function linesUpTo(text: string, offset: number): LineCounter {
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
  return lines;
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
