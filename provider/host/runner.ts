/**
 * The HostRunner contract: run an argv on a node and get its exit code, stdout and stderr. Argv
 * only: implementations quote it for the remote shell, so no input ever becomes shell syntax.
 */

export interface RunOptions {
  /** Kill the command and fail with HostTimeoutError after this long (default: the runner's). */
  timeoutMs?: number;
  /** Written to the command's stdin, which is then closed. */
  stdin?: string | Buffer;
}

export interface RunResult {
  /** The command's exit status; -1 when it died of a signal (see `signal`). */
  exitCode: number;
  signal?: string;
  stdout: string;
  stderr: string;
}

export interface HostRunner {
  /** A name for messages, e.g. `root@198.18.1.12:22`. */
  readonly describe: string;
  run(argv: string[], opts?: RunOptions): Promise<RunResult>;
  close(): Promise<void>;
}

/**
 * `argv`'s stdout on `runner`; a non-zero exit throws an error naming the command, the node, the
 * exit code and the command's words, unless those words match `accepted` (an answer that means
 * done, such as "not there" to a delete).
 */
export async function commandOutput(
  runner: HostRunner,
  argv: string[],
  opts: RunOptions & { accepted?: RegExp } = {},
): Promise<string> {
  const { accepted, ...runOptions } = opts;
  const result = await runner.run(argv, runOptions);
  const words = `${result.stderr.trim()} ${result.stdout.trim()}`.trim();
  if (result.exitCode !== 0 && !accepted?.test(words))
    throw new Error(`${argv.join(' ')} on ${runner.describe} failed (exit ${result.exitCode}): ${words}`);
  return result.stdout;
}
