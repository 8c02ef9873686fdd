/**
 * The digest of the credentials a connection is opened with (key material, passphrase, agent,
 * host-key pins, TLS material), in memory only: pools key their connections by it, so two
 * callers that differ in any credential (two clusters of one program) never share a connection,
 * and the key material itself is never a map key, a message or a stored value.
 */
import { createHash } from 'node:crypto';

/** SHA-256 (hex) of `material`, a serialization the caller makes canonical for its own shape. */
export function credentialDigest(material: string): string {
  return createHash('sha256').update(material).digest('hex');
}
