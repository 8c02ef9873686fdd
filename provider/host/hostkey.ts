/**
 * Host-key pinning: a pin is an OpenSSH `SHA256:...` fingerprint or known_hosts text. A key the
 * pin does not cover is "unknown" (acceptable only on explicit opt-in); a key that differs from
 * the pin is "changed" (always refused). Pure.
 */
import { createHash, createHmac } from 'node:crypto';

export type HostKeyPin = { fingerprint: string } | { knownHosts: string };

export type HostKeyVerdict = { ok: true } | { ok: false; kind: 'unknown' | 'changed'; expected?: string };

/** OpenSSH's fingerprint of a public key blob (SSH wire format). */
export function fingerprintOf(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

function normalizeFingerprint(text: string): string {
  const trimmed = text.trim().replace(/=+$/, '');
  return trimmed.startsWith('SHA256:') ? trimmed : `SHA256:${trimmed}`;
}

/** The names a known_hosts line uses for host:port. */
function hostNames(host: string, port: number): string[] {
  return port === 22 ? [host, `[${host}]:22`] : [`[${host}]:${port}`];
}

/** Does one known_hosts host field (comma list, or hashed |1|salt|hash) name this host? */
function fieldMatches(field: string, names: string[]): boolean {
  if (field.startsWith('|1|')) {
    const [, , salt, hash] = field.split('|');
    if (salt === undefined || hash === undefined) return false;
    return names.some((name) => createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64') === hash);
  }
  return field.split(',').some((pattern) => names.includes(pattern));
}

/** Key blobs (base64) that known_hosts text lists for host:port; @revoked and @cert-authority lines are skipped. */
export function knownKeysFor(knownHosts: string, host: string, port: number): string[] {
  const names = hostNames(host, port);
  return knownHosts
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .flatMap(([field, , key]) =>
      field !== undefined && key !== undefined && !/^[#@]/.test(field) && fieldMatches(field, names) ? [key] : [],
    );
}

export function verifyHostKey(
  keyBlob: Buffer,
  pin: HostKeyPin | undefined,
  host: string,
  port: number,
): HostKeyVerdict {
  if (!pin) return { ok: false, kind: 'unknown' };
  if ('fingerprint' in pin) {
    const expected = normalizeFingerprint(pin.fingerprint);
    return fingerprintOf(keyBlob) === expected ? { ok: true } : { ok: false, kind: 'changed', expected };
  }
  const known = knownKeysFor(pin.knownHosts, host, port);
  if (known.length === 0) return { ok: false, kind: 'unknown' };
  const presented = keyBlob.toString('base64');
  return known.includes(presented)
    ? { ok: true }
    : { ok: false, kind: 'changed', expected: known.map((k) => fingerprintOf(Buffer.from(k, 'base64'))).join(' or ') };
}
