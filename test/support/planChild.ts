/**
 * The real `ovnk` entry (dist/cli/main.js `main`) in a long-lived child process, for tests that
 * feed it input that could hang or crash it: each run is one IPC message, its stdout and exit
 * code come back with the CPU time the run used, a run that takes longer than its limit is
 * killed (and the child restarted), and a child that dies (a V8 abort, exit 134) is reported
 * with its stderr. `plan` calls the planner API the CLI is built on (the runtime's load, build
 * and planTopology) the same way, and returns what it gave. The child runs the compiled code:
 * `ensureBuilt` refuses a stale dist/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, requireFreshDist } from './dist';

export const repo = repoRoot;
const mainJs = join(repo, 'dist', 'cli', 'main.js');
const runtimeJs = join(repo, 'dist', 'provider', 'runtime', 'cli.js');

/** The child runs dist/: refuse a dist older than its sources (npm test builds first). */
export function ensureBuilt(): void {
  requireFreshDist(['provider', 'components', 'stacks', 'cli', 'lab']);
}

type Ended =
  | { kind: 'timeout'; wallMs: number }
  | { kind: 'died'; exitCode: number | null; signal: string | null; stderr: string };
type Done<T> = { kind: 'done'; cpuMs: number; wallMs: number } & T;

export type RunOutcome = Done<{ code: number; stdout: string }> | Ended;

/** A problem as the planner API gives it. */
export interface PlannedProblem {
  reason?: unknown;
  path?: unknown;
  message?: unknown;
}

/**
 * What the planner API gave: the problems of the stage that stopped (`load`, `build`, `plan`),
 * or the plan's problems and allocations (`planned`); `threw` is an exception's stack.
 */
export type PlannerResult =
  | { stage: 'load' | 'build' | 'plan'; problems: PlannedProblem[] }
  | { stage: 'planned'; problems: PlannedProblem[]; allocation: PlannedAllocation; rows: number }
  | { stage: 'threw'; stack: string };

export interface PlannedAllocation {
  networkIds: Record<string, number>;
  nodeIds: Record<string, number>;
  hostSubnets: Record<string, Record<string, string[]>>;
  connects: Record<
    string,
    { accepted: boolean; networks: Record<string, { subnets: { ipv4?: string; ipv6?: string } }> }
  >;
}

export type PlannerOutcome = Done<{ result: PlannerResult }> | Ended;

// Runs in the child: stdout and stderr are captured per run, the exit code is main's.
const server = `
const { main } = require(process.argv[1]);
const runtime = require(process.argv[2]);
function planApi(text) {
  try {
    const loaded = runtime.loadInputs([{ file: 'fuzz.yaml', text }]);
    if (loaded.problems.length > 0) return { stage: 'load', problems: loaded.problems };
    const built = runtime.buildInputs(loaded.documents);
    if (!built.ok) return { stage: 'build', problems: built.problems };
    const result = runtime.planTopology(built.cluster);
    if (!result.ok) return { stage: 'plan', problems: result.problems };
    const { networkIds, nodeIds, hostSubnets, connects } = result.plan.allocation;
    const rows = result.plan.zones.reduce((n, z) => n + z.rows.length, 0);
    return { stage: 'planned', problems: result.plan.problems, allocation: { networkIds, nodeIds, hostSubnets, connects }, rows };
  } catch (error) {
    return { stage: 'threw', stack: String(error && error.stack) };
  }
}
// A write takes the chunk and calls back at once, as a stream with room does.
const capture = (into) => (chunk, encoding, done) => {
  into.push(String(chunk));
  const callback = typeof encoding === 'function' ? encoding : done;
  if (callback) process.nextTick(callback);
  return true;
};
process.on('message', async (message) => {
  if (!Array.isArray(message)) {
    const cpu = process.cpuUsage();
    const started = Date.now();
    const result = planApi(message.plan);
    const used = process.cpuUsage(cpu);
    return process.send({ result, cpuMs: (used.user + used.system) / 1000, wallMs: Date.now() - started });
  }
  const argv = message;
  const out = [];
  const write = process.stdout.write, writeErr = process.stderr.write;
  process.stdout.write = capture(out);
  process.stderr.write = capture([]);
  process.exitCode = undefined;
  const cpu = process.cpuUsage();
  const started = Date.now();
  let code;
  try { code = await main(['node', 'ovnk', ...argv]); } catch (error) { code = -1; out.push(String(error && error.stack)); }
  const used = process.cpuUsage(cpu);
  process.stdout.write = write; process.stderr.write = writeErr; process.exitCode = 0;
  process.send({ code, stdout: out.join(''), cpuMs: (used.user + used.system) / 1000, wallMs: Date.now() - started });
});
process.send('ready');
`;

export class PlanChild {
  private child?: ChildProcess;
  private stderr = '';

  /** Run `ovnk <argv>`; a run longer than `limitMs` (wall clock) is killed and reported as a timeout. */
  run(argv: string[], limitMs: number): Promise<RunOutcome> {
    return this.request(argv, limitMs);
  }

  /** Plan one file's text with the planner API (load, build, planTopology), under the same limits. */
  plan(text: string, limitMs: number): Promise<PlannerOutcome> {
    return this.request({ plan: text }, limitMs);
  }

  private async request<T extends RunOutcome | PlannerOutcome>(message: unknown, limitMs: number): Promise<T> {
    const child = await this.started();
    const started = Date.now();
    return new Promise<T>((resolve) => {
      const finish = (outcome: RunOutcome | PlannerOutcome) => {
        clearTimeout(timer);
        child.removeAllListeners('message').removeAllListeners('exit');
        resolve(outcome as T);
      };
      const timer = setTimeout(() => {
        this.stop();
        finish({ kind: 'timeout', wallMs: Date.now() - started });
      }, limitMs);
      child.on('message', (m) => finish({ kind: 'done', ...(m as object) } as RunOutcome | PlannerOutcome));
      child.on('exit', (exitCode, signal) => {
        this.child = undefined;
        finish({ kind: 'died', exitCode, signal, stderr: this.stderr.slice(-2000) });
      });
      child.send(message as object);
    });
  }

  stop(): void {
    this.child?.removeAllListeners();
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }

  private started(): Promise<ChildProcess> {
    if (this.child) return Promise.resolve(this.child);
    this.stderr = '';
    const child = spawn(process.execPath, ['-e', server, mainJs, runtimeJs], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child.stderr!.on('data', (chunk) => (this.stderr += String(chunk)));
    this.child = child;
    return new Promise((resolve, reject) => {
      child.once('message', () => resolve(child));
      child.once('exit', (code) =>
        reject(new Error(`the plan child exited (${code}) before it was ready: ${this.stderr}`)),
      );
    });
  }
}
