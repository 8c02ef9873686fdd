import { describe, expect, it } from 'vitest';
import {
  decodeRow,
  decodeRowsInPlace,
  decodeUntyped,
  decodeValue,
  encodeAtom,
  encodeMap,
  encodeRow,
  encodeSet,
  encodeValue,
} from '../../../provider/ovsdb/codec';
import { OvsdbValueError } from '../../../provider/ovsdb/errors';
import type { ColumnType, TableSchema } from '../../../provider/ovsdb/schema';

const networks: ColumnType = { key: 'string', min: 1, max: 'unlimited' };
const ports: ColumnType = {
  key: { type: 'uuid', refTable: 'Logical_Router_Port', refType: 'strong' },
  min: 0,
  max: 'unlimited',
};
const optionalString: ColumnType = { key: 'string', min: 0, max: 1 };
const stringMap: ColumnType = { key: 'string', value: 'string', min: 0, max: 'unlimited' };
const queues: ColumnType = {
  key: { type: 'integer', minInteger: 0 },
  value: { type: 'uuid', refTable: 'Queue' },
  min: 0,
  max: 'unlimited',
};

const json = (value: unknown) => JSON.stringify(value);

describe('encoding plain values into OVSDB notation', () => {
  it('writes atoms as themselves and uuids in their tagged pair forms', () => {
    expect(json(encodeAtom('lr-a'))).toBe('"lr-a"');
    expect(json(encodeAtom(42))).toBe('42');
    expect(json(encodeAtom(false))).toBe('false');
    expect(json(encodeAtom({ uuid: '1a09' }))).toBe('["uuid","1a09"]');
    expect(json(encodeAtom({ namedUuid: 'lrp_a' }))).toBe('["named-uuid","lrp_a"]');
  });

  it('writes a set in the explicit set form even with one element', () => {
    expect(json(encodeSet(['100.64.0.0/31']))).toBe('["set",["100.64.0.0/31"]]');
    expect(json(encodeSet([{ namedUuid: 'lrp_a' }]))).toBe('["set",[["named-uuid","lrp_a"]]]');
    expect(json(encodeSet([]))).toBe('["set",[]]');
  });

  it('writes a map as key/value pairs in insertion order', () => {
    expect(json(encodeMap({ 'requested-tnl-key': '50000', owner: 'ts' }))).toBe(
      '["map",[["requested-tnl-key","50000"],["owner","ts"]]]',
    );
  });

  it('turns textual map keys back into integers and uuid values into pairs when the column says so', () => {
    expect(json(encodeMap({ '7': { uuid: 'q1' } }, queues))).toBe('["map",[[7,["uuid","q1"]]]]');
  });

  it('writes an absent optional value as the empty set', () => {
    expect(json(encodeValue(undefined, optionalString))).toBe('["set",[]]');
    expect(json(encodeValue('lrp-x', optionalString))).toBe('"lrp-x"');
  });

  it('picks set, map or atom from the value when no column type is given', () => {
    expect(json(encodeValue(['a', 'b']))).toBe('["set",["a","b"]]');
    expect(json(encodeValue({ k: 'v' }))).toBe('["map",[["k","v"]]]');
    expect(json(encodeValue({ uuid: 'u' }))).toBe('["uuid","u"]');
    expect(json(encodeValue({}))).toBe('["map",[]]');
  });

  it('writes a whole row exactly as the server expects it', () => {
    const lr: TableSchema = {
      columns: { name: { type: 'string' }, ports: { type: ports }, options: { type: stringMap } },
    };
    const row = encodeRow(
      { name: 'lr-a', ports: [{ namedUuid: 'lrp_a' }], options: { 'requested-tnl-key': '50000' } },
      lr,
      'Logical_Router',
    );
    expect(json(row)).toBe(
      '{"name":"lr-a","ports":["set",[["named-uuid","lrp_a"]]],"options":["map",[["requested-tnl-key","50000"]]]}',
    );
  });
});

describe('refusing values the column cannot hold', () => {
  it('names the field, the value and the reason for a wrong atom type', () => {
    expect(() => encodeValue('five', { key: 'integer' }, 'Logical_Router_Policy.priority')).toThrow(
      'ovsdb: [Logical_Router_Policy.priority] "five": is not an integer',
    );
  });

  it('refuses a list for a map column and an object for a set column', () => {
    expect(() => encodeValue(['a'], stringMap, 'x.options')).toThrow(OvsdbValueError);
    expect(() => encodeValue({ a: 'b' }, networks, 'x.networks')).toThrow('is an object but the column is not a map');
  });

  it('refuses more elements than the column allows and a missing required value', () => {
    expect(() => encodeValue(['a', 'b'], optionalString, 'x.peer')).toThrow(
      'holds 2 values; the column allows at most 1',
    );
    expect(() => encodeValue(undefined, 'string', 'x.name')).toThrow('[x.name] undefined: is required');
  });

  it('refuses a column the table does not have', () => {
    const table: TableSchema = { columns: { name: { type: 'string' } } };
    expect(() => encodeRow({ tier: 0 }, table, 'ACL')).toThrow('ovsdb: [ACL.tier] 0: is not a column of the table');
  });

  it('refuses non-finite numbers and a non-integer map key for an integer key', () => {
    expect(() => encodeAtom(Number.NaN)).toThrow('is not a finite number');
    expect(() => encodeMap({ seven: { uuid: 'q' } }, queues, 'QoS.queues')).toThrow(
      '[QoS.queues.seven] "seven": key is not an integer',
    );
  });
});

describe('decoding OVSDB notation by column type', () => {
  it('reads a one-element set sent as a bare atom as a list', () => {
    expect(decodeValue('100.64.0.0/31', networks)).toEqual(['100.64.0.0/31']);
    expect(decodeValue(['uuid', '8ea4'], ports)).toEqual([{ uuid: '8ea4' }]);
    expect(decodeValue(['set', ['a', 'b']], networks)).toEqual(['a', 'b']);
    expect(decodeValue(['set', []], ports)).toEqual([]);
  });

  it('reads an optional column as its atom or undefined', () => {
    expect(decodeValue(['set', []], optionalString)).toBeUndefined();
    expect(decodeValue('lrp-hub', optionalString)).toBe('lrp-hub');
  });

  it('reads maps into plain objects, uuid values as uuid objects and integer keys as text', () => {
    expect(decodeValue(['map', [['requested-tnl-key', '50000']]], stringMap)).toEqual({ 'requested-tnl-key': '50000' });
    expect(decodeValue(['map', [[7, ['uuid', 'q1']]]], queues)).toEqual({ '7': { uuid: 'q1' } });
  });

  it('reads a row with _uuid as a uuid object and unknown columns untyped', () => {
    const table: TableSchema = { columns: { name: { type: 'string' }, ports: { type: ports } } };
    const row = decodeRow(
      { _uuid: ['uuid', '1a09'], name: 'lr-a', ports: ['uuid', '8ea4'], extra: ['set', [1, 2]] },
      table,
    );
    expect(row).toEqual({ _uuid: { uuid: '1a09' }, name: 'lr-a', ports: [{ uuid: '8ea4' }], extra: [1, 2] });
  });

  it("decodes a reply's rows in place to what decodeRow gives", () => {
    const table: TableSchema = { columns: { name: { type: 'string' }, ports: { type: ports } } };
    const wire = () => [
      { _uuid: ['uuid', '1a09'], name: 'lr-a', ports: ['uuid', '8ea4'] },
      {
        _uuid: ['uuid', '2b10'],
        name: 'lr-b',
        ports: [
          'set',
          [
            ['uuid', 'a1'],
            ['uuid', 'b2'],
          ],
        ],
        extra: ['map', [['k', 1]]],
      },
    ];
    const rows = wire();
    const decoded = decodeRowsInPlace(rows as never, table);
    expect(decoded).toEqual(wire().map((row) => decodeRow(row as never, table)));
    expect(decoded[1]).toBe(rows[1]);
  });

  it('decodes without a type by the tags alone', () => {
    expect(decodeUntyped(['map', [['a', 1]]])).toEqual({ a: 1 });
    expect(decodeUntyped(['named-uuid', 'n'])).toEqual({ namedUuid: 'n' });
  });

  it('round-trips what it encodes for every column shape', () => {
    const cases: [unknown, ColumnType][] = [
      [['x', 'y'], networks],
      [[{ uuid: 'u1' }], ports],
      [undefined, optionalString],
      ['z', optionalString],
      [{ a: 'b' }, stringMap],
      [{ '3': { uuid: 'q' } }, queues],
      [true, 'boolean'],
    ];
    for (const [value, type] of cases) expect(decodeValue(encodeValue(value as never, type), type)).toEqual(value);
  });
});
