import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nbOptionsFor } from '../../../cli/commands/nbCredentials';
import { CliError } from '../../../cli/contract';

// issue 25 point 7: a certificate given where a key is expected failed only with OpenSSL's codes
const dir = mkdtempSync(join(tmpdir(), 'ovnk-pem-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pem = (name: string, label: string) => {
  const file = join(dir, name);
  writeFileSync(file, `-----BEGIN ${label}-----\nAAAA\n-----END ${label}-----\n`);
  return file;
};
const cert = pem('cert.pem', 'CERTIFICATE');
const key = pem('key.pem', 'PRIVATE KEY');
const opensshKey = pem('id_ed25519', 'OPENSSH PRIVATE KEY');

function refusal(body: () => unknown): CliError {
  try {
    body();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('key and certificate flags', () => {
  it('refuse a certificate given as --private-key, naming the flag and what the file holds (exit 3)', () => {
    const error = refusal(() =>
      nbOptionsFor('ssl:127.0.0.1:6641', { privateKey: cert, certificate: cert, caCert: cert }),
    );
    expect(error.exitCode).toBe(3);
    expect(error.details.path).toBe('--private-key');
    expect(error.message).toBe(`--private-key ${cert} holds a PEM certificate, not a private key`);
  });

  it('refuse a key given as --ca-cert, and a certificate given as --ssh-key', () => {
    expect(
      refusal(() => nbOptionsFor('ssl:127.0.0.1:6641', { privateKey: key, certificate: cert, caCert: key })).details
        .path,
    ).toBe('--ca-cert');
    const ssh = refusal(() =>
      nbOptionsFor('ssh://root@127.0.0.1/unix:/run/db.sock', {
        sshKey: cert,
        sshFingerprint: `SHA256:${'A'.repeat(43)}`,
      }),
    );
    expect(ssh.details.path).toBe('--ssh-key');
    expect(ssh.message).not.toContain('AAAA');
  });

  it('take the right files', () => {
    expect(nbOptionsFor('ssl:127.0.0.1:6641', { privateKey: key, certificate: cert, caCert: cert }).tls).toBeDefined();
    expect(
      nbOptionsFor('ssh://root@127.0.0.1/unix:/run/db.sock', {
        sshKey: opensshKey,
        sshFingerprint: `SHA256:${'A'.repeat(43)}`,
      }).ssh?.keyPath,
    ).toBe(opensshKey);
  });
});
