/**
 * Where each zone's Northbound is, from the stack configuration the host hands to configure()
 * (decrypted, never copied into resource state): `ovnk:nb` is the endpoint of every zone,
 * `ovnk:zoneEndpoints` a JSON object zone -> endpoint that overrides it per zone. Module-level,
 * so every resource kind served by one host process sees the same settings.
 */
import type { ConfigReader } from './protocol';

export const NB_KEY = 'ovnk:nb';
export const ZONES_KEY = 'ovnk:zoneEndpoints';

export interface Settings {
  nb?: string;
  zones: Record<string, string>;
}

let settings: Settings = { zones: {} };

/** A configuration value that cannot be used, naming the key, the value and why. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function readSettings(config: ConfigReader): Settings {
  const nb = config.get(NB_KEY) || undefined;
  const text = config.get(ZONES_KEY);
  if (text === undefined || text === '') return { nb, zones: {} };
  let zones: unknown;
  try {
    zones = JSON.parse(text);
  } catch {
    throw new ConfigError(`${ZONES_KEY} ${JSON.stringify(text)} is not JSON (expected an object zone -> endpoint)`);
  }
  const valid = zones !== null && typeof zones === 'object' && !Array.isArray(zones) && Object.values(zones).every((v) => typeof v === 'string');
  if (!valid) throw new ConfigError(`${ZONES_KEY} ${text} must be an object mapping each zone to an endpoint string`);
  return { nb, zones: zones as Record<string, string> };
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
  if (endpoint === undefined) throw new ConfigError(`no Northbound endpoint for zone "${zone}": set the stack config ${NB_KEY} (every zone) or ${ZONES_KEY} (per zone)`);
  return endpoint;
}
