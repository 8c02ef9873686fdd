/**
 * The built `ovnk` as a child process, as a user runs it: exit code, stdout and stderr apart.
 * Refuses a dist/ older than the sources (the contract under test is the compiled program's).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, requireFreshDist } from './dist';
import { stretchedByLoad } from './load';

export const cliPath = join(repoRoot, 'dist', 'cli', 'main.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

let checked = false;

/**
 * How long one CLI run may take before it is killed (a hung run must end: `spawnSync` blocks the
 * worker, so no test timeout can): `quietMs` on a machine at rest, stretched by the load when the
 * run starts.
 */
export function cliTimeoutMs(quietMs = 120_000): number {
  return stretchedByLoad(quietMs);
}

/** Run `ovnk ...args` with `input` on stdin (default: none), from the repository root. */
export function ovnk(args: string[], options: { input?: string; cwd?: string } = {}): CliRun {
  if (!checked) requireFreshDist(['cli', 'provider', 'lab', 'components', 'stacks']);
  checked = true;
  const run = spawnSync(process.execPath, [cliPath, ...args], {
    encoding: 'utf8',
    cwd: options.cwd ?? repoRoot,
    input: options.input ?? '',
    maxBuffer: 256 * 1024 * 1024,
    timeout: cliTimeoutMs(),
  });
  return { code: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}

/** `ovnk ...args` without blocking this process (a test's own servers keep answering meanwhile). */
export function ovnkAsync(args: string[], options: { input?: string } = {}): Promise<CliRun> {
  if (!checked) requireFreshDist(['cli', 'provider', 'lab', 'components', 'stacks']);
  checked = true;
  const child = spawn(process.execPath, [cliPath, ...args], { cwd: repoRoot, timeout: cliTimeoutMs() });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => err.push(d));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }),
    );
  });
}

/** The JSON document on stdout (fails the test with the output when it is not one). */
export function documentOf(run: CliRun): any {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(
      `stdout is not one JSON document (exit ${run.code}):\n${run.stdout.slice(0, 2000)}\nstderr:\n${run.stderr}`,
    );
  }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `ovnk ...args` with stderr on a real pseudo-terminal (util-linux `script`) and stdout in a file:
 * `terminal` is what a person at the terminal saw (stderr only), `stdout` the result.
 */
export function onTerminal(args: string[]): CliRun & { terminal: string } {
  if (!checked) requireFreshDist(['cli', 'provider', 'lab', 'components', 'stacks']);
  checked = true;
  const dir = mkdtempSync(join(tmpdir(), 'ovnk-tty-'));
  try {
    const out = join(dir, 'stdout');
    const command = `${[process.execPath, cliPath, ...args].map(quote).join(' ')} >${quote(out)}`;
    const run = spawnSync('script', ['-qec', command, '/dev/null'], {
      encoding: 'utf8',
      cwd: repoRoot,
      input: '',
      timeout: cliTimeoutMs(300_000),
    });
    const terminal = run.stdout.replace(/\r/g, '');
    return { code: run.status ?? -1, terminal, stdout: readFileSync(out, 'utf8'), stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
