/** Host access: HostRunner over SSH, its pool, host-key pins, argv quoting, OVSDB streams over SSH. */
export type { HostRunner, RunOptions, RunResult } from './runner';
export { commandOutput } from './runner';
export { describeTarget, SshHostRunner } from './ssh';
export type { SshTarget } from './ssh';
export { credentialDigest } from './credentials';
export { HostPool } from './pool';
export { openUnixSocketStream } from './stream';
export { fingerprintOf, knownKeysFor, verifyHostKey } from './hostkey';
export type { HostKeyPin, HostKeyVerdict } from './hostkey';
export { argvProblem, quoteArgv, quoteWord } from './quote';
export {
  HostArgvError,
  HostAuthError,
  HostError,
  HostKeyRejectedError,
  HostTimeoutError,
  HostUnreachableError,
} from './errors';
export type { HostFailure } from './errors';
