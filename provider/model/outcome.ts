/**
 * Outcome: what a function that can say no returns (a parser, an allocator, a reader), instead of
 * `X | string` or a field of its own naming: the value, or `why` there is none (upstream's error
 * text where upstream has one). In the model because every layer may import it. A failure callers
 * must tell apart carries a typed `reason` beside its words (`MarkFailure`, `ReserveFailure`), so
 * they branch on the reason, never on the text. Callers turn a failure into a Problem with the
 * reason and path only they know (a host subnet, a connect subnet, a stored state). Input refused
 * field by field is a `Rejection` (its Problems, each with its path); an exception caught where
 * work goes on without it (one zone of many) is `Thrown`, which keeps the thrown value.
 */
import type { Problem } from './problem';

export type Outcome<T, F extends Failure = Failure> = Success<T> | F;
export interface Success<T> {
  ok: true;
  value: T;
}
export interface Failure {
  ok: false;
  why: string;
}
/** A failure with a reason a caller branches on; `why` keeps the words shown to people. */
export type Refusal<R extends string> = Failure & { reason: R };

/** Input refused: each problem names its field path, value and reason; `why` is their words joined. */
export interface Rejection<P extends Pick<Problem, 'message'> = Problem> extends Failure {
  problems: P[];
}
/** An exception caught and kept: `why` is its message; `cause` the value thrown, for callers that tell errors apart. */
export interface Thrown extends Failure {
  cause: unknown;
}

export const success = <T>(value: T): Success<T> => ({ ok: true, value });
export const failure = (why: string): Failure => ({ ok: false, why });
export const refusal = <R extends string, X extends object = object>(reason: R, why: string, extra?: X) =>
  ({ ok: false, reason, why, ...extra }) as Refusal<R> & X;
export const rejection = <P extends Pick<Problem, 'message'>>(problems: P[]): Rejection<P> => ({
  ok: false,
  why: problems.map((p) => p.message).join('; '),
  problems,
});
export const thrown = (cause: unknown): Thrown => ({
  ok: false,
  why: typeof (cause as { message?: unknown } | null)?.message === 'string' ? (cause as Error).message : String(cause),
  cause,
});
