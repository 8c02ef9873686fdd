import { describe, expect, it } from 'vitest';
import {
  Aborted,
  checkResults,
  ConstraintViolation,
  DomainError,
  DuplicateUuid,
  DuplicateUuidName,
  IoError,
  NotOwner,
  NotSupported,
  OvsdbError,
  OvsdbOperationError,
  OvsdbRangeError,
  OvsdbSyntaxError,
  OvsdbTransportError,
  ReferentialIntegrityViolation,
  ResourcesExhausted,
  TimedOut,
} from '../../../provider/ovsdb/errors';
import type { Operation } from '../../../provider/ovsdb/notation';

const ops: Operation[] = [
  { op: 'insert', table: 'Logical_Router_Port', row: { name: 'lrp-a' }, 'uuid-name': 'lrp_a' },
  { op: 'mutate', table: 'Logical_Router', where: [], mutations: [['ports', 'insert', ['named-uuid', 'lrp_a']]] },
];

describe('checking transact results (RFC 7047 4.1.3)', () => {
  it('returns the per-operation results when nothing failed', () => {
    expect(checkResults(ops, [{ uuid: ['uuid', 'u1'] }, { count: 1 }])).toEqual([
      { uuid: ['uuid', 'u1'] },
      { count: 1 },
    ]);
  });

  it('throws the typed error of a failed operation with its index, op and table', () => {
    const results = [
      { uuid: ['uuid', 'u1'] as ['uuid', string] },
      { error: 'constraint violation', details: 'no such row' },
    ];
    let caught: unknown;
    try {
      checkResults(ops, results, 'unix:/nb.sock');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConstraintViolation);
    expect(caught).toBeInstanceOf(OvsdbOperationError);
    expect(caught).toMatchObject({
      index: 1,
      op: 'mutate',
      table: 'Logical_Router',
      details: 'no such row',
      endpoint: 'unix:/nb.sock',
    });
    expect((caught as Error).message).toBe(
      'ovsdb: unix:/nb.sock: constraint violation in operation 1 (mutate on Logical_Router): no such row',
    );
  });

  it('reads the extra element after the operations as a commit error naming the table from its details', () => {
    const details =
      'Transaction causes multiple rows in "Logical_Router_Port" table to have identical values (lrp-a) for index on column "name".';
    const results = [
      { uuid: ['uuid', 'u1'] as ['uuid', string] },
      { count: 1 },
      { error: 'constraint violation', details },
    ];
    expect(() => checkResults(ops, results, 'tcp:127.0.0.1:6641')).toThrow(ConstraintViolation);
    try {
      checkResults(ops, results);
    } catch (error) {
      expect(error).toMatchObject({ index: 2, op: 'commit', table: 'Logical_Router_Port' });
    }
  });

  it('maps every RFC 7047 error string to its own class', () => {
    const classes: [string, new (...args: never[]) => OvsdbOperationError][] = [
      ['referential integrity violation', ReferentialIntegrityViolation],
      ['constraint violation', ConstraintViolation],
      ['resources exhausted', ResourcesExhausted],
      ['I/O error', IoError],
      ['duplicate uuid name', DuplicateUuidName],
      ['duplicate uuid-name', DuplicateUuidName],
      ['duplicate uuid', DuplicateUuid],
      ['domain error', DomainError],
      ['range error', OvsdbRangeError],
      ['timed out', TimedOut],
      ['not supported', NotSupported],
      ['aborted', Aborted],
      ['not owner', NotOwner],
      ['syntax error', OvsdbSyntaxError],
      ['something new', OvsdbSyntaxError],
    ];
    for (const [error, ErrorClass] of classes) {
      expect(() => checkResults(ops, [{ error }, null])).toThrow(ErrorClass);
    }
  });

  it('treats too few results without an error as a protocol failure, not an operation error', () => {
    expect(() => checkResults(ops, [{ count: 1 }])).toThrow(OvsdbTransportError);
  });

  it('keeps transport errors apart from operation errors', () => {
    const transport = new OvsdbTransportError('tcp:10.0.0.1:6641', 'closed', 'connection closed by the server');
    expect(transport).toBeInstanceOf(OvsdbError);
    expect(transport).not.toBeInstanceOf(OvsdbOperationError);
    expect(transport.message).toBe('ovsdb: tcp:10.0.0.1:6641: connection closed by the server');
  });
});
