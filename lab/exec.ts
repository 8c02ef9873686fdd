/**
 * Running local commands for the lab: argv only (never a shell string built from input), with the
 * failing command and its stderr in the error, and helpers to run inside a network namespace or
 * a chroot (the trixie OVN).
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { processActivity } from './activity';
import { failing } from './errors';
import { stretchedByLoad } from './load';

/** A command's limit on a machine at rest (see `exec`). */
export const QUIET_COMMAND_MS = 30_000;

export interface ExecOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  /** The command's limit on a machine at rest (QUIET_COMMAND_MS unless given; see `exec`). */
  timeoutMs?: number;
  /** Exit codes that count as success (default: 0 only). */
  okCodes?: number[];
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Ends `child` once a round of `quietMs`, stretched by the load when the round starts, passes with
 * the command at rest (no CPU used by it or the children it waited for): a loaded machine makes a
 * command slower, not failed, and a hung one still ends. Returns the stop of the watch and whether
 * it ended the command.
 */
function watch(child: ChildProcess, quietMs: number): { stop(): void; ended(): boolean } {
  const activity = processActivity(() => (child.pid === undefined ? [] : [child.pid]));
  let ended = false;
  let timer: NodeJS.Timeout;
  const round = () => {
    timer = setTimeout(() => {
      if (activity.working()) return round();
      ended = true;
      child.kill('SIGKILL');
    }, stretchedByLoad(quietMs));
  };
  round();
  return { stop: () => clearTimeout(timer), ended: () => ended };
}

export function exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const env = opts.env ? { ...process.env, ...opts.env } : process.env;
    const [file = '', ...args] = argv;
    const quietMs = opts.timeoutMs ?? QUIET_COMMAND_MS;
    const child = execFile(file, args, { env, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      watched.stop();
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      if (code === 0 || (opts.okCodes ?? []).includes(code)) return resolve({ code, stdout, stderr });
      const why = watched.ended()
        ? `ended after ${quietMs / 1000} s (stretched by the load) with no CPU used`
        : stderr.trim() || (error as Error).message;
      reject(failing(`command failed (exit ${code}): ${argv.join(' ')}: ${why}`));
    });
    const watched = watch(child, quietMs);
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** The prefix that runs a command inside a network namespace. */
export function inNamespace(namespace: string, argv: string[]): string[] {
  return ['ip', 'netns', 'exec', namespace, ...argv];
}

/** The prefix that runs a command from another root (trixie); identity when root is undefined. */
export function inRoot(root: string | undefined, argv: string[]): string[] {
  return root ? ['chroot', root, ...argv] : argv;
}

/** Many `ip` commands in one process: one line per command, in the given namespace (or the root one). */
export async function ipBatch(lines: string[], namespace?: string): Promise<void> {
  if (lines.length === 0) return;
  const argv = namespace ? ['ip', '-n', namespace, '-batch', '-'] : ['ip', '-batch', '-'];
  await exec(argv, { input: `${lines.join('\n')}\n` });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
