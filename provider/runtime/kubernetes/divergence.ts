/**
 * Divergence: what upstream wrote on a live object (read back by the kubernetes provider after
 * `up` and on refresh) against what the plan predicted. Each predicted annotation that upstream
 * wrote differently is `allocation differs` (JSON values compared as data, so Go's key order and
 * spacing never count); each status condition that is False is `condition <Type> False with
 * reason <Reason>`. What upstream has not written yet (no annotation, no condition, a condition
 * Unknown) is pending, not divergence: a pipeline fails on the first list and waits on the second.
 */

export interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

export interface LiveObject {
  metadata?: { annotations?: Record<string, string> | null } | null;
  status?: { conditions?: Condition[] | null } | null;
}

export interface DivergenceReport {
  /** `<ref>: allocation differs: ...` and `<ref>: condition <Type> False with reason <Reason>: ...`. */
  divergence: string[];
  /** `<ref>: ... not written yet`. */
  pending: string[];
}

export function divergenceOf(ref: string, predicted: Record<string, string>, live: LiveObject): DivergenceReport {
  const report: DivergenceReport = { divergence: [], pending: [] };
  const annotations = live.metadata?.annotations ?? {};
  for (const [key, value] of Object.entries(predicted).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const written = annotations[key];
    if (written === undefined) report.pending.push(`${ref}: ${key} not written yet (predicted ${value})`);
    else if (!sameValue(written, value))
      report.divergence.push(`${ref}: allocation differs: ${key} is ${written}, predicted ${value}`);
  }
  const conditions = live.status?.conditions ?? [];
  if (conditions.length === 0) report.pending.push(`${ref}: no status conditions written yet`);
  for (const c of conditions) {
    if (c.status === 'False')
      report.divergence.push(
        `${ref}: condition ${c.type} False with reason ${c.reason ?? '(none)'}${c.message ? `: ${c.message}` : ''}`,
      );
    else if (c.status !== 'True') report.pending.push(`${ref}: condition ${c.type} is ${c.status ?? 'unset'}`);
  }
  return report;
}

/** Several objects' reports as one. */
export function mergeReports(reports: readonly DivergenceReport[]): DivergenceReport {
  return { divergence: reports.flatMap((r) => r.divergence), pending: reports.flatMap((r) => r.pending) };
}

/** Equal text, or equal JSON data (`{"a":1,"b":2}` and `{"b": 2, "a": 1}`). */
function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [parse(a), parse(b)];
  return x !== undefined && y !== undefined && canonical(x) === canonical(y);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
