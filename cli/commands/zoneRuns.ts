/**
 * The file commands' loop over zones. Every zone is connected to and worked on at once, at most
 * `--parallel` (default 8) at a time (runtime's eachZone), each zone still one transaction. Every
 * zone's state is read before the plan; the first `--parallel` zones keep their connection from
 * that read to their run, the others are connected again for their run (runtime's readZones), so
 * a run holds at most `--parallel` (sockets here, sessions on the servers). A zone
 * that cannot be reached or fails, fails alone: the others complete, and the command names it
 * with the exit code of its failure (4 unreachable or failing, 1 refused: nothing was sent to it,
 * 3 its stored state is unusable; the most severe wins). A rerun converges: zones already done
 * send nothing, the failed one gets its rows.
 */
import type { Failure, Success } from '../../provider/model/outcome';
import {
  checkParallel,
  DEFAULT_PARALLEL,
  EndpointError,
  leaseConnection,
  type NbLease,
  type NbOptions,
  type OtherOwners,
  readZoneStates,
  type OvsdbDatabase,
  readZones,
  type RuntimeState,
  StateError,
  thrown,
  type ZoneOutcome,
  type ZoneTargets,
} from '../../provider/runtime/cli';
import { collectGarbage } from '../collect';
import { CliError, type CommandResult, ExitCode, progress as stderrLine } from '../contract';
import { progressFor } from '../progress';
import { asCliError } from './cliErrors';

/**
 * A zone that answered: its endpoint, how to hold its Northbound for a piece of work (the first
 * hold takes over the connection of its read when it kept one), and what `also` read there.
 */
export interface TargetZone<R = undefined> {
  name: string;
  endpoint: string;
  open(): Promise<NbLease>;
  /** Drops the connection kept from the read if no work took it. */
  release(): Promise<void>;
  read: R;
}

/** Why a zone failed (`why`, the command's `error` text for it), with the exit code its failure would have. */
export interface ZoneFailure extends Failure {
  zone: string;
  endpoint: string;
  exitCode: ExitCode;
  /** The reasons of a refusal. */
  problems?: unknown;
  /** A transaction the zone left in doubt: 'not committed' or 'unknown'. */
  outcome?: unknown;
}

/** A zone's failure as the whole command's would be (cliErrors.ts); unknown errors are failing (exit 4). */
function failureOf(zone: string, endpoint: string, error: unknown, file: string): ZoneFailure {
  const mapped = asCliError(error, file);
  if (!(mapped instanceof CliError))
    return { ok: false, zone, endpoint, exitCode: ExitCode.unreachable, why: thrown(error).why };
  const { problems, outcome } = mapped.details;
  return {
    ok: false,
    zone,
    endpoint,
    exitCode: mapped.exitCode,
    why: mapped.message,
    ...(problems ? { problems } : {}),
    ...(outcome ? { outcome } : {}),
  };
}

/** `--parallel N`: a whole number of zones of at least 1 (default 8). */
export function parallelOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PARALLEL;
  try {
    return checkParallel(Number(value));
  } catch (error) {
    throw new CliError(ExitCode.badInput, (error as Error).message, { path: '--parallel' });
  }
}

export interface ConnectedZones<R = undefined> {
  /** Every zone asked for, in order. */
  names: string[];
  zones: TargetZone<R>[];
  failed: ZoneFailure[];
  /** The state stored in the first zone (in zone order) that has a readable one. */
  previous?: RuntimeState;
  /** Zones whose stored state could not be read, when the command goes on without it (destroy, repair). */
  unreadableState: { zone: string; problem: string }[];
  /** Every other owner's allocations found in any zone: taken for this owner's plan (alloc/others.ts). */
  others: OtherOwners;
}

/**
 * Read a zone's stored state and the other owners' allocations there; with `tolerate`, an
 * unreadable state of ours is a note instead of the zone's failure.
 */
async function stateOf(db: NbLease['db'], owner: string, tolerate: boolean) {
  try {
    return await readZoneStates(db, owner);
  } catch (error) {
    if (!tolerate || !(error instanceof StateError)) throw error;
    return { state: undefined, problem: error.message, others: error.others ?? {} };
  }
}

/**
 * Connects to every zone's Northbound and reads this owner's stored state there, and what `also`
 * reads, `parallel` zones at a time; a zone that does not answer is a failure of its own. An
 * endpoint that is not OVSDB syntax is unusable input for the whole command.
 */
export async function connectZones<R = undefined>(
  endpoints: { name: string; endpoint: string; field: string; options?: NbOptions }[],
  owner: string,
  parallel: number,
  file: string,
  tolerateState = false,
  also?: (db: OvsdbDatabase) => Promise<R>,
): Promise<ConnectedZones<R>> {
  const targets = endpoints.map(({ name, endpoint, field, options }) => ({
    name,
    open: () => leaseConnection(endpoint, field, options),
  }));
  const outcomes = await readZones(targets, parallel, async (db) => ({
    endpoint: db.endpoint,
    ...(await stateOf(db, owner, tolerateState)),
    read: (also ? await also(db) : undefined) as R,
  }));
  const connected: ConnectedZones<R> = {
    names: endpoints.map((e) => e.name),
    zones: [],
    failed: [],
    unreadableState: [],
    others: {},
  };
  outcomes.forEach((outcome, i) => {
    if (outcome.ok) {
      const { value, zone } = outcome.value;
      connected.zones.push({ ...zone, endpoint: value.endpoint, read: value.read });
      connected.previous ??= value.state;
      if ('problem' in value) connected.unreadableState.push({ zone: outcome.zone, problem: value.problem });
      connected.others = { ...value.others, ...connected.others };
    } else if (outcome.cause instanceof EndpointError) throw outcome.cause;
    else connected.failed.push(failureOf(outcome.zone, endpoints[i]!.endpoint, outcome.cause, file));
  });
  return connected;
}

/** Drops every connection kept from the state reads that no zone run took (zoneRuns' callers, when done). */
export async function releaseZones(target: ConnectedZones<unknown>): Promise<void> {
  await Promise.all(target.zones.map((z) => z.release()));
}

export type ZoneRun<T> = ({ zone: string } & Success<T>) | ZoneFailure;

/**
 * The runtime's zone targets of a command: the connected zones among `names`, `parallel` at a
 * time, with one progress line per zone (`outcomeText` of its value, or its failure) and a
 * full garbage collection after it.
 */
export function zoneTargets<T>(
  target: ConnectedZones<unknown> & { parallel: number; file: string },
  command: string,
  names: string[],
  outcomeText: (value: T) => string,
): ZoneTargets {
  const progress = progressFor(command, names.length);
  return {
    zones: target.zones.filter((z) => names.includes(z.name)),
    parallel: target.parallel,
    onZone: (name) => {
      const done = progress.zone(name);
      return (outcome) => {
        done(
          outcome.ok
            ? outcomeText(outcome.value as T)
            : `failed: ${failureOf(name, endpointOf(target, name), outcome.cause, target.file).why}`,
        );
        // what the zone held is garbage now: collected before the next zone adds its own (collect.ts)
        collectGarbage();
      };
    },
  };
}

const endpointOf = (target: ConnectedZones<unknown>, name: string): string =>
  target.zones.find((z) => z.name === name)?.endpoint ?? '';

/** Each of `names` in order: its runtime outcome, or its failure to connect; errors as the command's failures. */
export function zoneRunsOf<T>(
  target: ConnectedZones<unknown> & { file: string },
  names: string[],
  outcomes: ZoneOutcome<T>[],
): ZoneRun<T>[] {
  return names.map((name): ZoneRun<T> => {
    const earlier = target.failed.find((f) => f.zone === name);
    if (earlier) return earlier;
    const outcome = outcomes.find((o) => o.zone === name)!;
    if (outcome.ok) return outcome;
    return failureOf(name, endpointOf(target, name), outcome.cause, target.file);
  });
}

/** A failed zone in the command's document: its endpoint, exit code and `error`, the reasons and outcome it has. */
export const failureEntry = ({ endpoint, exitCode, why, problems, outcome }: ZoneFailure) => ({
  endpoint,
  exitCode,
  error: why,
  ...(problems ? { problems } : {}),
  ...(outcome ? { outcome } : {}),
});

export const failureLine = (f: ZoneFailure): string => `zone ${f.zone} (${f.endpoint}): failed: ${f.why}`;

/** A node whose host work failed (discovery, mappings, VRF or flows), named in the command's error. */
export interface NodeFailure {
  node: string;
  error: string;
}

/**
 * The command's result: its own exit code when every zone and node completed; else ok false, the
 * most severe failure's exit code (a node's is 4), and an error naming every failed zone and node,
 * said again as the last line of the text and on stderr, so no reader takes it for a success.
 */
export function zonesResult(
  document: Record<string, unknown>,
  lines: string[],
  failures: ZoneFailure[],
  exitCode?: ExitCode,
  nodes: NodeFailure[] = [],
): CommandResult {
  if (failures.length === 0 && nodes.length === 0)
    return { exitCode, document: { ok: true, ...document }, text: lines.join('\n') };
  const code = Math.max(
    ...failures.map((f) => f.exitCode),
    ...(nodes.length > 0 ? [ExitCode.unreachable] : []),
  ) as ExitCode;
  const error = [
    ...failures.map((f) => `zone ${f.zone}: ${f.why}`),
    ...nodes.map((n) => `node ${n.node}: ${n.error}`),
  ].join('; ');
  stderrLine(`error: ${error}`);
  const named = {
    ...(failures.length > 0 ? { failedZones: failures.map((f) => f.zone) } : {}),
    ...(nodes.length > 0 ? { failedNodes: [...new Set(nodes.map((n) => n.node))] } : {}),
  };
  return {
    exitCode: code,
    document: { ok: false, exitCode: code, error, ...named, ...document },
    text: [...lines, `failed: ${error}`].join('\n'),
  };
}
