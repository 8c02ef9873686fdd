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
