import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { down, readState, up } from '../../lab';
import { isRunning, readPidFile } from '../../lab/processes';
import { startZoneDb, zoneDir } from '../../lab/zones';
import { fixture, ovnk } from './networks-helpers';

// apply, diff and destroy work on every zone at once; a zone whose Northbound is down fails alone
// (exit 4 naming it), the other zones complete, and a rerun once it is back converges. A
// per-node lab of its own, whose second zone's NB ovsdb-server is stopped and started again.
const name = `zp-${process.pid % 100000}`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'ovnk-zones-parallel-'));
const file = path.join(dir, 'layer3.yaml');
const DOWN = 'ovn-worker2';
const OTHERS = ['ovn-worker', 'ovn-worker3'];

beforeAll(async () => {
  await up({ name, nodes: 3, ovn: 'trixie', zones: 'per-node' });
  writeFileSync(
    file,
    readFileSync(fixture('networks-layer3.yaml'), 'utf8').replace('name: t-networks-l3', 'name: t-zones-parallel'),
  );
}, 120_000);

afterAll(async () => {
  await down(name);
  rmSync(dir, { recursive: true, force: true });
});

function nbPidFile(): string {
  const state = readState(name)!;
  return path.join(
    zoneDir(
      state.layout,
      state.layout.nodes.find((n) => n.name === DOWN)!,
    ),
    'nb.pid',
  );
}

async function stopNorthbound(): Promise<void> {
  const pid = readPidFile(nbPidFile())!;
  process.kill(pid, 'SIGTERM');
  while (isRunning(pid)) await new Promise((r) => setTimeout(r, 20));
}

async function startNorthbound(): Promise<void> {
  const state = readState(name)!;
  await startZoneDb(
    state.ovnRoot!,
    state.layout,
    state.layout.nodes.find((n) => n.name === DOWN)!,
    'nb',
  );
}

const podsOn = (node: string) =>
  readState(name)!
    .pods.filter((p) => p.node === node)
    .map((p) => `${p.namespace}/${p.name}`)
    .sort();

describe("a zone whose Northbound is down, in a per-node lab's apply, diff and destroy", () => {
  it('apply fails that zone alone with exit 4 naming it; the other zones get their rows and pods', async () => {
    await stopNorthbound();
    const applied = ovnk('apply', '-f', file, '--lab', name, '-o', 'json');
    expect(applied.status, applied.stdout).toBe(4);
    expect(applied.json).toMatchObject({ ok: false, exitCode: 4, failedZones: [DOWN] });
    expect(applied.json.error).toMatch(new RegExp(`^zone ${DOWN}: cannot reach the Northbound at unix:`));
    expect(applied.json.zones[DOWN]).toMatchObject({ exitCode: 4 });
    for (const zone of OTHERS) expect(applied.json.zones[zone], zone).toMatchObject({ sent: true });
    expect(podsOn(DOWN)).toEqual([]);
    expect(podsOn('ovn-worker')).toEqual(['blue/a']);
    expect(applied.stderr).toContain(`error: zone ${DOWN}: cannot reach`);
  });

  it('diff reports the zone as failing (exit 4) and no drift in the others', () => {
    const drift = ovnk('diff', '-f', file, '--lab', name, '-o', 'json');
    expect(drift.status).toBe(4);
    expect(drift.json).toMatchObject({ ok: false, failedZones: [DOWN], drift: false });
    for (const zone of OTHERS) expect(drift.json.zones[zone].drift).toEqual([]);
  });

  it('a rerun once the Northbound is back writes only that zone and plugs its pods; diff finds nothing', async () => {
    await startNorthbound();
    const again = ovnk('apply', '-f', file, '--lab', name, '-o', 'json');
    expect(again.status, again.stdout).toBe(0);
    expect(again.json.zones[DOWN]).toMatchObject({ sent: true });
    for (const zone of OTHERS) expect(again.json.zones[zone], zone).toMatchObject({ sent: false, operations: 0 });
    expect(podsOn(DOWN)).toEqual(['blue/b', 'red/a']);
    const drift = ovnk('diff', '-f', file, '--lab', name, '--parallel', '1', '-o', 'json');
    expect(drift.status, drift.stdout).toBe(0);
  });

  it('destroy fails that zone alone and keeps its pods; the rerun removes the rest', async () => {
    await stopNorthbound();
    const destroyed = ovnk('destroy', '-f', file, '--lab', name, '-o', 'json');
    expect(destroyed.status).toBe(4);
    expect(destroyed.json.failedZones).toEqual([DOWN]);
    for (const zone of OTHERS) expect(destroyed.json.zones[zone], zone).toMatchObject({ sent: true });
    expect(podsOn(DOWN)).toEqual(['blue/b', 'red/a']);
    expect(podsOn('ovn-worker')).toEqual([]);
    await startNorthbound();
    const rerun = ovnk('destroy', '-f', file, '--lab', name, '-o', 'json');
    expect(rerun.status, rerun.stdout).toBe(0);
    expect(rerun.json.zones[DOWN]).toMatchObject({ sent: true });
    for (const zone of OTHERS) expect(rerun.json.zones[zone], zone).toMatchObject({ sent: false });
    expect(readState(name)!.pods).toEqual([]);
  });

  it('takes --parallel as a whole number of at least 1 (exit 3 naming the flag otherwise)', () => {
    const bad = ovnk('diff', '-f', file, '--lab', name, '--parallel', '0', '-o', 'json');
    expect(bad.status).toBe(3);
    expect(bad.json).toMatchObject({ path: '--parallel' });
  });
});
