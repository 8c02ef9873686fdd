/**
 * What every benchmark shares: timing with a same-run baseline and the `figure` lines.
 * These machines are noisy, so a benchmark reports ratios against a baseline it measured in the
 * same run, and ends with one line per figure: `figure <name> <value> <unit>`.
 */

export interface Benchmark {
  /** The name `npm run bench -- <name>` selects. */
  name: string;
  description: string;
  run(): Promise<void>;
}

/** Wall time of one call, in seconds. */
export async function timed<T>(body: () => Promise<T> | T): Promise<{ seconds: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await body();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, value };
}

/** The best of `runs` timings: the least disturbed by other work on the machine. */
export async function bestOf(runs: number, body: () => Promise<unknown> | unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, (await timed(body)).seconds);
  return best;
}

/**
 * The best of `runs` CPU times of a synchronous call, in seconds (process.cpuUsage: this process's
 * threads only, so other work on a shared machine moves it less than wall time).
 */
export function bestCpuOf(runs: number, body: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    body();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1e6);
  }
  return best;
}

export function figure(name: string, value: number, unit: string): void {
  const shown = Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
  process.stdout.write(`figure ${name} ${shown} ${unit}\n`);
}

/** Context lines for people (stderr), so stdout stays the figures and the summary. */
export function note(message: string): void {
  process.stderr.write(`${message}\n`);
}
