/**
 * What the fuzz suite asserts of one outcome; each check returns a sentence saying what broke,
 * or undefined. The CLI: exit 0, 1 or 3 with one JSON document, `ok` agreeing with the code, and
 * a refusal listing its problems. The planner API: no exception, bounded CPU, every problem named,
 * and a plan whose allocations do not collide. A named problem has a reason, a message and a path
 * that starts with an object (`Kind/name`, `document[i]` or `Inventory`).
 */
import { overlaps, parseCidr } from '../../provider/model/cidr';
import type { PlannedAllocation, PlannedProblem, PlannerOutcome, RunOutcome } from '../support/planChild';

/** CPU one plan may use: planning is bounded by arithmetic, not by the size of any address space. */
export const cpuLimitMs = 2000;

const filled = (value: unknown) => typeof value === 'string' && value !== '';

/** A path starts with its object: the problem's `object` when given, else `Kind/name`, `document[i]` or `Inventory`. */
function namesObject(p: PlannedProblem & { object?: unknown }): boolean {
  if (typeof p.path !== 'string' || p.path === '') return false;
  if (typeof p.object === 'string') return p.path === p.object || p.path.startsWith(`${p.object}: `);
  const object = p.path.split(': ')[0]!;
  return /^(document\[\d+\]|Inventory)$/.test(object) || /.\//.test(object);
}

/** Why a problem names nothing, or undefined. */
export function unnamed(p: PlannedProblem): string | undefined {
  if (!filled(p.reason) || !filled(p.message)) return `a problem without reason or message: ${JSON.stringify(p)}`;
  if (!namesObject(p)) return `a problem whose path names no object: ${JSON.stringify(p)}`;
  return undefined;
}

const firstOf = <T>(items: T[], check: (item: T) => string | undefined) =>
  items.reduce<string | undefined>((found, item) => found ?? check(item), undefined);

function ended(
  outcome:
    | { kind: 'timeout'; wallMs: number }
    | { kind: 'died'; exitCode: number | null; signal: string | null; stderr: string },
): string {
  if (outcome.kind === 'timeout') return `no result after ${outcome.wallMs} ms (a hang)`;
  return `the process died (exit ${outcome.exitCode}, ${outcome.signal}): ${outcome.stderr}`;
}

/** `ovnk plan -o json`: the exit-code contract and a document whose refusals name their problems. */
export function cliBreach(outcome: RunOutcome): string | undefined {
  if (outcome.kind !== 'done') return ended(outcome);
  if (![0, 1, 3].includes(outcome.code)) return `exit ${outcome.code}: ${outcome.stdout.slice(0, 600)}`;
  let document: { ok?: unknown; problems?: PlannedProblem[] };
  try {
    document = JSON.parse(outcome.stdout);
  } catch {
    return `stdout is not one JSON document: ${outcome.stdout.slice(0, 300)}`;
  }
  const problems = Array.isArray(document.problems) ? document.problems : [];
  if (outcome.code === 0) return document.ok === true && problems.length === 0 ? undefined : 'exit 0 with problems';
  if (document.ok !== false) return `exit ${outcome.code} with ok ${String(document.ok)}`;
  if (problems.length === 0) return `exit ${outcome.code} names no problem: ${outcome.stdout.slice(0, 400)}`;
  return firstOf(problems, unnamed);
}

/** The planner API: a result (no exception, no hang), in bounded CPU, every problem named, no collisions. */
export function plannerBreach(outcome: PlannerOutcome): string | undefined {
  if (outcome.kind !== 'done') return ended(outcome);
  const { result } = outcome;
  if (result.stage === 'threw') return `the planner threw: ${result.stack}`;
  if (outcome.cpuMs > cpuLimitMs) return `planning used ${Math.round(outcome.cpuMs)} ms of CPU (limit ${cpuLimitMs})`;
  if (result.stage !== 'planned' && result.problems.length === 0)
    return `stage ${result.stage} failed naming no problem`;
  return firstOf(result.problems, unnamed) ?? (result.stage === 'planned' ? collision(result.allocation) : undefined);
}

/**
 * Two networks or nodes with one id, two nodes with overlapping host subnets, two networks of a
 * connect overlapping.
 */
function collision(allocation: PlannedAllocation): string | undefined {
  return (
    duplicate('network id', allocation.networkIds) ??
    duplicate('node id', allocation.nodeIds) ??
    firstOf(Object.entries(allocation.hostSubnets), ([network, byNode]) =>
      overlapping(`host subnets of ${network}`, Object.values(byNode).flat()),
    ) ??
    firstOf(Object.entries(allocation.connects), ([name, c]) =>
      overlapping(
        `subnets of connect ${name}`,
        Object.values(c.networks).flatMap((n) => Object.values(n.subnets)),
      ),
    )
  );
}

function duplicate(what: string, ids: Record<string, number>): string | undefined {
  const seen = new Map<number, string>();
  for (const [name, id] of Object.entries(ids)) {
    const holder = seen.get(id);
    if (holder !== undefined) return `${what} ${id} given to ${holder} and ${name}`;
    seen.set(id, name);
  }
  return undefined;
}

function overlapping(what: string, texts: string[]): string | undefined {
  const cidrs = texts.map((t) => ({ text: t, cidr: parseCidr(t) }));
  for (const [i, a] of cidrs.entries()) {
    if (!a.cidr.ok) return `${what}: "${a.text}" ${a.cidr.why}`;
    for (const b of cidrs.slice(i + 1))
      if (b.cidr.ok && overlaps(a.cidr.value, b.cidr.value)) return `${what}: ${a.text} overlaps ${b.text}`;
  }
  return undefined;
}
