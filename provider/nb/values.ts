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

/**
 * Whether two plain values are the same column value (equal canonical forms). Compared directly,
 * without building the canonical forms: every column of every row is compared on each apply.
 */
export function sameValue(a: unknown, b: unknown, type: ColumnType): boolean {
  switch (columnShape(type)) {
    case 'map':
      return sameMap((a ?? {}) as Record<string, unknown>, (b ?? {}) as Record<string, unknown>);
    case 'set':
      return sameSet(asList(a), asList(b));
    default:
      return sameAtom(firstOf(a), firstOf(b));
  }
}

/** An optional or scalar column's atom (the compact form or a one-element list). */
function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value === null ? undefined : value;
}

function sameAtom(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return atomKey(a) === atomKey(b);
}

/** JSON leaves out keys whose value is undefined, so the canonical form does too. */
function sameMap(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let count = 0;
  for (const key in a) {
    if (a[key] === undefined) continue;
    if (!sameAtom(a[key], b[key])) return false;
    count++;
  }
  for (const key in b) if (b[key] !== undefined) count--;
  return count === 0;
}

function sameSet(a: unknown[], b: unknown[]): boolean {
  if (a.length === 1 && b.length === 1) return sameAtom(a[0], b[0]);
  const left = new Set(a.map(setKey));
  const right = new Set(b.map(setKey));
  if (left.size !== right.size) return false;
  for (const key of left) if (!right.has(key)) return false;
  return true;
}

/** A set member's key: strings (the common case) as themselves, tagged apart from other atoms. */
function setKey(atom: unknown): string {
  return typeof atom === 'string' ? `s${atom}` : `j${atomKey(atom)}`;
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
