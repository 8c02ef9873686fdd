/**
 * Field paths as problems show them (`spec.network.layer3.subnets[0].hostSubnet`,
 * `metadata.labels["kubernetes.io/metadata.name"]`) from JSON pointers and path segments, and the
 * "did you mean" of an unknown field: a known sibling that differs only in case or by at most two
 * edits.
 */

export type Segment = string | number;

const identifier = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function formatPath(segments: readonly Segment[]): string {
  return segments
    .map((s, i) =>
      typeof s === 'number' ? `[${s}]` : identifier.test(s) ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`,
    )
    .join('');
}

/** The segments of a JSON pointer into `root`: array positions become numbers. */
export function pointerSegments(root: unknown, pointer: string): Segment[] {
  if (pointer === '') return [];
  const out: Segment[] = [];
  let node = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const segment = Array.isArray(node) ? Number(key) : key;
    out.push(segment);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return out;
}

/** The known name `unknown` was most likely meant to be, if one is close enough. */
export function closestName(unknown: string, known: readonly string[]): string | undefined {
  const lower = unknown.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= 2 && distance < name.length / 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length]!;
}
