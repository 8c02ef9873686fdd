/**
 * The ephemeral port range of SNATs (`external_port_range`): upstream's `--ephemeral-port-range`
 * (config.Gateway.EphemeralPortRange), which ovnkube-controller reads from the node's kernel
 * (`net.ipv4.ip_local_port_range`) when not given, so it is per node in the per-node layout.
 * Checked as upstream's isValidEphemeralPortRange checks it. The empty string means no range:
 * what upstream writes when its gateway is disabled at start-up, as in its own UDN unit tests.
 */
import type { FieldReader, Json } from './fields';

/** Upstream's config.DefaultEphemeralPortRange (Linux's default ip_local_port_range). */
export const DEFAULT_EPHEMERAL_PORT_RANGE = '32768-60999';

/** `<min>-<max>` with 1 <= min < max <= 65535, as upstream's isValidEphemeralPortRange. */
export function isValidPortRange(text: string): boolean {
  const match = /^(\d{1,5})-(\d{1,5})$/.exec(text);
  if (!match) return false;
  const min = Number(match[1]);
  const max = Number(match[2]);
  return min >= 1 && min <= 65535 && max <= 65535 && max > min;
}

/** An optional port range field; a bad one is an InvalidField problem naming it. */
export function readPortRange(r: FieldReader, value: Json, field: string): string | undefined {
  const text = r.string(value, field);
  if (text === undefined || text === '' || isValidPortRange(text)) return text;
  return r.wrong(field, text, 'a port range <min>-<max> with 1 <= min < max <= 65535, or "" for none');
}
