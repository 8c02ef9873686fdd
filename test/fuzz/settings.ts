/**
 * The fuzz suite's seed and budget, printed so a failure can be replayed: OVNK_FUZZ_SEED (and
 * OVNK_FUZZ_PATH, as fast-check prints it on failure) replay a run; OVNK_FUZZ_SECONDS sets each
 * property's time budget (default 15 s; a property ends at its budget or its number of runs).
 */
export const seed = Number(process.env.OVNK_FUZZ_SEED ?? Date.now() % 2 ** 31);
export const path = process.env.OVNK_FUZZ_PATH;
export const budgetMs = 1000 * Number(process.env.OVNK_FUZZ_SECONDS ?? 15);

export const replay = (file: string) =>
  `OVNK_FUZZ_SEED=${seed}${path ? ` OVNK_FUZZ_PATH=${path}` : ''} npx vitest run ${file}`;

/** fast-check's options for one property: seeded, bounded in runs and in time. */
export const runs = (numRuns: number) => ({
  seed,
  path,
  numRuns,
  interruptAfterTimeLimit: budgetMs,
  markInterruptAsFailure: false,
});

/** Counts of outcomes by name, as one line. */
export class Tally {
  private readonly counts = new Map<string, number>();
  add(name: string): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }
  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  toString(): string {
    return [...this.counts]
      .sort()
      .map(([name, n]) => `${name}: ${n}`)
      .join(', ');
  }
}
