import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical, sameValue } from '../../../provider/nb/values';
import type { ColumnType } from '../../../provider/ovsdb/schema';

const map: ColumnType = { key: 'string', value: 'string', min: 0, max: 'unlimited' };
const set: ColumnType = { key: 'string', min: 0, max: 'unlimited' };
const refs: ColumnType = { key: { type: 'uuid', refTable: 'Logical_Router_Port' }, min: 0, max: 'unlimited' };
const optional: ColumnType = { key: 'integer', min: 0, max: 1 };

/** The definition sameValue stands in for: equal canonical forms. */
const byCanonical = (a: unknown, b: unknown, type: ColumnType) =>
  JSON.stringify(canonical(a, type)) === JSON.stringify(canonical(b, type));

const word = fc.constantFrom('a', 'b', 'c', '1', 'j1', 's');
const uuid = fc.constantFrom('u1', 'u2', 'u3').map((u) => ({ uuid: u }));
const mapValue = fc.dictionary(word, fc.option(word, { nil: undefined }), { maxKeys: 4 });

describe('comparing column values', () => {
  const agrees = (type: ColumnType) => (a: unknown, b: unknown) => {
    expect(sameValue(a, b, type)).toBe(byCanonical(a, b, type));
  };

  it('tells maps apart exactly as their canonical forms do, undefined entries and key order included', () => {
    fc.assert(fc.property(mapValue, mapValue, agrees(map)));
    fc.assert(
      fc.property(mapValue, (a) => {
        expect(sameValue(a, Object.fromEntries(Object.entries(a).reverse()), map)).toBe(true);
      }),
    );
  });

  it('tells sets apart exactly as their canonical forms do: any order, duplicates, the bare one-element form', () => {
    const strings = fc.oneof(fc.array(word, { maxLength: 5 }), word);
    fc.assert(fc.property(strings, strings, agrees(set)));
    const uuids = fc.oneof(fc.array(uuid, { maxLength: 4 }), uuid);
    fc.assert(fc.property(uuids, uuids, agrees(refs)));
  });

  it('tells optional atoms apart exactly as their canonical forms do, an empty set being no value', () => {
    const atom = fc.oneof(
      fc.constant(undefined),
      fc.constant([]),
      fc.integer({ min: 0, max: 2 }),
      fc.integer({ min: 0, max: 2 }).map((n) => [n]),
    );
    fc.assert(fc.property(atom, atom, agrees(optional)));
  });

  it('never takes a string for a number or a uuid for its text', () => {
    expect(sameValue(['1'], [1], { key: 'string', min: 0, max: 'unlimited' })).toBe(false);
    expect(sameValue([{ uuid: 'u1' }], ['u1'], refs)).toBe(false);
    expect(sameValue({ k: '1' }, { k: 1 }, map)).toBe(false);
  });
});
