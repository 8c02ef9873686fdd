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
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HostKeyPin } from '../../host/hostkey';
import { own } from '../../model/dict';
import type { TlsMaterial } from '../../ovsdb/transport';
import type { SshCredentials } from '../tunnel';
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

let configured: Settings = { zones: {}, ssh: {} };
let stackConfig: ConfigReader = { get: () => undefined };
/** The settings of the resource whose method is running (its `northbound` input), when it names its own. */
const scoped = new AsyncLocalStorage<Settings>();
const current = (): Settings => scoped.getStore() ?? configured;

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
  configured = readSettings(config);
  stackConfig = config;
}

/** The endpoint of a zone, or undefined when the stack configures none. */
export function endpointOf(zone: string): string | undefined {
  const settings = current();
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
  return current().tls;
}

/** The credentials of a tunnelled Northbound: a key and a pin, or an error naming the keys to set. */
export function requireSsh(endpoint: string): SshCredentials {
  const { privateKey, keyPath, agent, hostKey } = current().ssh;
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
  return current().ssh;
}

/**
 * A Cluster's own Northbound (ClusterArgs.northbound), as its resources carry it in their
 * `northbound` input: endpoints (not secret) and the stack-config namespace whose keys hold its
 * credentials, so a secret stays in the stack's config and only the namespace's name is state.
 */
export interface NorthboundInput {
  nb?: string;
  zoneEndpoints?: Record<string, string>;
  /** `<config>:nb`, `<config>:tlsPrivateKey`, ... in place of `ovnk:...`. */
  config?: string;
}

/** The config with `<namespace>:` read in place of `ovnk:`. */
const namespaced = (config: ConfigReader, namespace: string): ConfigReader => ({
  get: (key) => config.get(key.replace(/^ovnk:/, `${namespace}:`)),
});

/** The settings `northbound` names: its namespace's keys (else the configured ones), its endpoints over them. */
export function settingsOf(northbound: NorthboundInput): Settings {
  const base = northbound.config ? readSettings(namespaced(stackConfig, northbound.config)) : configured;
  return {
    ...base,
    nb: northbound.nb ?? base.nb,
    zones: { ...base.zones, ...(northbound.zoneEndpoints ?? {}) },
  };
}

/** Why a `northbound` input cannot be used (property path and message), or none. */
export function northboundProblems(value: unknown): { property: string; message: string }[] {
  if (value === undefined) return [];
  const n = value as Record<string, unknown>;
  if (n === null || typeof n !== 'object' || Array.isArray(n))
    return [{ property: 'northbound', message: `northbound must be an object, not ${JSON.stringify(value)}` }];
  const problems: { property: string; message: string }[] = [];
  if (n.nb !== undefined && typeof n.nb !== 'string')
    problems.push({ property: 'northbound.nb', message: `must be an endpoint string, not ${JSON.stringify(n.nb)}` });
  const zones = n.zoneEndpoints as Record<string, unknown> | undefined;
  const zonesOk = zones === undefined || (typeof zones === 'object' && zones !== null && !Array.isArray(zones));
  if (!zonesOk || Object.values(zones ?? {}).some((v) => typeof v !== 'string'))
    problems.push({ property: 'northbound.zoneEndpoints', message: 'must map each zone to an endpoint string' });
  if (n.config !== undefined && (typeof n.config !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(n.config)))
    problems.push({
      property: 'northbound.config',
      message: `must name a stack-config namespace (letters, digits, . _ -), not ${JSON.stringify(n.config)}`,
    });
  return problems;
}

/** Run `work` with the settings of the resource whose props are `props` (its `northbound`, when it has one). */
export function withNorthbound<T>(props: unknown, work: () => Promise<T>): Promise<T> {
  const northbound = (props as { northbound?: unknown } | undefined)?.northbound;
  if (northbound === undefined || northboundProblems(northbound).length > 0) return work();
  return scoped.run(settingsOf(northbound as NorthboundInput), work);
}
