/**
 * A zone's Northbound connection for the providers: the endpoint the stack configures for the
 * zone, with the configured TLS material for `ssl:` and SSH credentials for `ssh://` (tunnelled by
 * provider/runtime/tunnel.ts), from the runtime's shared pool.
 */
import type { OvsdbDatabase } from '../../ovsdb/client';
import { nbConnection } from '../connections';
import { requireEndpoint, requireSsh, tlsMaterial } from './settings';

export async function zoneDatabase(zone: string): Promise<OvsdbDatabase> {
  const endpoint = requireEndpoint(zone);
  const field = `zone ${zone}`;
  if (endpoint.startsWith('ssh://')) return nbConnection(endpoint, field, { ssh: requireSsh(endpoint) });
  return nbConnection(endpoint, field, endpoint.startsWith('ssl:') ? { tls: tlsMaterial() } : {});
}
