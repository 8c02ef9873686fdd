import { describe, expect, it } from 'vitest';
import { TargetUnreachableError } from '../../../provider/runtime/connections';
import { checkParallel, DEFAULT_PARALLEL, eachZone } from '../../../provider/runtime/eachZone';

const zones = Array.from({ length: 20 }, (_, i) => `node-${i + 1}`);
const tick = () => new Promise((r) => setTimeout(r, 5));

/** Runs eachZone and records the most zones that were in progress at one time. */
async function peak(parallel?: number): Promise<number> {
  let running = 0;
  let most = 0;
  await eachZone(
    zones,
    async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
    },
    parallel,
  );
  return most;
}

describe('eachZone, the loop over zones', () => {
  it('works on 8 zones at a time by default, and on as many as --parallel says', async () => {
    expect(DEFAULT_PARALLEL).toBe(8);
    expect(await peak()).toBe(8);
    expect(await peak(3)).toBe(3);
    expect(await peak(1)).toBe(1);
    expect(await peak(50)).toBe(20);
  });

  it("keeps every zone's outcome in the zones' order, a failing zone failing alone", async () => {
    const outcomes = await eachZone(zones.slice(0, 4), async (zone) => {
      await new Promise((r) => setTimeout(r, zone === 'node-1' ? 20 : 1));
      if (zone === 'node-2') throw new TargetUnreachableError('unix:/x', 'ECONNREFUSED');
      return zone.toUpperCase();
    });
    expect(outcomes.map((o) => o.zone)).toEqual(['node-1', 'node-2', 'node-3', 'node-4']);
    expect(outcomes.map((o) => (o.ok ? o.value : 'failed'))).toEqual(['NODE-1', 'failed', 'NODE-3', 'NODE-4']);
  });

  it('refuses a parallelism that is not a whole number of at least 1', async () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => checkParallel(bad)).toThrow(/--parallel/);
    await expect(eachZone(zones, async () => 1, 0)).rejects.toThrow(/at least 1/);
  });
});
