/**
 * Typed field readers for parsed YAML: each reads one field, checks its type, and on a wrong
 * type records an InvalidField problem naming the object, the field path and the value, then
 * returns undefined so parsing can go on and report every problem at once.
 */
import { dict } from './dict';
import { type Problem, problem } from './problem';
import type { LabelSelector, SelectorRequirement } from './selector';
import { selectorOperators } from './selector';

export type Json = unknown;

/** Where a reader records what it finds wrong: one object at a time. */
export class FieldReader {
  constructor(
    readonly object: string,
    readonly problems: Problem[],
  ) {}

  wrong(field: string, value: unknown, expected: string): undefined {
    this.problems.push(
      problem('InvalidField', this.object, field, `${field || 'the document'} is ${show(value)}: expected ${expected}`),
    );
    return undefined;
  }

  missing(field: string): undefined {
    this.problems.push(problem('InvalidField', this.object, field, `${field} is required`));
    return undefined;
  }

  record(value: Json, field: string): Record<string, Json> | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) return this.wrong(field, value, 'a mapping');
    return value as Record<string, Json>;
  }

  list(value: Json, field: string): Json[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) return this.wrong(field, value, 'a list');
    return value;
  }

  string(value: Json, field: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') return this.wrong(field, value, 'a string');
    return value;
  }

  integer(value: Json, field: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) return this.wrong(field, value, 'an integer');
    return value;
  }

  oneOf<T extends string>(value: Json, field: string, allowed: readonly T[]): T | undefined {
    const text = this.string(value, field);
    if (text === undefined) return undefined;
    if (!allowed.includes(text as T)) return this.wrong(field, text, `one of ${allowed.join(', ')}`);
    return text as T;
  }

  strings(value: Json, field: string): string[] | undefined {
    const items = this.list(value, field);
    if (!items) return undefined;
    const out: string[] = [];
    items.forEach((item, i) => {
      const text = this.string(item, `${field}[${i}]`);
      if (text !== undefined) out.push(text);
    });
    return out;
  }

  labels(value: Json, field: string): Record<string, string> {
    const map = this.record(value, field) ?? {};
    const out = dict<string>();
    for (const [key, item] of Object.entries(map)) {
      const text =
        typeof item === 'number' || typeof item === 'boolean' ? String(item) : this.string(item, `${field}.${key}`);
      if (text !== undefined) out[key] = text;
    }
    return out;
  }

  selector(value: Json, field: string): LabelSelector | undefined {
    const map = this.record(value, field);
    if (!map) return undefined;
    const expressions = (this.list(map.matchExpressions, `${field}.matchExpressions`) ?? []).flatMap((item, i) => {
      const requirement = this.requirement(item, `${field}.matchExpressions[${i}]`);
      return requirement ? [requirement] : [];
    });
    return { matchLabels: this.labels(map.matchLabels, `${field}.matchLabels`), matchExpressions: expressions };
  }

  private requirement(value: Json, field: string): SelectorRequirement | undefined {
    const map = this.record(value, field);
    if (!map) return undefined;
    const key = this.string(map.key, `${field}.key`) ?? this.missing(`${field}.key`);
    const operator = this.oneOf(map.operator, `${field}.operator`, selectorOperators);
    const values = this.strings(map.values, `${field}.values`);
    if (key === undefined || operator === undefined) return undefined;
    return { key, operator, values };
  }
}

/** A value as a message shows it: strings quoted, everything else as compact JSON. */
export function show(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
