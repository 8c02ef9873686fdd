/**
 * Where each zone's Northbound is and how to reach it, from the stack configuration the host
 * hands to configure() (decrypted, never copied into resource state or outputs): `ovnk:nb` is the
 * endpoint of every zone, `ovnk:zoneEndpoints` a JSON object zone -> endpoint that overrides it;
 * `ssl:` endpoints use `ovnk:tlsPrivateKey`, `ovnk:tlsCertificate`, `ovnk:tlsCaCertificate` (PEM);
 * `ssh://user@host[:port]/unix:/path` endpoints are tunnelled, and Uplink nodes reached, with an
 * SSH key: `ovnk:sshPrivateKey` (a secret), `ovnk:sshKeyFile` (a key file on the machine running
 * Pulumi) or, without either, the agent of SSH_AUTH_SOCK; the Northbound's host key is pinned by
 * `ovnk:sshKnownHosts` (known_hosts text) or `ovnk:sshHostKeyFingerprint` (`SHA256:...`), a
 * node's by its Inventory `hostKey` (or `ovnk:sshKnownHosts`). Config is not resource state: no
 * key and no key path ever lands there. Module-level, so every resource kind served by one host
 * process sees them. Errors name a secret key, never its value.
 */
import type { HostKeyPin } from '../../host/hostkey';
import type { TlsMaterial } from '../../ovsdb/transport';
import type { SshCredentials } from '../tunnel';
import type { ConfigReader } from './protocol';
import { own } from '../../model/dict';

export const NB_KEY = 'ovnk:nb';
export const ZONES_KEY = 'ovnk:zoneEndpoints';
export const TLS_KEYS = {
  key: 'ovnk:tlsPrivateKey',
  cert: 'ovnk:tlsCertificate',
  ca: 'ovnk:tlsCaCertificate',
} as const;
export const SSH_KEYS = {
  privateKey: 'ovnk:sshPrivateKey',
  keyFile: 'ovnk:sshKeyFile',
  knownHosts: 'ovnk:sshKnownHosts',
  fingerprint: 'ovnk:sshHostKeyFingerprint',
} as const;

/** The SSH key (material, file or agent) and the configured pin, each when set. */
export interface SshSettings {
  privateKey?: string;
  keyPath?: string;
  agent?: string;
  hostKey?: HostKeyPin;
}

export interface Settings {
  nb?: string;
  zones: Record<string, string>;
  tls?: TlsMaterial;
  ssh: SshSettings;
}

let settings: Settings = { zones: {}, ssh: {} };

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

function readSsh(config: ConfigReader): SshSettings {
  const privateKey = config.get(SSH_KEYS.privateKey) || undefined;
  const keyPath = config.get(SSH_KEYS.keyFile) || undefined;
  const agent = process.env.SSH_AUTH_SOCK || undefined;
  const knownHosts = config.get(SSH_KEYS.knownHosts);
  const fingerprint = config.get(SSH_KEYS.fingerprint);
  if (fingerprint && !/^SHA256:[A-Za-z0-9+/]+=*$/.test(fingerprint))
    throw new ConfigError(
      `${SSH_KEYS.fingerprint} ${JSON.stringify(fingerprint)} is not an OpenSSH SHA256:... fingerprint`,
    );
  const hostKey: HostKeyPin | undefined = knownHosts ? { knownHosts } : fingerprint ? { fingerprint } : undefined;
  return { privateKey, keyPath, agent, hostKey };
}

/** Where an SSH key can come from, in words, for errors. */
export const SSH_KEY_SOURCES = `${SSH_KEYS.privateKey} (a secret), ${SSH_KEYS.keyFile}, or an SSH agent (SSH_AUTH_SOCK)`;

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
  return own(settings.zones, zone) ?? settings.nb;
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

/** The credentials of a tunnelled Northbound: a key and a pin, or an error naming the keys to set. */
export function requireSsh(endpoint: string): SshCredentials {
  const { privateKey, keyPath, agent, hostKey } = settings.ssh;
  if (!privateKey && !keyPath && !agent)
    throw new ConfigError(`${endpoint} is tunnelled through SSH: set ${SSH_KEY_SOURCES}`);
  if (!hostKey)
    throw new ConfigError(
      `${endpoint} is tunnelled through SSH but no host key is pinned: set ${SSH_KEYS.knownHosts} or ${SSH_KEYS.fingerprint}`,
    );
  return { privateKey, keyPath, agent, hostKey };
}

/** The SSH key settings for Uplink nodes (their pins come from the Inventory, else the configured one). */
export function sshSettings(): SshSettings {
  return settings.ssh;
}
