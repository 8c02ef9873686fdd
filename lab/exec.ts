/**
 * Running local commands for the lab: argv only (never a shell string built from input), with the
 * failing command and its stderr in the error, and helpers to run inside a network namespace or
 * a chroot (the trixie OVN).
 */
import { execFile } from 'node:child_process';
import { failing } from './errors';

export interface ExecOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
  /** Exit codes that count as success (default: 0 only). */
  okCodes?: number[];
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const env = opts.env ? { ...process.env, ...opts.env } : process.env;
    const [file = '', ...args] = argv;
    const child = execFile(
      file,
      args,
      { env, timeout: opts.timeoutMs ?? 30_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (code === 0 || (opts.okCodes ?? []).includes(code)) return resolve({ code, stdout, stderr });
        const why = stderr.trim() || (error as Error).message;
        reject(failing(`command failed (exit ${code}): ${argv.join(' ')}: ${why}`));
      },
    );
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
