/**
 * Outcome: what an allocator or reader returns instead of `X | string`: the value, or why there is
 * none (upstream's error text where upstream has one). Callers turn a failure into a Problem with
 * the reason and path only they know (a host subnet, a connect subnet, a stored state).
 */
export type Outcome<T> = { ok: true; value: T } | Failure;
export interface Failure {
  ok: false;
  why: string;
}

export const success = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const failure = (why: string): Failure => ({ ok: false, why });
