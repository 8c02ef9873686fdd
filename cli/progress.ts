/**
 * Progress on long work (apply, diff, destroy, lab up) for a person watching a terminal: one line
 * per step on stderr with the seconds elapsed, which zone, and how many operations. Silent when
 * stderr is not a terminal (pipelines and logs get only the result) and with `-q`. Results never
 * come through here; they go to stdout (cli/contract.ts).
 *
 * Per zone: `const done = progress.zone(name); ...; done('12 operations sent')`, so zones worked
 * on in parallel report independently.
 */

export interface Progress {
  /** One line about the work, e.g. `starting 3 node(s)`. */
  note(message: string): void;
  /** Work on one zone begins; call the returned function with what was done when it ends. */
  zone(name: string): (outcome: string) => void;
}

interface ProgressSettings {
  quiet: boolean;
}

const settings: ProgressSettings = { quiet: false };

/** `-q`: no progress at all (main sets it from the global flag before a command runs). */
export function setQuiet(quiet: boolean): void {
  settings.quiet = quiet;
}

/** Whether progress lines would be written to `stream` (a terminal, and not `-q`). */
export function showsProgress(stream: NodeJS.WriteStream = process.stderr): boolean {
  return !settings.quiet && stream.isTTY === true;
}

const silent: Progress = { note: () => undefined, zone: () => () => undefined };

/**
 * The progress of one command (`apply`, `lab up`, ...); `zones` is how many zones it will work on,
 * shown as `(2/3)`. Silent unless `showsProgress(stream)`.
 */
export function progressFor(
  command: string,
  zones?: number,
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): Progress {
  if (!showsProgress(stream)) return silent;
  const started = now();
  const line = (text: string) => stream.write(`${command}  ${((now() - started) / 1000).toFixed(1)}s  ${text}\n`);
  let begun = 0;
  return {
    note: line,
    zone(name) {
      begun += 1;
      const label = zones === undefined ? `zone ${name}` : `zone ${name} (${begun}/${zones})`;
      line(`${label} ...`);
      return (outcome) => line(`${label}: ${outcome}`);
    },
  };
}
