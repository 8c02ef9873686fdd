import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, PlanChild } from '../support/planChild';
import { plannerBreach } from './contract';
import { type FuzzFile, fuzzFile } from './files';
import { path, replay, runs, seed, Tally } from './settings';

// Issue 15 points 7, 9 and 10: the planner API (load, build, planTopology; what `ovnk plan` and
// the Pulumi program run) on mutated shipped topologies and random ones never throws, hangs or
// uses more than bounded CPU; every problem names a reason, a message and an object path; and a
// plan's ids and subnets never collide. Each case runs in a child process killed after 10 s.

const child = new PlanChild();
const tally = new Tally();

beforeAll(() => {
  ensureBuilt();
  console.info(`planner fuzz seed ${seed} (replay: ${replay('test/fuzz/planner.fuzz.test.ts')})`);
});
afterAll(() => child.stop());

async function plan(file: FuzzFile): Promise<void> {
  const outcome = await child.plan(file.text, 10_000);
  const broken = plannerBreach(outcome);
  if (broken) {
    const kept = join(tmpdir(), `ovnk-fuzz-planner-${seed}.${file.json ? 'json' : 'yaml'}`);
    writeFileSync(kept, file.text);
    throw new Error(`${file.label} (${kept}): ${broken}`);
  }
  if (outcome.kind === 'done')
    tally.add(
      outcome.result.stage === 'planned' && outcome.result.problems.length > 0 ? 'refused' : outcome.result.stage,
    );
}

describe('the planner API on random and mutated topologies', () => {
  it('never throws or hangs, stays within its CPU bound, names every problem and allocates without collisions', async () => {
    const started = Date.now();
    await fc.assert(fc.asyncProperty(fuzzFile, plan), runs(20_000));
    console.info(`planner fuzz seed ${seed}: ${tally.total} cases in ${Date.now() - started} ms (${tally})`);
    if (path === undefined) expect(tally.total).toBeGreaterThan(20);
  }, 120_000);
});
