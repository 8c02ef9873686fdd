/**
 * HostRunner over SSH (ssh2): one connection per host, opened on first use (sshConnect.ts) and reused; commands
 * to one host run one at a time; connect and per-command timeouts; the host key checked against
 * its pin before anything is sent; public-key authentication only, with a key (material, or a file
 * read at connect time) or the keys of an SSH agent. Key material never appears in messages (a
 * key file's path does).
 */
import type { Duplex } from 'node:stream';
import type { Client, ClientChannel } from 'ssh2';
import { HostArgvError, HostError, HostTimeoutError, HostUnreachableError } from './errors';
import { argvProblem, quoteArgv } from './quote';
import type { HostRunner, RunOptions, RunResult } from './runner';
import { describeTarget, openSshConnection, type SshTarget } from './sshConnect';

export { describeTarget, type SshTarget } from './sshConnect';

const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;

export class SshHostRunner implements HostRunner {
  readonly describe: string;
  /** The fingerprint the server presented on the last connect (for trust-on-first-use callers). */
  presentedFingerprint?: string;
  private connection?: Promise<Client>;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly target: SshTarget) {
    this.describe = describeTarget(target);
  }

  run(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
    const problem = argvProblem(argv);
    if (problem)
      return Promise.reject(
        new HostArgvError(this.describe, problem.field, `${problem.field} ${problem.reason} (host ${this.describe})`),
      );
    const job = this.queue.then(() => this.execute(argv, opts));
    this.queue = job.catch(() => undefined);
    return job;
  }

  /** A fresh stream to a unix socket on the host (OpenSSH stream-local forwarding), on the shared connection. */
  async forwardUnixSocket(socketPath: string): Promise<Duplex> {
    const client = await this.connect();
    return new Promise((resolve, reject) => {
      client.openssh_forwardOutStreamLocal(socketPath, (error, channel) => {
        if (error)
          reject(
            new HostUnreachableError(
              this.describe,
              `cannot open unix socket ${socketPath} on ${this.describe} through SSH: ${error.message} (the server must allow AllowStreamLocalForwarding)`,
            ),
          );
        else resolve(channel);
      });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.connection;
    this.connection = undefined;
    if (!pending) return;
    const client = await pending.catch(() => undefined);
    if (!client) return;
    await new Promise<void>((resolve) => {
      client.once('close', () => resolve());
      client.end();
    });
  }

  private connect(): Promise<Client> {
    if (this.closed)
      return Promise.reject(new HostError(this.describe, 'closed', `the runner for ${this.describe} is closed`));
    if (!this.connection) {
      this.connection = openSshConnection(
        this.target,
        (fingerprint) => (this.presentedFingerprint = fingerprint),
        (client) => this.forget(client),
      );
      this.connection.catch(() => {
        this.connection = undefined;
      });
    }
    return this.connection;
  }

  private forget(client: Client): void {
    void this.connection?.then(
      (current) => {
        if (current === client) this.connection = undefined;
      },
      () => undefined,
    );
  }

  private async execute(argv: string[], opts: RunOptions): Promise<RunResult> {
    const client = await this.connect();
    return new Promise<RunResult>((resolve, reject) => {
      client.exec(quoteArgv(argv), (error, channel) => {
        if (error)
          return reject(
            new HostUnreachableError(this.describe, `${this.describe} refused to run a command: ${error.message}`),
          );
        // listen at once: ssh2 may emit 'exit' while parsing the same packet batch, before any await resumes
        this.collect(channel, argv, opts).then(resolve, reject);
      });
    });
  }

  private collect(channel: ClientChannel, argv: string[], opts: RunOptions): Promise<RunResult> {
    const timeoutMs = opts.timeoutMs ?? this.target.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let exit: { code: number; signal?: string } | undefined;
      const timer = setTimeout(() => {
        channel.signal('KILL');
        channel.close();
        reject(
          new HostTimeoutError(
            this.describe,
            `${argv[0]} on ${this.describe} did not finish within ${timeoutMs} ms; it was killed`,
          ),
        );
      }, timeoutMs);
      channel.on('data', (chunk: Buffer) => stdout.push(chunk));
      channel.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      channel.on('exit', (code: number | null, signal?: string) => {
        exit = code === null ? { code: -1, signal } : { code };
      });
      channel.on('close', () => {
        clearTimeout(timer);
        const result = {
          exitCode: exit?.code ?? -1,
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
        };
        resolve(exit?.signal ? { ...result, signal: exit.signal } : result);
      });
      channel.end(opts.stdin);
    });
  }
}
