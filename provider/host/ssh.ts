/**
 * HostRunner over SSH (ssh2): one connection per host, opened on first use and reused; commands
 * to one host run one at a time; connect and per-command timeouts; the host key checked against
 * its pin before anything is sent; public-key authentication only, with a key (material, or a file
 * read at connect time) or the keys of an SSH agent. Key material never appears in messages (a
 * key file's path does).
 */
import { readFile } from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import { Client, type ClientChannel } from 'ssh2';
import {
  HostArgvError,
  HostAuthError,
  HostError,
  HostKeyRejectedError,
  HostTimeoutError,
  HostUnreachableError,
} from './errors';
import { fingerprintOf, type HostKeyPin, verifyHostKey } from './hostkey';
import { argvProblem, quoteArgv } from './quote';
import type { HostRunner, RunOptions, RunResult } from './runner';

export interface SshTarget {
  host: string;
  port?: number;
  user: string;
  /** Path of the private key file (read at connect time); or give `privateKey`. */
  keyPath?: string;
  /** Private key material (e.g. from a Pulumi secret). Never logged. */
  privateKey?: string | Buffer;
  passphrase?: string;
  /** An SSH agent's socket (SSH_AUTH_SOCK): its keys are offered after `keyPath`/`privateKey`, or alone. */
  agent?: string;
  /** The pin: a `SHA256:...` fingerprint or known_hosts text. */
  hostKey?: HostKeyPin;
  /** Accept a key the pin does not cover (never one that contradicts it). Off by default. */
  acceptUnknownHostKey?: boolean;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;

export function describeTarget(target: SshTarget): string {
  return `${target.user}@${target.host}:${target.port ?? 22}`;
}

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
      this.connection = this.openConnection();
      this.connection.catch(() => {
        this.connection = undefined;
      });
    }
    return this.connection;
  }

  private async privateKey(): Promise<string | Buffer | undefined> {
    if (this.target.privateKey !== undefined) return this.target.privateKey;
    if (!this.target.keyPath) {
      if (this.target.agent) return undefined;
      throw new HostAuthError(
        this.describe,
        `no private key for ${this.describe}: give keyPath, privateKey or an SSH agent (key authentication only)`,
      );
    }
    try {
      return await readFile(this.target.keyPath);
    } catch (error) {
      throw new HostAuthError(
        this.describe,
        `cannot read the private key file ${this.target.keyPath} for ${this.describe}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
      );
    }
  }

  private openConnection(): Promise<Client> {
    return this.privateKey().then(
      (privateKey) =>
        new Promise<Client>((resolve, reject) => {
          const client = new Client();
          let rejection: HostError | undefined;
          const timeoutMs = this.target.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
          const timer = setTimeout(
            () =>
              fail(
                new HostUnreachableError(
                  this.describe,
                  `${this.describe} did not complete an SSH handshake within ${timeoutMs} ms`,
                ),
              ),
            timeoutMs,
          );
          const fail = (error: HostError) => {
            clearTimeout(timer);
            client.destroy();
            reject(error);
          };
          client.once('ready', () => {
            clearTimeout(timer);
            client.on('error', () => undefined);
            client.once('close', () => this.forget(client));
            resolve(client);
          });
          // `on`, not `once`: ssh2 may emit a second error (a server that accepts and closes before its
          // banner, as QEMU's user networking does while the guest boots); a missing listener would crash.
          client.on('error', (error: Error & { level?: string; code?: string }) =>
            fail(rejection ?? this.connectError(error, timeoutMs)),
          );
          const config = {
            host: this.target.host,
            port: this.target.port ?? 22,
            username: this.target.user,
            authHandler: [
              ...(privateKey !== undefined ? (['publickey'] as const) : []),
              ...(this.target.agent ? (['agent'] as const) : []),
            ],
            readyTimeout: timeoutMs,
            keepaliveInterval: 15_000,
            hostVerifier: (key: Buffer) => {
              rejection = this.checkHostKey(key);
              return rejection === undefined;
            },
          };
          try {
            client.connect({
              ...config,
              ...(privateKey !== undefined ? { privateKey } : {}),
              ...(this.target.agent ? { agent: this.target.agent } : {}),
              ...(this.target.passphrase ? { passphrase: this.target.passphrase } : {}),
            });
          } catch (error) {
            // ssh2 throws synchronously for unparsable keys; its message names the format, not the key
            fail(
              new HostAuthError(
                this.describe,
                `the private key for ${this.describe}${this.target.keyPath ? ` (${this.target.keyPath})` : ''} is not usable: ${(error as Error).message}`,
              ),
            );
          }
        }),
    );
  }

  private forget(client: Client): void {
    void this.connection?.then(
      (current) => {
        if (current === client) this.connection = undefined;
      },
      () => undefined,
    );
  }

  private checkHostKey(key: Buffer): HostError | undefined {
    const { host, port = 22, hostKey, acceptUnknownHostKey } = this.target;
    const presented = fingerprintOf(key);
    this.presentedFingerprint = presented;
    const verdict = verifyHostKey(key, hostKey, host, port);
    if (verdict.ok) return undefined;
    if (verdict.kind === 'changed') {
      return new HostKeyRejectedError(
        this.describe,
        `${this.describe} presented host key ${presented}, but ${verdict.expected} is pinned: refusing to connect (the key changed, or this is another machine); update the pin only if you know why it changed`,
        presented,
      );
    }
    if (acceptUnknownHostKey) return undefined;
    return new HostKeyRejectedError(
      this.describe,
      `${this.describe} presented host key ${presented}, which no pin covers: refusing to connect; pin it (hostKey: { fingerprint: "${presented}" }) or opt in with acceptUnknownHostKey: true`,
      presented,
    );
  }

  /** Which keys were offered, in words (a file's path, never key material). */
  private keysTried(): string {
    const tried = [
      ...(this.target.keyPath ? [this.target.keyPath] : this.target.privateKey !== undefined ? ['the given key'] : []),
      ...(this.target.agent ? ["the SSH agent's keys"] : []),
    ];
    return tried.length > 0 ? ` with ${tried.join(' and ')}` : '';
  }

  private connectError(error: Error & { level?: string; code?: string }, timeoutMs: number): HostError {
    if (error.level === 'client-authentication') {
      return new HostAuthError(
        this.describe,
        `${this.describe} refused public-key authentication for user ${this.target.user}${this.keysTried()}: check that its public key is in the user's authorized_keys`,
      );
    }
    if (error.level === 'client-timeout')
      return new HostUnreachableError(
        this.describe,
        `${this.describe} did not complete an SSH handshake within ${timeoutMs} ms`,
      );
    return new HostUnreachableError(this.describe, `cannot reach ${this.describe}: ${error.code ?? error.message}`);
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
