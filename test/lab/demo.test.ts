import { describe, expect, it } from 'vitest';
import { listLabNames } from '../../lab';
import { ovnk } from './networks-helpers';

// The README's main job: `ovnk demo` starts a lab of its own in upstream's per-node layout (one
// Northbound per node), applies colored-enterprise to every zone, pings across zones, shows a drift
// in one zone found and repaired, and tears everything down; `--zones central` the same on one
// Northbound; `--uplinks` adds egress through the Uplink bridges and breth0 (issue 20). Each run
// starts and stops its own lab, as on a fresh machine.
const run = (zones: string[]) => {
  const name = `dm-${zones.includes('--uplinks') ? 'u' : zones.length > 0 ? 'c' : 'p'}${process.pid % 100000}`;
  const result = ovnk('demo', '--name', name, ...zones, '-o', 'json');
  return { name, ...result };
};

describe('ovnk demo', () => {
  it('runs colored-enterprise in the per-node layout: every promised ping crosses zones, the drift is found in its zone and repaired', () => {
    const demo = run([]);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.json).toMatchObject({ ok: true, zones: 'per-node' });
    const pings = demo.json.pings as { fromZone: string; toZone: string; expect: string; got: string }[];
    for (const ping of pings) expect(ping.got, JSON.stringify(ping)).toBe(ping.expect);
    const answered = pings.filter((p) => p.expect === 'reply');
    expect(answered.length).toBeGreaterThanOrEqual(4);
    for (const ping of answered) expect(ping.fromZone, JSON.stringify(ping)).not.toBe(ping.toZone);
    expect(demo.json.drift).toMatchObject({ zone: 'ovn-worker', blocked: true, repaired: true });
    expect(demo.json.drift.drift.every((line: string) => line.startsWith('zone ovn-worker: '))).toBe(true);
    expect(demo.stderr).toContain('across zones');
    expect(listLabNames()).not.toContain(demo.name);
  }, 180_000);

  it('runs the same on one central Northbound with --zones central', () => {
    const demo = run(['--zones', 'central']);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.json).toMatchObject({ ok: true, zones: 'central', drift: { zone: 'central', repaired: true } });
    expect(new Set(demo.json.pings.map((p: { fromZone: string }) => p.fromZone))).toEqual(new Set(['central']));
    expect(listLabNames()).not.toContain(demo.name);
  }, 180_000);

  it('with --uplinks shows egress leaving through br-blue, br-red and breth0, each from the address its bridge SNATs to', () => {
    const demo = run(['--uplinks']);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.json.ok).toBe(true);
    expect(demo.json.egress).toEqual([
      expect.objectContaining({ pod: 'egress-blue/a', bridge: 'br-blue', source: '203.0.113.12', got: 'reply' }),
      expect.objectContaining({ pod: 'egress-red/a', bridge: 'br-red', source: '198.51.100.14', got: 'reply' }),
      expect.objectContaining({ pod: 'egress-green/a', bridge: 'breth0', got: 'reply' }),
    ]);
    expect(demo.stderr).toContain('egress through the gateway bridges');
    expect(listLabNames()).not.toContain(demo.name);
  }, 240_000);

  it('refuses per-node zones on the bookworm OVN with exit 3, saying to use --zones central', () => {
    const demo = run(['--ovn', 'bookworm']);
    expect(demo.status).toBe(3);
    expect(demo.json.error).toContain('--zones central');
  });
});
