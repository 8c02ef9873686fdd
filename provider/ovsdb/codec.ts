/**
 * OVSDB notation (RFC 7047 section 5.1) <-> plain values. Plain conventions other layers rely on:
 * atoms are JS numbers, booleans and strings; a uuid is `{ uuid }`, a named uuid `{ namedUuid }`;
 * a map column is a plain object keyed by the key's text; a set column (max > 1) is an array; an
 * optional column (min 0, max 1) is its atom or `undefined`. Decoding needs the column type because
 * the server writes a one-element set as the bare atom.
 */
import { OvsdbValueError } from './errors';
import type { WireAtom, WireRow, WireValue } from './notation';
import {
  columnShape,
  type ColumnShape,
  normalizeColumnType,
  type AtomicType,
  type BaseType,
  type ColumnType,
  type TableSchema,
} from './schema';

export type PlainUuid = { uuid: string };
export type PlainNamedUuid = { namedUuid: string };
export type PlainAtom = number | boolean | string | PlainUuid | PlainNamedUuid;
export type PlainMap = Record<string, PlainAtom>;
export type PlainValue = PlainAtom | PlainAtom[] | PlainMap | undefined;
export type PlainRow = Record<string, PlainValue>;

export function isUuid(value: unknown): value is PlainUuid {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PlainUuid).uuid === 'string' &&
    Object.keys(value).length === 1
  );
}

export function isNamedUuid(value: unknown): value is PlainNamedUuid {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PlainNamedUuid).namedUuid === 'string' &&
    Object.keys(value).length === 1
  );
}

function atomicTypeOf(base: BaseType | undefined): AtomicType | undefined {
  return base === undefined ? undefined : typeof base === 'string' ? base : base.type;
}

function checkAtomType(atom: unknown, type: AtomicType | undefined, field: string): void {
  const ok =
    type === undefined ||
    (type === 'integer' && Number.isInteger(atom)) ||
    (type === 'real' && typeof atom === 'number' && Number.isFinite(atom)) ||
    (type === 'boolean' && typeof atom === 'boolean') ||
    (type === 'string' && typeof atom === 'string') ||
    (type === 'uuid' && (isUuid(atom) || isNamedUuid(atom)));
  if (!ok) throw new OvsdbValueError(field, atom, `is not ${type === 'integer' ? 'an' : 'a'} ${type}`);
}

/** One atom in wire form; `type` (when known) is checked. */
export function encodeAtom(atom: PlainAtom, type?: AtomicType, field = 'value'): WireAtom {
  checkAtomType(atom, type, field);
  if (isUuid(atom)) return ['uuid', atom.uuid];
  if (isNamedUuid(atom)) return ['named-uuid', atom.namedUuid];
  if (typeof atom === 'number' && !Number.isFinite(atom))
    throw new OvsdbValueError(field, atom, 'is not a finite number');
  if (typeof atom !== 'number' && typeof atom !== 'boolean' && typeof atom !== 'string') {
    throw new OvsdbValueError(field, atom, 'is not an atom (number, boolean, string, {uuid} or {namedUuid})');
  }
  return atom;
}

/** A set, always in the explicit `["set", [...]]` form (valid for any size). */
export function encodeSet(values: PlainAtom[], type?: AtomicType, field = 'value'): ['set', WireAtom[]] {
  return ['set', values.map((v, i) => encodeAtom(v, type, `${field}[${i}]`))];
}

/** Object keys are text; the key type turns them back into the atoms the column holds. */
function encodeKey(key: string, type: AtomicType | undefined, field: string): WireAtom {
  if (type === 'integer' || type === 'real') {
    const n = Number(key);
    if (key.trim() === '' || !Number.isFinite(n))
      throw new OvsdbValueError(field, key, `key is not ${type === 'integer' ? 'an' : 'a'} ${type}`);
    return encodeAtom(n, type, field);
  }
  if (type === 'boolean') {
    if (key !== 'true' && key !== 'false') throw new OvsdbValueError(field, key, 'key is not a boolean');
    return key === 'true';
  }
  return type === 'uuid' ? ['uuid', key] : key;
}

export function encodeMap(
  map: Record<string, PlainAtom>,
  type?: ColumnType,
  field = 'value',
): ['map', [WireAtom, WireAtom][]] {
  const t = type === undefined ? undefined : normalizeColumnType(type);
  const keyType = atomicTypeOf(t?.key);
  const valueType = atomicTypeOf(t?.value);
  return [
    'map',
    Object.entries(map).map(([k, v]) => [
      encodeKey(k, keyType, `${field}.${k}`),
      encodeAtom(v, valueType, `${field}.${k}`),
    ]),
  ];
}

function isPlainObject(value: unknown): value is Record<string, PlainAtom> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isUuid(value) && !isNamedUuid(value);
}

/** Any plain value; with the column type, the value's shape and atom types are checked too. */
export function encodeValue(value: PlainValue, type?: ColumnType, field = 'value'): WireValue {
  const shape = type === undefined ? undefined : columnShape(type);
  const keyType = type === undefined ? undefined : atomicTypeOf(normalizeColumnType(type).key);
  if (value === undefined || value === null) {
    if (shape === 'scalar') throw new OvsdbValueError(field, value, 'is required (the column holds exactly one value)');
    return ['set', []];
  }
  if (Array.isArray(value)) {
    if (shape === 'map') throw new OvsdbValueError(field, value, 'is a list but the column is a map');
    if (shape === 'scalar' && value.length !== 1)
      throw new OvsdbValueError(field, value, 'must hold exactly one value');
    checkMax(value, type, field);
    return encodeSet(value, keyType, field);
  }
  if (isPlainObject(value)) {
    if (shape !== undefined && shape !== 'map')
      throw new OvsdbValueError(field, value, 'is an object but the column is not a map');
    return encodeMap(value, type, field);
  }
  if (shape === 'map') throw new OvsdbValueError(field, value, 'is an atom but the column is a map');
  return encodeAtom(value, keyType, field);
}

function checkMax(values: unknown[], type: ColumnType | undefined, field: string): void {
  const max = type === undefined ? 'unlimited' : normalizeColumnType(type).max;
  if (max !== 'unlimited' && values.length > max)
    throw new OvsdbValueError(field, values, `holds ${values.length} values; the column allows at most ${max}`);
}

export function encodeRow(row: PlainRow, table?: TableSchema, tableName = 'row'): WireRow {
  const wire: WireRow = {};
  for (const [column, value] of Object.entries(row)) {
    const schema = table?.columns[column];
    if (table && !schema) throw new OvsdbValueError(`${tableName}.${column}`, value, 'is not a column of the table');
    wire[column] = encodeValue(value, schema?.type, `${tableName}.${column}`);
  }
  return wire;
}

function isTagged(wire: unknown, tag: string): wire is [string, unknown] {
  return Array.isArray(wire) && wire.length === 2 && wire[0] === tag;
}

export function decodeAtom(wire: WireAtom): PlainAtom {
  if (typeof wire !== 'object') return wire;
  if (isTagged(wire, 'uuid')) return { uuid: wire[1] as string };
  if (isTagged(wire, 'named-uuid')) return { namedUuid: wire[1] as string };
  return wire as PlainAtom;
}

function decodeKey(wire: WireAtom): string {
  const atom = decodeAtom(wire);
  if (isUuid(atom)) return atom.uuid;
  if (isNamedUuid(atom)) return atom.namedUuid;
  return String(atom);
}

function decodeElements(wire: WireValue): PlainAtom[] {
  return isTagged(wire, 'set') ? (wire[1] as WireAtom[]).map(decodeAtom) : [decodeAtom(wire as WireAtom)];
}

/** Wire -> plain for a column of the given type (the compact one-element set form included). */
export function decodeValue(wire: WireValue, type: ColumnType): PlainValue {
  return DECODERS[columnShape(type)](wire);
}

function decodeOptional(wire: WireValue): PlainValue {
  if (!isTagged(wire, 'set')) return decodeAtom(wire as WireAtom);
  const elements = wire[1] as WireAtom[];
  return elements.length === 0 ? undefined : decodeAtom(elements[0]!);
}

const DECODERS: Record<ColumnShape, (wire: WireValue) => PlainValue> = {
  map: decodeMap,
  set: decodeElements,
  optional: decodeOptional,
  scalar: decodeOptional,
};

function decodeMap(wire: WireValue): PlainMap {
  if (!isTagged(wire, 'map')) throw new OvsdbValueError('value', wire, 'is not an OVSDB map');
  const map: PlainMap = {};
  for (const [k, v] of wire[1] as [WireAtom, WireAtom][]) map[decodeKey(k)] = decodeAtom(v);
  return map;
}

/** Wire -> plain without a type: sets become arrays, maps objects, bare atoms stay atoms. */
export function decodeUntyped(wire: WireValue): PlainValue {
  if (isTagged(wire, 'map')) return decodeMap(wire);
  if (isTagged(wire, 'set')) return decodeElements(wire);
  return decodeAtom(wire as WireAtom);
}

const UUID_COLUMN: ColumnType = 'uuid';

/** A row as selected or monitored; `_uuid` and `_version` decode to `{ uuid }`. */
export function decodeRow(wire: WireRow, table?: TableSchema): PlainRow {
  const row: PlainRow = {};
  decodeColumns(wire, row, table && decodersOf(table));
  return row;
}

/**
 * Rows of a reply decoded in place: each wire row object becomes its plain row (a reply's rows
 * are parsed for this alone; a zone's reply holds thousands, and a copy of each was garbage).
 */
export function decodeRowsInPlace(rows: WireRow[], table?: TableSchema): PlainRow[] {
  const decoders = table && decodersOf(table);
  for (const row of rows) decodeColumns(row, row as PlainRow, decoders);
  return rows as unknown as PlainRow[];
}

function decodeColumns(wire: WireRow, into: PlainRow, decoders: Map<string, Decoder> | undefined): void {
  for (const column in wire) into[column] = (decoders?.get(column) ?? untypedDecoder(column))(wire[column]!);
}

type Decoder = (wire: WireValue) => PlainValue;

/** Each table's column decoders, made once per table schema (rows are decoded by the thousand). */
const tableDecoders = new WeakMap<TableSchema, Map<string, Decoder>>();

function decodersOf(table: TableSchema): Map<string, Decoder> {
  let decoders = tableDecoders.get(table);
  if (decoders === undefined) {
    decoders = new Map(
      Object.entries(table.columns).map(([column, { type }]) => [column, DECODERS[columnShape(type)]]),
    );
    tableDecoders.set(table, decoders);
  }
  return decoders;
}

const untypedDecoder = (column: string): Decoder =>
  column === '_uuid' || column === '_version' ? DECODERS[columnShape(UUID_COLUMN)] : decodeUntyped;
