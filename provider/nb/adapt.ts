/**
 * Schema adaptation: our row types come from the newest schema; a server may be older. Two steps:
 *   - `compareSchemas`: every difference that matters to us (tables, columns, enum values,
 *     cardinality, integer ranges, string lengths, reference targets), all at once;
 *   - `adaptRows`: before a transaction, the desired rows checked against the SERVER's schema. A
 *     column the server lacks is left out when our value is its default, otherwise refused; an enum
 *     value it lacks or a value outside its constraints is refused. Every refusal names the table,
 *     row, column, value, the server's version and (when known, features.ts) the feature.
 * Pure.
 */
import { normalizeColumnType, type BaseType, type ColumnType, type DatabaseSchema } from '../ovsdb/schema';
import { describeRow, desiredIdentity, type DesiredRow } from './desired';
import { featureFor } from './features';
import { type AdaptReason, type RowProblem, rowProblem } from './rowProblems';
import { describeValue, enumValues, isDefault } from './values';

export interface SchemaMismatch {
  table: string;
  column?: string;
  message: string;
}

export class SchemaAdaptationError extends Error {
  override name = 'SchemaAdaptationError';
  /** @param problems every row the server cannot take: its row, its reason and its sentence */
  constructor(readonly problems: RowProblem<AdaptReason>[]) {
    super(`nb: the server's schema cannot take these rows:\n  - ${problems.map((p) => p.message).join('\n  - ')}`);
  }
}

/** ` (needs OVN_Northbound >= 7.0.4 for the ACL "pass" action; server has 7.0.0)`. */
function needs(server: DatabaseSchema, key: string): string {
  const feature = featureFor(server.name, key);
  const wanted = feature
    ? `needs ${server.name} >= ${feature.since} for ${feature.feature}`
    : 'not in the server schema';
  return ` (${wanted}; server has ${server.version})`;
}

/** `needs` only when a feature is known for the key (a bound that changed for a reason we know). */
function hint(server: DatabaseSchema, key: string): string {
  return featureFor(server.name, key) === undefined ? '' : needs(server, key);
}

type Base = Exclude<BaseType, string>;
const BOUNDS = ['minInteger', 'maxInteger', 'minReal', 'maxReal', 'minLength', 'maxLength'] as const;

function compareBase(where: string, part: 'key' | 'value', ours: Base, theirs: Base, server: DatabaseSchema): string[] {
  if (ours.type !== theirs.type) return [`${where}: ${part} is ${ours.type} in ours, ${theirs.type} on the server`];
  const found: string[] = [];
  const theirEnum = enumValues(theirs);
  for (const value of enumValues(ours) ?? []) {
    if (theirEnum !== undefined && !theirEnum.includes(value))
      found.push(`${where} lacks enum value ${JSON.stringify(value)}${needs(server, `${where}=${value}`)}`);
  }
  if (theirEnum !== undefined && enumValues(ours) === undefined)
    found.push(`${where}: the server restricts ${part} to ${JSON.stringify(theirEnum)}`);
  for (const bound of BOUNDS) {
    if (ours[bound] !== theirs[bound])
      found.push(
        `${where}: ${part} ${bound} is ${ours[bound] ?? 'unset'} in ours, ${theirs[bound] ?? 'unset'} on the server${hint(server, `${where}#${bound}`)}`,
      );
  }
  if (ours.refTable !== theirs.refTable || (ours.refType ?? 'strong') !== (theirs.refType ?? 'strong')) {
    found.push(
      `${where}: ${part} references ${ours.refTable ?? 'nothing'} (${ours.refType ?? 'strong'}) in ours, ${theirs.refTable ?? 'nothing'} (${theirs.refType ?? 'strong'}) on the server`,
    );
  }
  return found;
}

function compareColumn(where: string, ours: ColumnType, theirs: ColumnType, server: DatabaseSchema): string[] {
  const a = normalizeColumnType(ours);
  const b = normalizeColumnType(theirs);
  const found = compareBase(where, 'key', a.key, b.key, server);
  if ((a.value === undefined) !== (b.value === undefined))
    found.push(`${where}: a ${a.value ? 'map' : 'set'} in ours, not on the server`);
  else if (a.value && b.value) found.push(...compareBase(where, 'value', a.value, b.value, server));
  if (a.min !== b.min)
    found.push(`${where}: at least ${a.min} value(s) in ours, ${b.min} on the server${hint(server, `${where}#min`)}`);
  if (a.max !== b.max) found.push(`${where}: at most ${a.max} value(s) in ours, ${b.max} on the server`);
  return found;
}

/** Every difference between our schema and the server's that could affect rows we write. */
export function compareSchemas(ours: DatabaseSchema, server: DatabaseSchema): SchemaMismatch[] {
  const known = comparisons.get(server);
  if (known?.ours === ours) return [...known.found];
  const found = compared(ours, server);
  comparisons.set(server, { ours, found });
  return [...found];
}

/** compareSchemas once per pair of schema objects (servers' schemas are interned: ovsdb/schema.ts). */
const comparisons = new WeakMap<DatabaseSchema, { ours: DatabaseSchema; found: SchemaMismatch[] }>();

function compared(ours: DatabaseSchema, server: DatabaseSchema): SchemaMismatch[] {
  const found: SchemaMismatch[] = [];
  if (ours.name !== server.name) return [{ table: '', message: `the server serves ${server.name}, not ${ours.name}` }];
  for (const [table, mine] of Object.entries(ours.tables).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const theirs = server.tables[table];
    if (theirs === undefined) {
      found.push({ table, message: `table ${table} is missing${needs(server, table)}` });
      continue;
    }
    if ((mine.isRoot === true) !== (theirs.isRoot === true))
      found.push({ table, message: `table ${table}: isRoot differs` });
    for (const [column, { type }] of Object.entries(mine.columns).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const where = `${table}.${column}`;
      const spec = theirs.columns[column];
      if (spec === undefined) found.push({ table, column, message: `${where} is missing${needs(server, where)}` });
      else
        found.push(
          ...compareColumn(where, type, spec.type, server).map((message) => ({
            table,
            column,
            message,
          })),
        );
    }
  }
  return found;
}

/**
 * The desired rows as the server can take them: columns it lacks dropped where our value is the
 * default. Throws SchemaAdaptationError listing every value it cannot take.
 */
export function adaptRows(rows: DesiredRow[], ours: DatabaseSchema, server: DatabaseSchema): DesiredRow[] {
  const problems: RowProblem<AdaptReason>[] = [];
  const adapted = rows.map((row) => {
    let known = adaptedRows.get(row);
    if (known?.ours !== ours || known.server !== server) {
      const found: RowProblem<AdaptReason>[] = [];
      known = { ours, server, row: adaptRow(row, ours, server, found), problems: found };
      adaptedRows.set(row, known);
    }
    if (known.problems.length > 0) problems.push(...known.problems);
    return known.row;
  });
  if (problems.length > 0) throw new SchemaAdaptationError(problems);
  return adapted;
}

/**
 * Each row adapted once per pair of schemas: the zones of a per-node plan share most rows
 * (topology/remoteRows.ts) and their servers' schemas are one object (ovsdb/schema.ts
 * internSchema). Rows and schemas are never changed once made.
 */
const adaptedRows = new WeakMap<
  DesiredRow,
  { ours: DatabaseSchema; server: DatabaseSchema; row: DesiredRow; problems: RowProblem<AdaptReason>[] }
>();

/** Rows the server takes as they are (the common case) are returned as they are. */
function adaptRow(
  row: DesiredRow,
  ours: DatabaseSchema,
  server: DatabaseSchema,
  problems: RowProblem<AdaptReason>[],
): DesiredRow {
  const identity = desiredIdentity(row);
  const who = () => describeRow(row.table, identity);
  const refuse = (reason: AdaptReason, message: string) =>
    problems.push(rowProblem(reason, row.table, identity, message));
  const table = server.tables[row.table];
  if (table === undefined) {
    refuse('missingTable', `${who()}: table ${row.table} is missing${needs(server, row.table)}`);
    return row;
  }
  let columns: Record<string, unknown> | undefined;
  for (const column in row.columns) {
    const value = row.columns[column];
    const spec = table.columns[column];
    if (spec !== undefined) {
      const found: string[] = [];
      checkValue(who, `${row.table}.${column}`, value, spec.type, server, found);
      for (const message of found) refuse('valueRefused', message);
      continue;
    }
    columns ??= { ...row.columns };
    delete columns[column];
    const ourType = ours.tables[row.table]?.columns[column]?.type;
    if (ourType === undefined || !isDefault(value, ourType)) {
      refuse(
        'missingColumn',
        `${who()}: ${row.table}.${column}=${describeValue(value)} cannot be written${needs(server, `${row.table}.${column}`)}`,
      );
    }
  }
  return columns === undefined ? row : { ...row, columns };
}

function elementsOf(value: unknown, isMap: boolean): { keys: unknown[]; values: unknown[] } {
  if (value === undefined || value === null) return { keys: [], values: [] };
  if (isMap) return { keys: Object.keys(value), values: Object.values(value) };
  return { keys: Array.isArray(value) ? value : [value], values: [] };
}

/** A value against the server's type for its column: count, enum values, ranges, lengths. */
function checkValue(
  who: () => string,
  column: string,
  value: unknown,
  type: ColumnType,
  server: DatabaseSchema,
  found: string[],
): void {
  const t = normalizeColumnType(type);
  const where = () => `${who()}: ${column}`;
  const { keys, values } = elementsOf(value, t.value !== undefined);
  if (keys.length < t.min)
    found.push(
      `${where()}=${describeValue(value)}: the server needs at least ${t.min} value(s)${hint(server, `${column}#min`)}`,
    );
  if (t.max !== 'unlimited' && keys.length > t.max)
    found.push(`${where()}=${describeValue(value)}: the server allows at most ${t.max} value(s)`);
  if (constrained(t.key)) for (const key of keys) found.push(...checkAtom(where, column, key, t.key, server));
  if (t.value && constrained(t.value))
    for (const v of values) found.push(...checkAtom(where, column, v, t.value, server));
}

/** Whether a base type restricts its atoms at all (most columns do not). */
function constrained(base: Base): boolean {
  return base.type !== 'uuid' && (base.enum !== undefined || BOUNDS.some((bound) => base[bound] !== undefined));
}

function checkAtom(where: () => string, column: string, atom: unknown, base: Base, server: DatabaseSchema): string[] {
  const shown = () => `${where()}=${describeValue(atom)}`;
  const allowed = enumValues(base);
  if (allowed !== undefined && !allowed.includes(atom as string))
    return [`${shown()} is not allowed${needs(server, `${column}=${String(atom)}`)}`];
  if (typeof atom === 'number') {
    const low = base.minInteger ?? base.minReal;
    const high = base.maxInteger ?? base.maxReal;
    if ((low !== undefined && atom < low) || (high !== undefined && atom > high)) {
      return [
        `${shown()} is outside the server's range [${low ?? '-inf'}, ${high ?? 'inf'}]${hint(server, `${column}#maxInteger`)}`,
      ];
    }
  }
  if (typeof atom === 'string' && (base.minLength !== undefined || base.maxLength !== undefined)) {
    const bytes = Buffer.byteLength(atom);
    if (
      (base.minLength !== undefined && bytes < base.minLength) ||
      (base.maxLength !== undefined && bytes > base.maxLength)
    ) {
      return [
        `${shown()} has ${bytes} bytes; the server allows ${base.minLength ?? 0} to ${base.maxLength ?? 'unlimited'}`,
      ];
    }
  }
  return [];
}
