/**
 * The one contract every `ovnk` command follows (ARCHITECTURE: "The ovnk command line").
 *
 * - Exit codes: 0 ok; 1 refused (problems found, nothing changed); 2 drift (`diff` only);
 *   3 unusable input (bad file, bad field); 4 target unreachable or failing.
 * - Results go to stdout, whole: with `-o json` every outcome, errors included, is one JSON
 *   document (`-o yaml`: the same document as YAML, as kubectl offers both); with `-o text` the
 *   result for people (so `> file`, `| less`, `| grep` work).
 * - Errors in text mode, logs and progress (cli/progress.ts) go to stderr; so do warnings
 *   (`Warning: ...`, legal input that is likely a mistake: cli/warnings.ts), which the JSON
 *   document also carries as `warnings`.
 *
 * Commands throw `CliError` for expected failures; `runCommand` turns any outcome into the
 * document and the exit code, so no command writes to stdout or calls `process.exit` itself.
 * Writes are awaited: a pipe or a slow reader gets every byte before the process exits.
 */

import { stringify } from 'yaml';
import { problemLine } from '../provider/runtime/cli';
import { writeJson } from './jsonStream';
import { takeWarnings, warningLine } from './warnings';

export const ExitCode = {
  ok: 0,
  refused: 1,
  drift: 2,
  badInput: 3,
  unreachable: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export type OutputFormat = 'json' | 'yaml' | 'text';

/** The `-o` help of every command that prints a document. */
export const OUTPUT_FORMATS = 'text, json or yaml';

/** An expected failure: one sentence that says what to do, plus where it came from. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    readonly details: { file?: string; path?: string; [key: string]: unknown } = {},
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** What a command returns: the JSON document, the text for people, and the exit code. */
export interface CommandResult {
  exitCode?: ExitCode;
  /** The `-o json` document (printed to stdout). */
  document: unknown;
  /** The human rendering (printed to stdout for `-o text`; may be empty). */
  text?: string;
}

/** Lines for people beside the result (the demo's story): always stderr, never stdout. */
export function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Write `text` and resolve once the stream has taken all of it (a pipe's reader may be slow). */
export function emit(stream: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

export function parseOutputFormat(value: string | undefined): OutputFormat {
  if (value === undefined || value === 'text') return 'text';
  if (value === 'json' || value === 'yaml') return value;
  throw new CliError(ExitCode.badInput, `unknown output format "${value}": use -o text, -o json or -o yaml`, {
    path: '-o',
  });
}

/**
 * Turn an error into the document of the contract. Unknown errors count as target failures, but
 * for this process's own limits.
 */
export function errorDocument(error: unknown): { exitCode: ExitCode; document: Record<string, unknown> } {
  if (error instanceof CliError) {
    return {
      exitCode: error.exitCode,
      document: { ok: false, exitCode: error.exitCode, error: error.message, ...error.details },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  // a limit of this process (string or array length, stack depth) is no target's failure
  if (error instanceof RangeError) {
    const local = `the result could not be built here: ${message}`;
    return { exitCode: ExitCode.refused, document: { ok: false, exitCode: ExitCode.refused, error: local } };
  }
  return { exitCode: ExitCode.unreachable, document: { ok: false, exitCode: ExitCode.unreachable, error: message } };
}

/** A failure for people: the error, then every problem it carries unless the error is that one problem. */
function errorText(document: { error: string; file?: string; problems?: unknown }): string {
  const problems = Array.isArray(document.problems) ? (document.problems as ProblemLike[]) : [];
  const lines = problems.map((p) => problemLine({ file: document.file, ...p }));
  const said = lines.length === 1 && document.error === lines[0];
  return [`error: ${document.error}`, ...(said ? [] : lines.map((l) => `  ${l}`))].join('\n');
}

interface ProblemLike {
  file?: string;
  path?: string;
  message?: string;
}

/** The document as `-o json` or `-o yaml` prints it. */
export function documentText(format: 'json' | 'yaml', document: unknown): string {
  return format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : stringify(document);
}

/**
 * A document never says `ok: true` beside a failing exit code (1, 3, 4): a command that forgot to
 * say why still gets `ok: false` and an error naming the exit code. Drift (2) is `diff`'s answer,
 * not a failure.
 */
export function failedDocument(exitCode: ExitCode, document: unknown): unknown {
  const failing = exitCode !== ExitCode.ok && exitCode !== ExitCode.drift;
  if (!failing || typeof document !== 'object' || document === null) return document;
  const d = document as Record<string, unknown>;
  if (d.ok === false && typeof d.error === 'string') return { ...d, exitCode };
  const problems = Array.isArray(d.problems) ? (d.problems as ProblemLike[]) : [];
  const said = problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ');
  return { ...d, ok: false, exitCode, error: d.error ?? (said || `failed with exit code ${exitCode}`) };
}

/** Run one command body and print its outcome per the contract; returns the exit code. */
export async function runCommand(format: OutputFormat, body: () => Promise<CommandResult>): Promise<ExitCode> {
  let exitCode: ExitCode;
  let document: unknown;
  // read only for `-o text` (a result may make it when read: a large plan's text renders every zone)
  let text: () => string | undefined;
  let failed = false;
  try {
    const result = await body();
    exitCode = result.exitCode ?? ExitCode.ok;
    document = result.document;
    text = () => result.text;
  } catch (error) {
    ({ exitCode, document } = errorDocument(error));
    const said = errorText(document as { error: string });
    text = () => said;
    failed = true;
  }
  const warnings = takeWarnings();
  for (const w of warnings) await emit(process.stderr, `${warningLine(w)}\n`);
  try {
    if (warnings.length > 0 && document !== null && typeof document === 'object') document = { ...document, warnings };
    document = failedDocument(exitCode, document);
    if (format === 'json') await writeJson(process.stdout, document);
    else if (format === 'yaml') await emit(process.stdout, documentText(format, document));
    else {
      const said = text();
      if (said) await emit(failed ? process.stderr : process.stdout, line(said));
    }
  } catch (error) {
    // the result failed while being written (a document made when read): said on stderr, never exit 0
    const failure = errorDocument(error);
    await emit(process.stderr, line(errorText(failure.document as { error: string })));
    return failure.exitCode;
  }
  return exitCode;
}

/**
 * Choose the output format, then run the body under the contract. A bad `-o` value is itself an
 * error document (on stdout as JSON, since the format asked for is unknown).
 */
export async function runFormatted(format: () => OutputFormat, body: () => Promise<CommandResult>): Promise<ExitCode> {
  let chosen: OutputFormat;
  try {
    chosen = format();
  } catch (error) {
    return runCommand('json', () => Promise.reject(error));
  }
  return runCommand(chosen, body);
}
