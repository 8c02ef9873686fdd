/**
 * Northbound-only zones for benchmarks of `apply`: per node one standalone ovsdb-server holding
 * OVN_Northbound (NB_Global named after the node, as the lab's zones have it), no Southbound and no
 * northd, which `apply` never reads. A lab zone's Southbound and northd took about 1.7 GB beside
 * its Northbound (issue 30.6), so these let a run hold many more real zones. The schema is the
 * lab's OVN root's (trixie) when that root is built, else the host's.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { trixieRoot } from '../lab/trixie';
import { OvsdbClient } from '../provider/ovsdb/client';
import { NB_SCHEMA, type OvsdbServer, startOvsdbServer } from '../test/support/ovsdbServer';

export interface NbZones {
  /** `unix:` endpoint of each zone's Northbound, by node name. */
  endpoints: Map<string, string>;
  servers: OvsdbServer[];
  /** Stops every server (by its pid) and removes its files. */
  stop(): Promise<void>;
}

function labSchema(): string {
  const trixie = path.join(trixieRoot(), 'usr', 'share', 'ovn', 'ovn-nb.ovsschema');
  return existsSync(trixie) ? trixie : NB_SCHEMA;
}

async function nameZone(server: OvsdbServer, name: string): Promise<void> {
  const client = await OvsdbClient.connect(server.unix);
  try {
    await client.transact('OVN_Northbound', [{ op: 'insert', table: 'NB_Global', row: { name } }]);
  } finally {
    client.close();
  }
}

/** One Northbound server per name, started a few at a time. */
export async function startNbZones(names: string[]): Promise<NbZones> {
  const schema = labSchema();
  const servers: OvsdbServer[] = [];
  const endpoints = new Map<string, string>();
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
  try {
    for (let i = 0; i < names.length; i += 8) {
      const started = await Promise.all(
        names.slice(i, i + 8).map(async (name) => {
          const server = await startOvsdbServer({ schema });
          servers.push(server);
          await nameZone(server, name);
          return [name, server.unix] as const;
        }),
      );
      for (const [name, unix] of started) endpoints.set(name, unix);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoints, servers, stop };
}

/** Resident and peak resident MiB of a process (proc(5) VmRSS, VmHWM). */
export function residentMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** MiB the kernel says can still be given to new processes (proc(5) MemAvailable). */
export function availableMiB(): number {
  const meminfo = readFileSync('/proc/meminfo', 'utf8');
  return Number(/^MemAvailable:\s+(\d+) kB/m.exec(meminfo)?.[1] ?? 0) / 1024;
}
