/**
 * Records keyed by names users give (networks, connects, nodes, namespaces, pods, zones, label
 * keys). A plain `{}` inherits Object.prototype: a lookup of a connect named `constructor` finds a
 * function, and an assignment to `__proto__` replaces the prototype instead of storing a value.
 * These records have no prototype, so every name is only a key; they serialize as usual.
 */

export type Dict<T> = Record<string, T>;

/** A record without a prototype, filled from `entries` (later entries win, as in Object.fromEntries). */
export function dict<T>(entries: Iterable<readonly [string, T]> = []): Dict<T> {
  const out = Object.create(null) as Dict<T>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}

/** The value stored under `key` itself, never one inherited from a prototype. */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/**
 * A copy of parsed data (YAML's toJS, JSON.parse) whose plain objects have no prototype; arrays
 * and scalars are kept. Callers bound the depth first (deeperThan, yamlInput.ts): this recurses.
 */
export function plainData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainData);
  if (!isPlainObject(value)) return value;
  return dict(Object.entries(value).map(([key, item]) => [key, plainData(item)] as const));
}

/** Whether objects and arrays nest more than `limit` deep in `value` (measured without recursion). */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
