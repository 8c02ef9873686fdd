/**
 * What Northbound-only zones for benchmarks of `apply` are made of (bench/zoneActivation.ts starts
 * them): per node one standalone ovsdb-server holding OVN_Northbound (NB_Global named after the
 * node, as the lab's zones have it), no Southbound and no northd, which `apply` never reads. A lab
 * zone's Southbound and northd took about 1.7 GB beside its Northbound (issue 30.6). The schema is
 * the lab's OVN root's (trixie) when that root is built, else the host's; and the servers' memory.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { trixieRoot } from '../lab/trixie';
import { OvsdbClient } from '../provider/ovsdb/client';
import { NB_SCHEMA, type OvsdbServer } from '../test/support/ovsdbServer';

/** The Northbound schema of the lab's OVN root when it is built, else the host's. */
export function labSchema(): string {
  const trixie = path.join(trixieRoot(), 'usr', 'share', 'ovn', 'ovn-nb.ovsschema');
  return existsSync(trixie) ? trixie : NB_SCHEMA;
}

/** NB_Global named after the node, as upstream's per-node zones have it. */
export async function nameZone(server: Pick<OvsdbServer, 'unix'>, name: string): Promise<void> {
  const client = await OvsdbClient.connect(server.unix);
  try {
    await client.transact('OVN_Northbound', [{ op: 'insert', table: 'NB_Global', row: { name } }]);
  } finally {
    client.close();
  }
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
