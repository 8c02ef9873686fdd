/**
 * One ovsdb-server (OVN Northbound) and a connected client per per-node zone, for a test file:
 * started in beforeAll, closed and stopped in afterAll.
 */
import { afterAll, beforeAll } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { startOvsdbServer, type OvsdbServer } from './ovsdbServer';

export interface ZoneServers {
  servers: OvsdbServer[];
  clients: OvsdbClient[];
}

/** `count` Northbounds, index i for the i-th zone; filled once the file's beforeAll has run. */
export function useZoneServers(count: number): ZoneServers {
  const zones: ZoneServers = { servers: [], clients: [] };
  beforeAll(async () => {
    for (let i = 0; i < count; i++) {
      const server = await startOvsdbServer();
      zones.servers.push(server);
      zones.clients.push(await OvsdbClient.connect(server.unix));
    }
  }, 60_000);
  afterAll(async () => {
    for (const c of zones.clients) c.close();
    for (const s of zones.servers) await s.stop();
  });
  return zones;
}
