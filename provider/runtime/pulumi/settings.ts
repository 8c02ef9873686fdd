/**
 * Where each zone's Northbound is and how to reach it, from the stack configuration the host
 * hands to configure() (decrypted, never copied into resource state or outputs): `ovnk:nb` is the
 * endpoint of every zone, `ovnk:zoneEndpoints` a JSON object zone -> endpoint that overrides it;
 * `ssl:` endpoints use `ovnk:tlsPrivateKey`, `ovnk:tlsCertificate`, `ovnk:tlsCaCertificate` (PEM);
 * `ssh://user@host[:port]/unix:/path` endpoints are tunnelled with `ovnk:sshPrivateKey`, the host
 * key pinned by `ovnk:sshKnownHosts` (known_hosts text) or `ovnk:sshHostKeyFingerprint`
 * (`SHA256:...`). Module-level, so every resource kind served by one host process sees them.
 * Errors name a secret key, never its value.
 */
import type { HostKeyPin } from '../../host/hostkey';
import type { TlsMaterial } from '../../ovsdb/transport';
import type { ConfigReader } from './protocol';

export const NB_KEY = 'ovnk:nb';
export const ZONES_KEY = 'ovnk:zoneEndpoints';
export const TLS_KEYS = {
  key: 'ovnk:tlsPrivateKey',
  cert: 'ovnk:tlsCertificate',
  ca: 'ovnk:tlsCaCertificate',
} as const;
export const SSH_KEYS = {
  privateKey: 'ovnk:sshPrivateKey',
  knownHosts: 'ovnk:sshKnownHosts',
  fingerprint: 'ovnk:sshHostKeyFingerprint',
} as const;

export interface SshSettings {
  privateKey: string;
  hostKey: HostKeyPin;
}

export interface Settings {
  nb?: string;
  zones: Record<string, string>;
  tls?: TlsMaterial;
  ssh?: SshSettings;
}

let settings: Settings = { zones: {} };

/** A configuration value that cannot be used, naming the key (and the value unless it is a secret) and why. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function readZones(text: string | undefined): Record<string, string> {
  if (text === undefined || text === '') return {};
  let zones: unknown;
  try {
    zones = JSON.parse(text);
  } catch {
    throw new ConfigError(`${ZONES_KEY} ${JSON.stringify(text)} is not JSON (expected an object zone -> endpoint)`);
  }
  const valid =
    zones !== null &&
    typeof zones === 'object' &&
    !Array.isArray(zones) &&
    Object.values(zones).every((v) => typeof v === 'string');
  if (!valid) throw new ConfigError(`${ZONES_KEY} ${text} must be an object mapping each zone to an endpoint string`);
  return zones as Record<string, string>;
}

function readTls(config: ConfigReader): TlsMaterial | undefined {
  const values = { key: config.get(TLS_KEYS.key), cert: config.get(TLS_KEYS.cert), ca: config.get(TLS_KEYS.ca) };
  const missing = (Object.keys(TLS_KEYS) as (keyof typeof TLS_KEYS)[]).filter((k) => !values[k]);
  if (missing.length === 3) return undefined;
  if (missing.length > 0)
    throw new ConfigError(
      `TLS material is incomplete: ${missing.map((k) => TLS_KEYS[k]).join(', ')} not set (an ssl: endpoint needs a private key, a certificate and the CA)`,
    );
  return values as TlsMaterial;
}

function readSsh(config: ConfigReader): SshSettings | undefined {
  const privateKey = config.get(SSH_KEYS.privateKey);
  const knownHosts = config.get(SSH_KEYS.knownHosts);
  const fingerprint = config.get(SSH_KEYS.fingerprint);
  if (!privateKey) return undefined;
  if (fingerprint && !/^SHA256:[A-Za-z0-9+/]+=*$/.test(fingerprint))
    throw new ConfigError(
      `${SSH_KEYS.fingerprint} ${JSON.stringify(fingerprint)} is not an OpenSSH SHA256:... fingerprint`,
    );
  const hostKey: HostKeyPin | undefined = knownHosts ? { knownHosts } : fingerprint ? { fingerprint } : undefined;
  if (!hostKey)
    throw new ConfigError(
      `${SSH_KEYS.privateKey} is set but no host key is pinned: set ${SSH_KEYS.knownHosts} or ${SSH_KEYS.fingerprint}`,
    );
  return { privateKey, hostKey };
}

export function readSettings(config: ConfigReader): Settings {
  return {
    nb: config.get(NB_KEY) || undefined,
    zones: readZones(config.get(ZONES_KEY)),
    tls: readTls(config),
    ssh: readSsh(config),
  };
}

export function configureSettings(config: ConfigReader): void {
  settings = readSettings(config);
}

/** The endpoint of a zone, or undefined when the stack configures none. */
export function endpointOf(zone: string): string | undefined {
  return settings.zones[zone] ?? settings.nb;
}

export function requireEndpoint(zone: string): string {
  const endpoint = endpointOf(zone);
  if (endpoint === undefined)
    throw new ConfigError(
      `no Northbound endpoint for zone "${zone}": set the stack config ${NB_KEY} (every zone) or ${ZONES_KEY} (per zone)`,
    );
  return endpoint;
}

export function tlsMaterial(): TlsMaterial | undefined {
  return settings.tls;
}

export function requireSsh(endpoint: string): SshSettings {
  if (!settings.ssh)
    throw new ConfigError(
      `${endpoint} is tunnelled through SSH: set ${SSH_KEYS.privateKey} (a secret) and ${SSH_KEYS.knownHosts} or ${SSH_KEYS.fingerprint}`,
    );
  return settings.ssh;
}
