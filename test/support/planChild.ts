/**
 * The real `ovnk` entry (dist/cli/main.js `main`) in a long-lived child process, for tests that
 * feed it input that could hang or crash it: each run is one IPC message, its stdout and exit
 * code come back with the CPU time the run used, a run that takes longer than its limit is
 * killed (and the child restarted), and a child that dies (a V8 abort, exit 134) is reported
 * with its stderr. The child runs the compiled code: `ensureBuilt` refuses a stale dist/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, requireFreshDist } from './dist';

export const repo = repoRoot;
const mainJs = join(repo, 'dist', 'cli', 'main.js');

/** The child runs dist/: refuse a dist older than its sources (npm test builds first). */
export function ensureBuilt(): void {
  requireFreshDist(['provider', 'components', 'stacks', 'cli', 'lab']);
}

export type RunOutcome =
  | { kind: 'done'; code: number; stdout: string; cpuMs: number; wallMs: number }
  | { kind: 'timeout'; wallMs: number }
  | { kind: 'died'; exitCode: number | null; signal: string | null; stderr: string };

// Runs in the child: stdout and stderr are captured per run, the exit code is main's.
const server = `
const { main } = require(process.argv[1]);
// A write takes the chunk and calls back at once, as a stream with room does.
const capture = (into) => (chunk, encoding, done) => {
  into.push(String(chunk));
  const callback = typeof encoding === 'function' ? encoding : done;
  if (callback) process.nextTick(callback);
  return true;
};
process.on('message', async (argv) => {
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
  async run(argv: string[], limitMs: number): Promise<RunOutcome> {
    const child = await this.started();
    const started = Date.now();
    return new Promise<RunOutcome>((resolve) => {
      const finish = (outcome: RunOutcome) => {
        clearTimeout(timer);
        child.removeAllListeners('message').removeAllListeners('exit');
        resolve(outcome);
      };
      const timer = setTimeout(() => {
        this.stop();
        finish({ kind: 'timeout', wallMs: Date.now() - started });
      }, limitMs);
      child.on('message', (m) => finish({ kind: 'done', ...(m as Omit<RunOutcome & { kind: 'done' }, 'kind'>) }));
      child.on('exit', (exitCode, signal) => {
        this.child = undefined;
        finish({ kind: 'died', exitCode, signal, stderr: this.stderr.slice(-2000) });
      });
      child.send(argv);
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
    const child = spawn(process.execPath, ['-e', server, mainJs], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
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
