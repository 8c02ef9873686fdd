import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, PlanChild, repo } from '../support/planChild';
import { cliBreach } from './contract';
import { type FuzzFile, fuzzFile } from './files';
import { path, replay, runs, seed, Tally } from './settings';

// Issue 15 points 9 and 10: `ovnk plan -o json` on mutated shipped topologies and random ones
// never crashes, hangs or leaves the exit-code contract (0 planned, 1 refused, 3 unusable input),
// and every refusal lists problems with a reason and an object path. The CLI entry runs each case
// in a child process (killed after 10 s), a bounded number of them; a sample runs again as the
// shipped binary, which must give the same exit code and document.

let dir: string;
const child = new PlanChild();
/** Files planned, for the sample run by the binary: [file, exit code, stdout]. */
const planned: [string, number, string][] = [];
const tally = new Tally();

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ovnk-fuzz-'));
  console.info(`cli fuzz seed ${seed} (replay: ${replay('test/fuzz/plan.fuzz.test.ts')})`);
});
afterAll(() => {
  child.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function plan(file: FuzzFile): Promise<void> {
  const name = join(dir, `case-${tally.total}.${file.json ? 'json' : 'yaml'}`);
  writeFileSync(name, file.text);
  const outcome = await child.run(['plan', '-f', name, '-o', 'json'], 10_000);
  const broken = cliBreach(outcome);
  if (broken) {
    const kept = join(tmpdir(), `ovnk-fuzz-cli-${seed}.${file.json ? 'json' : 'yaml'}`);
    writeFileSync(kept, file.text);
    throw new Error(`${file.label} (${kept}): ${broken}`);
  }
  if (outcome.kind !== 'done') return;
  tally.add(`exit ${outcome.code}`);
  if (planned.length < 200) planned.push([name, outcome.code, outcome.stdout]);
}

describe('ovnk plan on random and mutated topologies', () => {
  it('never crashes, hangs or leaves the exit-code contract, and every refusal names a path and a reason', async () => {
    const started = Date.now();
    await fc.assert(fc.asyncProperty(fuzzFile, plan), runs(300));
    console.info(`cli fuzz seed ${seed}: ${tally.total} cases in ${Date.now() - started} ms (${tally})`);
    if (path === undefined) expect(tally.total).toBeGreaterThan(20);
  }, 120_000);

  it('the shipped binary gives what the entry gave, for a sample of the cases', async () => {
    // one case of each exit code first, then every n-th
    const firsts = [0, 1, 3].flatMap((code) => planned.filter((p) => p[1] === code).slice(0, 1));
    const every = planned.filter((_, i) => i % Math.max(1, Math.floor(planned.length / 3)) === 0);
    const sample = [...new Set([...firsts, ...every])].slice(0, 3);
    expect(sample.length).toBeGreaterThan(0);
    for (const [file, code, stdout] of sample) {
      const run = await binary(['plan', '-f', file, '-o', 'json']);
      expect([run.code, run.signal], `${file} (seed ${seed})`).toEqual([code, null]);
      expect(JSON.parse(run.stdout), file).toEqual(JSON.parse(stdout));
    }
  }, 120_000);
});

/** The shipped binary, run without blocking this worker's event loop (vitest's RPC needs it). */
function binary(argv: string[]): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  const bin = join(repo, 'dist', 'cli', 'main.js');
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [bin, ...argv], { timeout: 20_000, maxBuffer: 64 << 20 }, (_, stdout) =>
      resolve({ code: child.exitCode, signal: child.signalCode, stdout }),
    );
  });
}
