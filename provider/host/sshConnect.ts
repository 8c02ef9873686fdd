/**
 * Opening an SSH connection for SshHostRunner (ssh.ts): the target's key (material, a file read at
 * connect time, or none with an agent), the handshake within the connect timeout, the host key
 * checked against its pin before anything is sent, and ssh2's failures as the host layer's errors,
 * naming the keys offered (a key file's path, never key material).
 */
import { readFile } from 'node:fs/promises';
import { Client } from 'ssh2';
import { HostAuthError, type HostError, HostKeyRejectedError, HostUnreachableError } from './errors';
import { fingerprintOf, type HostKeyPin, verifyHostKey } from './hostkey';

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

export function describeTarget(target: SshTarget): string {
  return `${target.user}@${target.host}:${target.port ?? 22}`;
}

async function privateKeyOf(target: SshTarget, describe: string): Promise<string | Buffer | undefined> {
  if (target.privateKey !== undefined) return target.privateKey;
  if (!target.keyPath) {
    if (target.agent) return undefined;
    throw new HostAuthError(
      describe,
      `no private key for ${describe}: give keyPath, privateKey or an SSH agent (key authentication only)`,
    );
  }
  try {
    return await readFile(target.keyPath);
  } catch (error) {
    throw new HostAuthError(
      describe,
      `cannot read the private key file ${target.keyPath} for ${describe}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
}

/**
 * A ready, authenticated connection to `target`, its host key checked; `presented` hears the
 * fingerprint the server showed, `closed` that the connection went away after it was ready.
 */
export function openSshConnection(
  target: SshTarget,
  presented: (fingerprint: string) => void,
  closed: (client: Client) => void,
): Promise<Client> {
  const describe = describeTarget(target);
  return privateKeyOf(target, describe).then(
    (privateKey) =>
      new Promise<Client>((resolve, reject) => {
        const client = new Client();
        let rejection: HostError | undefined;
        const timeoutMs = target.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
        const timer = setTimeout(
          () =>
            fail(
              new HostUnreachableError(
                describe,
                `${describe} did not complete an SSH handshake within ${timeoutMs} ms`,
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
          client.once('close', () => closed(client));
          resolve(client);
        });
        // `on`, not `once`: ssh2 may emit a second error (a server that accepts and closes before its
        // banner, as QEMU's user networking does while the guest boots); a missing listener would crash.
        client.on('error', (error: Error & { level?: string; code?: string }) =>
          fail(rejection ?? connectError(target, describe, error, timeoutMs)),
        );
        const config = {
          host: target.host,
          port: target.port ?? 22,
          username: target.user,
          authHandler: [
            ...(privateKey !== undefined ? (['publickey'] as const) : []),
            ...(target.agent ? (['agent'] as const) : []),
          ],
          readyTimeout: timeoutMs,
          keepaliveInterval: 15_000,
          hostVerifier: (key: Buffer) => {
            rejection = checkHostKey(target, describe, key, presented);
            return rejection === undefined;
          },
        };
        try {
          client.connect({
            ...config,
            ...(privateKey !== undefined ? { privateKey } : {}),
            ...(target.agent ? { agent: target.agent } : {}),
            ...(target.passphrase ? { passphrase: target.passphrase } : {}),
          });
        } catch (error) {
          // ssh2 throws synchronously for unparsable keys; its message names the format, not the key
          fail(
            new HostAuthError(
              describe,
              `the private key for ${describe}${target.keyPath ? ` (${target.keyPath})` : ''} is not usable: ${(error as Error).message}`,
            ),
          );
        }
      }),
  );
}

function checkHostKey(
  target: SshTarget,
  describe: string,
  key: Buffer,
  presented: (fingerprint: string) => void,
): HostError | undefined {
  const { host, port = 22, hostKey, acceptUnknownHostKey } = target;
  const fingerprint = fingerprintOf(key);
  presented(fingerprint);
  const verdict = verifyHostKey(key, hostKey, host, port);
  if (verdict.ok) return undefined;
  if (verdict.kind === 'changed') {
    return new HostKeyRejectedError(
      describe,
      `${describe} presented host key ${fingerprint}, but ${verdict.expected} is pinned: refusing to connect (the key changed, or this is another machine); update the pin only if you know why it changed`,
      fingerprint,
    );
  }
  if (acceptUnknownHostKey) return undefined;
  return new HostKeyRejectedError(
    describe,
    `${describe} presented host key ${fingerprint}, which no pin covers: refusing to connect; pin it (hostKey: { fingerprint: "${fingerprint}" }) or opt in with acceptUnknownHostKey: true`,
    fingerprint,
  );
}

/** Which keys were offered, in words (a file's path, never key material). */
function keysTried(target: SshTarget): string {
  const tried = [
    ...(target.keyPath ? [target.keyPath] : target.privateKey !== undefined ? ['the given key'] : []),
    ...(target.agent ? ["the SSH agent's keys"] : []),
  ];
  return tried.length > 0 ? ` with ${tried.join(' and ')}` : '';
}

function connectError(
  target: SshTarget,
  describe: string,
  error: Error & { level?: string; code?: string },
  timeoutMs: number,
): HostError {
  if (error.level === 'client-authentication') {
    return new HostAuthError(
      describe,
      `${describe} refused public-key authentication for user ${target.user}${keysTried(target)}: check that its public key is in the user's authorized_keys`,
    );
  }
  if (error.level === 'client-timeout')
    return new HostUnreachableError(describe, `${describe} did not complete an SSH handshake within ${timeoutMs} ms`);
  return new HostUnreachableError(describe, `cannot reach ${describe}: ${error.code ?? error.message}`);
}
