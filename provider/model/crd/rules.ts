/**
 * The rules of a schema ajv does not know, over an object: the `x-kubernetes-*` value
 * extensions (extensions.ts) and the CEL rules (`x-kubernetes-validations`), as the API server
 * evaluates them: each rule at its node with `self` typed by the schema (integers as CEL ints),
 * transition rules (those reading `oldSelf`) only when an old object is given and its node
 * correlates (object fields, map entries, and list-type=map items by their keys), the rule's
 * `message` (or `messageExpression`), `fieldPath` and `reason`. Rules of a node holding a wrong
 * type or missing a required field (errors.ts `blocks`) are skipped: they would only repeat it.
 */
import { own } from '../dict';
import { show } from '../fields';
import { type Problem, problem } from '../problem';
import { evaluateCel, isTransitionRule } from './cel';
import { extensionProblems } from './extensions';
import { formatPath, type Segment } from './paths';
import type { CelRule, StructuralSchema } from './types';

interface Walk {
  ref: string;
  /** JSON pointers of nodes with a wrong type or a missing required field. */
  broken: readonly string[];
  problems: Problem[];
  /** The text of each CEL rule that failed, in walk order. */
  failed: string[];
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Problems of the `x-kubernetes-*` extensions and CEL rules of `schema` over `value`. */
export function ruleProblems(
  schema: StructuralSchema,
  value: unknown,
  old: unknown,
  ref: string,
  broken: readonly string[],
): Problem[] {
  return walkRules(schema, value, old, ref, broken).problems;
}

/** The text of every CEL rule of `schema` that `value` breaks (transition rules against `old`). */
export function failedRules(schema: StructuralSchema, value: unknown, old: unknown): string[] {
  return walkRules(schema, value, old, '', []).failed;
}

function walkRules(schema: StructuralSchema, value: unknown, old: unknown, ref: string, broken: readonly string[]) {
  const walk: Walk = { ref, broken, problems: [], failed: [] };
  visit(walk, schema, value, old, [], '');
  return walk;
}

function visit(w: Walk, schema: StructuralSchema, value: unknown, old: unknown, at: Segment[], pointer: string): void {
  if (value === undefined || value === null) return;
  w.problems.push(...extensionProblems(schema, value, at, w.ref));
  const intact = !w.broken.some((b) => b === pointer || b.startsWith(`${pointer}/`));
  if (intact) for (const rule of schema['x-kubernetes-validations'] ?? []) checkRule(w, rule, schema, value, old, at);
  if (isNode(value)) visitFields(w, schema, value, isNode(old) ? old : undefined, at, pointer);
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) =>
      visit(w, schema.items!, item, correlate(schema, item, old), [...at, i], `${pointer}/${i}`),
    );
  }
}

function visitFields(
  w: Walk,
  schema: StructuralSchema,
  value: Node,
  old: Node | undefined,
  at: Segment[],
  ptr: string,
) {
  for (const [key, item] of Object.entries(value)) {
    const sub =
      own(schema.properties, key) ??
      (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (sub) visit(w, sub, item, own(old, key), [...at, key], `${ptr}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  }
}

/** The old list item a new one corresponds to: only list-type=map items correlate, by their keys. */
function correlate(schema: StructuralSchema, item: unknown, old: unknown): unknown {
  const keys = schema['x-kubernetes-list-map-keys'];
  if (schema['x-kubernetes-list-type'] !== 'map' || !keys || !Array.isArray(old) || !isNode(item)) return undefined;
  return old.find((o) => isNode(o) && keys.every((k) => o[k] === item[k]));
}

function checkRule(w: Walk, rule: CelRule, schema: StructuralSchema, value: unknown, old: unknown, at: Segment[]) {
  const transition = isTransitionRule(rule.rule);
  if (transition && old === undefined) return;
  const variables = { self: toCel(value, schema), ...(transition ? { oldSelf: toCel(old, schema) } : {}) };
  const result = evaluateCel(rule.rule, variables);
  if (result.ok && result.value === true) return;
  const segments = [...at, ...fieldPathSegments(rule.fieldPath)];
  const field = formatPath(segments) || '<root>';
  const why = !result.ok
    ? `rule "${rule.rule}" could not be evaluated: ${result.why}`
    : (messageOf(rule, variables) ?? `failed rule: ${rule.rule}`);
  // The API server shows a scalar before the message and no object or list; we add those after it.
  const message =
    typeof value === 'object'
      ? `${field}: ${reasonText(rule)}: ${why} (value ${show(value)})`
      : `${field}: ${reasonText(rule)}: ${show(value)}: ${why}`;
  w.problems.push(problem('InvalidSpec', w.ref, formatPath(segments), message));
  w.failed.push(rule.rule);
}

/** The API server's words for the rule's reason: FieldValueInvalid (the default), Forbidden, ... */
function reasonText(rule: CelRule): string {
  switch (rule.reason) {
    case 'FieldValueForbidden':
      return 'Forbidden';
    case 'FieldValueRequired':
      return 'Required value';
    case 'FieldValueDuplicate':
      return 'Duplicate value';
    default:
      return 'Invalid value';
  }
}

function messageOf(rule: CelRule, variables: { self: unknown; oldSelf?: unknown }): string | undefined {
  if (rule.messageExpression) {
    const result = evaluateCel(rule.messageExpression, variables);
    if (result.ok && typeof result.value === 'string' && result.value.trim() !== '') return result.value;
  }
  return rule.message;
}

/** `.reservedSubnets`, `.a['b-c']`, `.list[0]` -> segments. */
export function fieldPathSegments(fieldPath: string | undefined): Segment[] {
  if (!fieldPath) return [];
  return [...fieldPath.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[['"]([^'"]*)['"]\]|\[(\d+)\]/g)].map((m) =>
    m[3] !== undefined ? Number(m[3]) : (m[1] ?? m[2])!,
  );
}

/**
 * A value as CEL sees it under its schema: unknown fields pruned (as the API server prunes them
 * before CEL), integers as CEL ints (bigint), the rest as JSON gives it.
 */
export function toCel(value: unknown, schema: StructuralSchema | undefined): unknown {
  if (schema === undefined) return value;
  if (typeof value === 'number' && Number.isInteger(value) && (schema.type === 'integer' || !schema.type))
    return BigInt(value);
  if (Array.isArray(value)) return value.map((item) => toCel(item, schema.items));
  if (!isNode(value)) return value;
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const keep = extra !== undefined || schema['x-kubernetes-preserve-unknown-fields'] === true || !schema.properties;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => keep || own(schema.properties, k) !== undefined)
      .map(([k, v]) => [k, toCel(v, own(schema.properties, k) ?? extra)]),
  );
}
