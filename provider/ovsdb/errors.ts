/**
 * Typed OVSDB errors. Operation errors map one class per RFC 7047 error string (section 4.1.3
 * and the per-operation sections) and carry the operation index, op, table and details; transport
 * errors (refused, closed, timed-out requests) are a separate branch and the only ones worth
 * retrying. Every message starts with `ovsdb:` and names the endpoint.
 */
import type { Operation, OperationResult } from './notation';

export class OvsdbError extends Error {
  override name = 'OvsdbError';
}

/** A value that cannot be written in OVSDB notation (bad input, found before anything is sent). */
export class OvsdbValueError extends OvsdbError {
  override name = 'OvsdbValueError';
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`ovsdb: [${field}] ${describeValue(value)}: ${reason}`);
  }
}

function describeValue(value: unknown): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export type TransportReason = 'refused' | 'closed' | 'timeout' | 'protocol' | 'not-leader' | 'unreachable';

/** The connection failed, closed, or a request got no answer in time. Safe to retry elsewhere. */
export class OvsdbTransportError extends OvsdbError {
  override name = 'OvsdbTransportError';
  constructor(
    readonly endpoint: string,
    readonly reason: TransportReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`ovsdb: ${endpoint}: ${detail}`, options);
  }
}

/** The server answered a request with a JSON-RPC `error` (e.g. "unknown database"). Not retried. */
export class OvsdbRpcError extends OvsdbError {
  override name = 'OvsdbRpcError';
  constructor(
    readonly endpoint: string,
    readonly method: string,
    readonly error: unknown,
  ) {
    super(`ovsdb: ${endpoint}: ${method} failed: ${typeof error === 'string' ? error : JSON.stringify(error)}`);
  }
}

export interface OperationFailure {
  endpoint: string;
  /** Index of the failed operation; operations.length for a commit error. */
  index: number;
  op: string;
  table?: string;
  error: string;
  details?: string;
}

/** One operation of a transaction failed; nothing of the transaction was committed. */
export class OvsdbOperationError extends OvsdbError {
  override name = 'OvsdbOperationError';
  readonly endpoint: string;
  readonly index: number;
  readonly op: string;
  readonly table?: string;
  readonly error: string;
  readonly details?: string;
  constructor(failure: OperationFailure) {
    const where = failure.table ? `${failure.op} on ${failure.table}` : failure.op;
    const details = failure.details ? `: ${failure.details}` : '';
    super(`ovsdb: ${failure.endpoint}: ${failure.error} in operation ${failure.index} (${where})${details}`);
    this.endpoint = failure.endpoint;
    this.index = failure.index;
    this.op = failure.op;
    this.table = failure.table;
    this.error = failure.error;
    this.details = failure.details;
  }
}

export class ReferentialIntegrityViolation extends OvsdbOperationError {
  override name = 'ReferentialIntegrityViolation';
}
export class ConstraintViolation extends OvsdbOperationError {
  override name = 'ConstraintViolation';
}
export class ResourcesExhausted extends OvsdbOperationError {
  override name = 'ResourcesExhausted';
}
export class IoError extends OvsdbOperationError {
  override name = 'IoError';
}
export class DuplicateUuidName extends OvsdbOperationError {
  override name = 'DuplicateUuidName';
}
/** An insert's own `uuid` (an OVSDB extension) is already a row's in its table. */
export class DuplicateUuid extends OvsdbOperationError {
  override name = 'DuplicateUuid';
}
export class DomainError extends OvsdbOperationError {
  override name = 'DomainError';
}
export class OvsdbRangeError extends OvsdbOperationError {
  override name = 'OvsdbRangeError';
}
export class TimedOut extends OvsdbOperationError {
  override name = 'TimedOut';
}
export class NotSupported extends OvsdbOperationError {
  override name = 'NotSupported';
}
export class Aborted extends OvsdbOperationError {
  override name = 'Aborted';
}
export class NotOwner extends OvsdbOperationError {
  override name = 'NotOwner';
}
/** "syntax error" and any error string RFC 7047 does not define. */
export class OvsdbSyntaxError extends OvsdbOperationError {
  override name = 'OvsdbSyntaxError';
}

const byErrorString: Record<string, new (failure: OperationFailure) => OvsdbOperationError> = {
  'referential integrity violation': ReferentialIntegrityViolation,
  'constraint violation': ConstraintViolation,
  'resources exhausted': ResourcesExhausted,
  'I/O error': IoError,
  'duplicate uuid name': DuplicateUuidName,
  // what ovsdb-server actually sends (RFC 7047 writes it with a space)
  'duplicate uuid-name': DuplicateUuidName,
  // ovsdb/execution.c ovsdb_execute_insert, for an insert's own "uuid"
  'duplicate uuid': DuplicateUuid,
  'domain error': DomainError,
  'range error': OvsdbRangeError,
  'timed out': TimedOut,
  'not supported': NotSupported,
  aborted: Aborted,
  'not owner': NotOwner,
  'syntax error': OvsdbSyntaxError,
};

export function operationError(failure: OperationFailure): OvsdbOperationError {
  const ErrorClass = byErrorString[failure.error] ?? OvsdbSyntaxError;
  return new ErrorClass(failure);
}

/** Commit errors have no operation; the table is named in the server's details, when at all. */
function tableFromDetails(details: string | undefined): string | undefined {
  const match = /"([A-Za-z_][\w-]*)" table|[Tt]able "?([A-Z_][\w-]*)|cannot delete ([A-Z_][\w-]*) row/.exec(
    details ?? '',
  );
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

function failureAt(
  operations: Operation[],
  index: number,
  result: OperationResult,
  endpoint: string,
): OperationFailure {
  const operation = operations[index];
  const table = operation && 'table' in operation ? operation.table : tableFromDetails(result.details);
  return {
    endpoint,
    index,
    op: operation?.op ?? 'commit',
    table,
    error: String(result.error),
    details: result.details,
  };
}

/**
 * RFC 7047 section 4.1.3: one result per operation; a failed operation carries `error` and the
 * ones after it are null; a commit failure appears as one extra element after the operations.
 * Throws the typed error of the first failure; returns the per-operation results otherwise.
 */
export function checkResults(
  operations: Operation[],
  results: (OperationResult | null)[],
  endpoint = 'server',
): OperationResult[] {
  for (let index = 0; index < results.length; index++) {
    const result = results[index];
    if (result && result.error !== undefined && result.error !== null) {
      throw operationError(failureAt(operations, index, result, endpoint));
    }
  }
  if (results.length < operations.length || results.slice(0, operations.length).some((r) => r === null)) {
    throw new OvsdbTransportError(
      endpoint,
      'protocol',
      `transact returned ${results.length} results for ${operations.length} operations without an error`,
    );
  }
  return results.slice(0, operations.length) as OperationResult[];
}
