/**
 * RFC 7047 section 3.2 schema shapes (what `get_schema` returns and what generated code embeds),
 * plus small helpers that read a column type. Types and pure functions only; no OVN knowledge.
 */
import type { WireValue } from './notation';

export type AtomicType = 'integer' | 'real' | 'boolean' | 'string' | 'uuid';

/** `<base-type>`: an atomic type name, or the object form with constraints. */
export type BaseType =
  | AtomicType
  | {
      type: AtomicType;
      /** Allowed values in OVSDB notation: a bare atom or `["set", [...]]`. */
      enum?: WireValue;
      minInteger?: number;
      maxInteger?: number;
      minReal?: number;
      maxReal?: number;
      minLength?: number;
      maxLength?: number;
      refTable?: string;
      refType?: 'strong' | 'weak';
    };

/** `<type>`: an atomic type name, or key (and value for maps) with cardinality bounds. */
export type ColumnType =
  | AtomicType
  | {
      key: BaseType;
      value?: BaseType;
      /** 0 or 1; defaults to 1. */
      min?: number;
      /** A positive integer or "unlimited"; defaults to 1. */
      max?: number | 'unlimited';
    };

export interface ColumnSchema {
  type: ColumnType;
  ephemeral?: boolean;
  mutable?: boolean;
}

export interface TableSchema {
  columns: Record<string, ColumnSchema>;
  maxRows?: number;
  isRoot?: boolean;
  indexes?: string[][];
}

export interface DatabaseSchema {
  name: string;
  version: string;
  cksum?: string;
  tables: Record<string, TableSchema>;
}

/**
 * A table the caller knows is there (its rows were checked against this schema first, or the
 * table is one of the schema's own names): a missing one is a bug, said with both names.
 */
export function tableOf(schema: DatabaseSchema, table: string): TableSchema {
  const found = schema.tables[table];
  if (found === undefined) throw new Error(`schema ${schema.name} has no table ${table}`);
  return found;
}

/** The type of a column the caller knows `table` has (see tableOf). */
export function columnTypeOf(table: TableSchema, tableName: string, column: string): ColumnType {
  const found = table.columns[column];
  if (found === undefined) throw new Error(`table ${tableName} has no column ${column}`);
  return found.type;
}

/** The shape every column type can be written as: key, optional value, explicit bounds. */
export interface NormalizedColumnType {
  key: Exclude<BaseType, AtomicType>;
  value?: Exclude<BaseType, AtomicType>;
  min: number;
  max: number | 'unlimited';
}

function normalizeBase(base: BaseType): Exclude<BaseType, AtomicType> {
  return typeof base === 'string' ? { type: base } : base;
}

// Column types are read in every hot loop (decoding, comparing, checking rows), so each type
// object is normalized once; schemas are never changed after they are loaded.
const normalizedTypes = new WeakMap<object, NormalizedColumnType>();
const atomicTypes = new Map<AtomicType, NormalizedColumnType>();

export function normalizeColumnType(type: ColumnType): NormalizedColumnType {
  if (typeof type === 'string') {
    let atomic = atomicTypes.get(type);
    if (atomic === undefined) atomicTypes.set(type, (atomic = { key: { type }, min: 1, max: 1 }));
    return atomic;
  }
  let normalized = normalizedTypes.get(type);
  if (normalized === undefined) {
    normalized = { key: normalizeBase(type.key), min: type.min ?? 1, max: type.max ?? 1 };
    if (type.value !== undefined) normalized.value = normalizeBase(type.value);
    normalizedTypes.set(type, normalized);
  }
  return normalized;
}

/** How a column's plain value looks (see codec.ts): a map, a list, an optional atom, or an atom. */
export type ColumnShape = 'map' | 'set' | 'optional' | 'scalar';

const shapes = new WeakMap<NormalizedColumnType, ColumnShape>();

export function columnShape(type: ColumnType): ColumnShape {
  const t = normalizeColumnType(type);
  let shape = shapes.get(t);
  if (shape === undefined) shapes.set(t, (shape = shapeOf(t)));
  return shape;
}

function shapeOf(t: NormalizedColumnType): ColumnShape {
  if (t.value !== undefined) return 'map';
  if (t.max === 'unlimited' || t.max > 1) return 'set';
  return t.min === 0 ? 'optional' : 'scalar';
}

/** Schemas seen, by what identifies one (name, version, cksum); a few at most (a run's servers serve one or two). */
const interned = new Map<string, DatabaseSchema[]>();
const INTERNED_MAX = 16;
let internedCount = 0;

/** Same JSON value, compared in place (no text built): a schema is plain JSON, objects and arrays. */
function sameTree(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return keys.every((key) => Object.hasOwn(y, key) && sameTree(x[key], y[key]));
}

/**
 * One object per schema: every connection to servers of the same schema gets the same object, so
 * what is derived from a schema (checked rows, decoders) is derived once per run, not once per
 * zone. Looked up by name, version and cksum, then confirmed by content: a schema edited without
 * updating its cksum (ovsdb-server serves it as it is) is another schema. Comparing in place costs about a
 * sixth of writing the schema's text. Schemas are never changed after they are loaded.
 */
export function internSchema(schema: DatabaseSchema): DatabaseSchema {
  const key = JSON.stringify([schema.name, schema.version, schema.cksum ?? null]);
  const known = interned.get(key) ?? [];
  const same = known.find((k) => sameTree(k, schema));
  if (same !== undefined) return same;
  if (internedCount >= INTERNED_MAX) {
    interned.clear();
    internedCount = 0;
  }
  interned.set(key, [...(interned.get(key) ?? []), schema]);
  internedCount++;
  return schema;
}
