/**
 * The `x-kubernetes-*` extensions that constrain values beyond JSON schema, checked on one schema
 * node: list-type `set` (no two equal items) and `map` (no two items with the same map keys), and
 * int-or-string. Problems are structural (InvalidField), worded as the API server words them.
 */
import { show } from '../fields';
import { type Problem, problem } from '../problem';
import { formatPath, type Segment } from './paths';
import type { StructuralSchema } from './types';

export function extensionProblems(schema: StructuralSchema, value: unknown, at: Segment[], ref: string): Problem[] {
  const out: Problem[] = [];
  if (schema['x-kubernetes-int-or-string'] && !(typeof value === 'string' || Number.isInteger(value)))
    out.push(
      problem(
        'InvalidField',
        ref,
        formatPath(at),
        `${formatPath(at)} is ${show(value)}: must be an integer or a string`,
      ),
    );
  const type = schema['x-kubernetes-list-type'];
  if (Array.isArray(value) && (type === 'set' || type === 'map')) {
    const keys = type === 'map' ? (schema['x-kubernetes-list-map-keys'] ?? []) : undefined;
    for (const index of duplicates(value, keys)) {
      const field = formatPath([...at, index]);
      const by = keys ? ` (items must differ in ${keys.join(', ')})` : '';
      out.push(problem('InvalidField', ref, field, `${field}: Duplicate value: ${show(value[index])}${by}`));
    }
  }
  return out;
}

/** Positions of items equal to an earlier one (by the map keys when given). */
function duplicates(items: unknown[], keys: string[] | undefined): number[] {
  const seen = new Set<string>();
  return items.flatMap((item, index) => {
    const identity = JSON.stringify(keys ? keys.map((k) => (item as Record<string, unknown>)?.[k]) : canonical(item));
    const repeated = seen.has(identity);
    seen.add(identity);
    return repeated ? [index] : [];
  });
}

/** A value with object keys sorted, so equal items compare equal as JSON. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}
