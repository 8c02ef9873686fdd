/**
 * Typed failures of host access. Messages name the host and say what to do; they never carry key
 * material (only a key's path or fingerprint).
 */

export type HostFailure = 'host-key' | 'unreachable' | 'auth' | 'timeout' | 'argv' | 'closed';

export class HostError extends Error {
  constructor(
    readonly host: string,
    readonly failure: HostFailure,
    message: string,
  ) {
    super(message);
    this.name = 'HostError';
  }
}

/** The server's host key is unknown, or differs from the pinned one. */
export class HostKeyRejectedError extends HostError {
  constructor(
    host: string,
    message: string,
    readonly presentedFingerprint: string,
  ) {
    super(host, 'host-key', message);
    this.name = 'HostKeyRejectedError';
  }
}

export class HostUnreachableError extends HostError {
  constructor(host: string, message: string) {
    super(host, 'unreachable', message);
    this.name = 'HostUnreachableError';
  }
}

export class HostAuthError extends HostError {
  constructor(host: string, message: string) {
    super(host, 'auth', message);
    this.name = 'HostAuthError';
  }
}

export class HostTimeoutError extends HostError {
  constructor(host: string, message: string) {
    super(host, 'timeout', message);
    this.name = 'HostTimeoutError';
  }
}

/** Bad argv from the caller: `field` names the element, e.g. argv[2]. */
export class HostArgvError extends HostError {
  constructor(
    host: string,
    readonly field: string,
    message: string,
  ) {
    super(host, 'argv', message);
    this.name = 'HostArgvError';
  }
}
