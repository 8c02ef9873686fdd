/**
 * Column values in one canonical form, so comparing desired with observed does not flap between
 * equivalent spellings: sets sorted and deduplicated (the server's compact one-element set read as
 * a set), map keys sorted, an optional column as its atom or undefined. Also each column's default
 * (what the server holds when the column is absent) and the wording of values in summaries.
 */
import { columnShape, normalizeColumnType, type BaseType, type ColumnType } from '../ovsdb/schema';

type Atom = string | number | boolean | { uuid: string } | { namedUuid: string };

function atomKey(atom: unknown): string {
  return JSON.stringify(atom);
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function sortedSet(value: unknown): unknown[] {
  const byKey = new Map<string, unknown>();
  for (const atom of asList(value)) byKey.set(atomKey(atom), atom);
  return [...byKey.keys()].sort().map((key) => byKey.get(key));
}

function sortedMap(value: unknown): Record<string, unknown> {
  const map = (value ?? {}) as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(map).sort()) sorted[key] = map[key];
  return sorted;
}

/** The canonical form of a plain value for a column of `type`. */
export function canonical(value: unknown, type: ColumnType): unknown {
  switch (columnShape(type)) {
    case 'map':
      return sortedMap(value);
    case 'set':
      return sortedSet(value);
    default: {
      const list = asList(value);
      return list.length === 0 ? undefined : list[0];
    }
  }
}

export function sameValue(a: unknown, b: unknown, type: ColumnType): boolean {
  return JSON.stringify(canonical(a, type)) === JSON.stringify(canonical(b, type));
}

/** What the server holds in a column nobody wrote (RFC 7047 section 5.2.1: the type's default). */
export function defaultValue(type: ColumnType): unknown {
  const shape = columnShape(type);
  if (shape === 'map') return {};
  if (shape === 'set') return [];
  if (shape === 'optional') return undefined;
  switch (normalizeColumnType(type).key.type) {
    case 'integer':
    case 'real':
      return 0;
    case 'boolean':
      return false;
    case 'uuid':
      return { uuid: '00000000-0000-0000-0000-000000000000' };
    default:
      return '';
  }
}

export function isDefault(value: unknown, type: ColumnType): boolean {
  return sameValue(value, defaultValue(type), type);
}

/** A value in words for summaries: `"a"`, `[1, 2]`, `{k=v}`, `(none)`; (named) uuids through `label`. */
export function describeValue(value: unknown, label: (uuid: string) => string = (u) => u): string {
  if (value === undefined) return '(none)';
  if (Array.isArray(value)) return `[${value.map((v) => describeValue(v, label)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const atom = value as Atom & object;
    if ('uuid' in atom) return label(atom.uuid);
    if ('namedUuid' in atom) return label(atom.namedUuid);
    const entries = Object.entries(value).map(([k, v]) => `${k}=${describeValue(v, label)}`);
    return `{${entries.join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** The enum values of a base type: schema JSON writes a single value bare, several as ["set", [...]]. */
export function enumValues(base: BaseType): (string | number | boolean)[] | undefined {
  if (typeof base === 'string' || base.enum === undefined) return undefined;
  const raw = base.enum as unknown;
  if (Array.isArray(raw) && raw[0] === 'set') return [...(raw[1] as (string | number | boolean)[])];
  return [raw as string | number | boolean];
}
