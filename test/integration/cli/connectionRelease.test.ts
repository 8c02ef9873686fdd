import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApply } from '../../../cli/commands/apply';
import { closeConnections } from '../../../provider/runtime/cli';
import { chassisNode, layer3AndLayer2, useZoneNorthbounds } from '../../support/worlds';

// A CLI run holds a zone's Northbound only while it works on that zone (connections.ts
// leaseConnection, cluster/zones.ts onZones): at most --parallel at once, none once the run is
// over, though the process has not closed its pool yet. Counted at the real servers' end: the
// established TCP connections on each ovsdb-server's port as the kernel lists them (/proc/net/tcp;
// one the client closed is CLOSE_WAIT there at once, however late the server gets to it), sampled
// while `runApply` runs in this process (the pool is the process's, so runFileCommand's closing is
// not called here). Before, every zone's connection stayed open from its state read to the exit.
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

const ESTABLISHED = '01';

/** Every server's established connections: /proc/net/tcp lines whose local port is its port. */
function sessions(): number[] {
  const lines = readFileSync('/proc/net/tcp', 'utf8').trim().split('\n').slice(1);
  const established = lines
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === ESTABLISHED)
    .map((fields) => parseInt(fields[1]!.split(':')[1]!, 16));
  return servers.map((s) => established.filter((port) => port === s.tcpPort).length);
}
const total = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

describe('a CLI run over per-node zones holds each zone only while it works on it', () => {
  it('apply and a re-apply hold at most --parallel sessions on the servers and none afterwards', async () => {
    const nb = zones.map((i) => `n${i}=${servers[i - 1]!.tcp}`);
    expect(sessions()).toEqual(zones.map(() => 0));
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, total(sessions()))), 5);
    try {
      const applied = await runApply({ file: [file], nb, parallel: String(PARALLEL) });
      expect(applied.zones.map((z) => z.ok && z.value.sent)).toEqual(zones.map(() => true));
      expect(sessions()).toEqual(zones.map(() => 0));
      const again = await runApply({ file: [file], nb, parallel: String(PARALLEL) });
      expect(again.zones.map((z) => z.ok && !z.value.sent)).toEqual(zones.map(() => true));
      expect(sessions()).toEqual(zones.map(() => 0));
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(PARALLEL);
  });
});
