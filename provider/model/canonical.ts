/**
 * JSON with every object's keys sorted: equal values, equal text, whatever order their keys were
 * built in. What the stored state, the slices' and the rows' digests, and the providers' diff
 * decisions compare, so rebuilding an object with its keys in another order changes nothing.
 */

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });
}

/** Equal as JSON values (object key order ignored; undefined members dropped, as JSON does). */
export const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);
