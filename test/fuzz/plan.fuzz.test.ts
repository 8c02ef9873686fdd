import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, PlanChild, repo, type RunOutcome } from '../support/planChild';
import { type FuzzCase, fuzzCase, render, seeds } from './mutations';

// Issue 15 point 10: random and mutated topologies never crash, hang or exit outside the contract
// (plan: 0 planned, 1 refused, 3 unusable input), and every refusal names a path and a reason.
// The real `ovnk plan` entry runs each case in a child process (killed after 10 s); a sample runs
// as the shipped binary. The seed is printed; OVNK_FUZZ_SEED (and OVNK_FUZZ_PATH, as fast-check
// prints them on failure) replay a run, OVNK_FUZZ_SECONDS changes its time budget (default 20).

const seed = Number(process.env.OVNK_FUZZ_SEED ?? Date.now() % 2 ** 31);
const path = process.env.OVNK_FUZZ_PATH;
const budgetMs = 1000 * Number(process.env.OVNK_FUZZ_SECONDS ?? 20);
const replay = `OVNK_FUZZ_SEED=${seed}${path ? ` OVNK_FUZZ_PATH=${path}` : ''} npx vitest run test/fuzz`;

let dir: string;
const child = new PlanChild();
/** Files planned, for the sample run by the binary: [file, exit code, stdout]. */
const planned: [string, number, string][] = [];
/** How many cases ended with each exit code. */
const codes = new Map<number, number>();

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ovnk-fuzz-'));
  console.info(`fuzz seed ${seed} (${seeds.length} shipped topologies; replay: ${replay})`);
});
afterAll(() => {
  child.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface ProblemLike {
  reason?: unknown;
  path?: unknown;
  message?: unknown;
}

const named = (p: ProblemLike) =>
  typeof p.reason === 'string' && p.reason !== '' && typeof p.path === 'string' && p.path !== '';

/** What the contract says of one outcome; a string says what broke it. */
function breach(outcome: RunOutcome): string | undefined {
  if (outcome.kind === 'timeout') return `no result after ${outcome.wallMs} ms (a hang)`;
  if (outcome.kind === 'died')
    return `the process died (exit ${outcome.exitCode}, ${outcome.signal}): ${outcome.stderr}`;
  if (![0, 1, 3].includes(outcome.code)) return `exit ${outcome.code}: ${outcome.stdout.slice(0, 600)}`;
  let document: { ok?: unknown; path?: unknown; problems?: ProblemLike[] };
  try {
    document = JSON.parse(outcome.stdout);
  } catch {
    return `stdout is not one JSON document: ${outcome.stdout.slice(0, 300)}`;
  }
  const problems = Array.isArray(document.problems) ? document.problems : [];
  if (outcome.code === 0) return document.ok === true && problems.length === 0 ? undefined : 'exit 0 with problems';
  if (document.ok !== false) return `exit ${outcome.code} with ok ${String(document.ok)}`;
  if (problems.length === 0) return `exit ${outcome.code} names no problem: ${outcome.stdout.slice(0, 400)}`;
  const unnamed = problems.find((p) => !named(p));
  return unnamed ? `a problem without reason or path: ${JSON.stringify(unnamed)}` : undefined;
}

async function plan(c: FuzzCase, index: number): Promise<void> {
  const file = join(dir, `case-${index}.${c.json ? 'json' : 'yaml'}`);
  writeFileSync(file, render(c));
  const outcome = await child.run(['plan', '-f', file, '-o', 'json'], 10_000);
  const broken = breach(outcome);
  if (broken) {
    const kept = join(tmpdir(), `ovnk-fuzz-failure-${seed}.${c.json ? 'json' : 'yaml'}`);
    writeFileSync(kept, render(c));
    throw new Error(`${seeds[c.seed]!.file} mutated (${kept}): ${broken}`);
  }
  if (outcome.kind !== 'done') return;
  codes.set(outcome.code, (codes.get(outcome.code) ?? 0) + 1);
  if (planned.length < 200) planned.push([file, outcome.code, outcome.stdout]);
}

describe('ovnk plan on random and mutated topologies', () => {
  it('never crashes, hangs or leaves the exit-code contract, and every refusal names a path and a reason', async () => {
    let index = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fuzzCase, (c) => plan(c, index++)),
      { seed, path, numRuns: 5000, interruptAfterTimeLimit: budgetMs, markInterruptAsFailure: false },
    );
    const tally = [...codes].sort().map(([code, n]) => `exit ${code}: ${n}`);
    console.info(`fuzz seed ${seed}: ${index} cases in ${Date.now() - started} ms (${tally.join(', ')})`);
    if (path === undefined) expect(index).toBeGreaterThan(20);
  }, 120_000);

  it('the shipped binary gives what the entry gave, for a sample of the cases', () => {
    const sample = planned.filter((_, i) => i % Math.max(1, Math.floor(planned.length / 5)) === 0).slice(0, 5);
    expect(sample.length).toBeGreaterThan(0);
    for (const [file, code, stdout] of sample) {
      const run = spawnSync(
        process.execPath,
        [join(repo, 'dist', 'cli', 'main.js'), 'plan', '-f', file, '-o', 'json'],
        {
          encoding: 'utf8',
          timeout: 20_000,
        },
      );
      expect([run.status, run.signal], `${file} (seed ${seed})`).toEqual([code, null]);
      expect(JSON.parse(run.stdout), file).toEqual(JSON.parse(stdout));
    }
  }, 120_000);
});
