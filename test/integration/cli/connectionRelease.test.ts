import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApply } from '../../../cli/commands/apply';
import { closeConnections } from '../../../provider/runtime/cli';
import { chassisNode, layer3AndLayer2, useZoneNorthbounds } from '../../support/worlds';

// A CLI run holds a zone's Northbound only while it works on that zone (connections.ts
// leaseConnection, cluster/zones.ts onZones): at most --parallel at once, none once the run is
// over, though the process has not closed its pool yet. Counted on the real servers' side: the
// sockets each ovsdb-server holds beyond the ones it listens on (/proc/<pid>/fd), sampled while
// `runApply` runs in this process (the pool is the process's, so runFileCommand's closing is not
// called here). Before, every zone's connection stayed open from its state read to the exit.
const zones = [1, 2, 3, 4, 5, 6];
const PARALLEL = 2;
const { servers } = useZoneNorthbounds(zones.map((i) => `n${i}`));

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ovnk-release-'));
  file = join(dir, 'per-node.yaml');
  writeFileSync(
    file,
    layer3AndLayer2(
      't-cli-release',
      ['l3', 'l2'],
      zones.map((i) => chassisNode(i)),
    ),
  );
});
afterAll(async () => {
  await closeConnections();
  rmSync(dir, { recursive: true, force: true });
});

/** The sockets a server process holds (its listening ones among them). */
function sockets(pid: number): number {
  const fds = join('/proc', String(pid), 'fd');
  return readdirSync(fds).filter((fd) => {
    try {
      return readlinkSync(join(fds, fd)).startsWith('socket:');
    } catch {
      return false; // closed between the listing and the look
    }
  }).length;
}

/** Every server's sessions: its sockets beyond those it held with no client. */
const sessions = (baseline: number[]) => servers.map((s, i) => sockets(s.pid) - baseline[i]!);
const total = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

async function settled(baseline: number[]): Promise<number[]> {
  for (let i = 0; i < 200 && total(sessions(baseline)) > 0; i++) await new Promise((r) => setTimeout(r, 25));
  return sessions(baseline);
}

describe('a CLI run over per-node zones holds each zone only while it works on it', () => {
  it('apply and a re-apply hold at most --parallel sessions on the servers and none afterwards', async () => {
    const baseline = servers.map((s) => sockets(s.pid));
    const nb = zones.map((i) => `n${i}=${servers[i - 1]!.unix}`);
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, total(sessions(baseline)))), 2);
    try {
      const applied = await runApply({ file: [file], nb, parallel: String(PARALLEL) });
      expect(applied.zones.map((z) => z.ok && z.value.sent)).toEqual(zones.map(() => true));
      expect(await settled(baseline)).toEqual(zones.map(() => 0));
      const again = await runApply({ file: [file], nb, parallel: String(PARALLEL) });
      expect(again.zones.map((z) => z.ok && !z.value.sent)).toEqual(zones.map(() => true));
      expect(await settled(baseline)).toEqual(zones.map(() => 0));
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(PARALLEL);
  });
});
