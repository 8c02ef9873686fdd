/**
 * The topology input, one loader for the `ovnk` command line and the Pulumi program (through
 * components/topologyFile.ts): `-f` arguments as kubectl takes them (files; a directory means its
 * *.yaml, *.yml and *.json files sorted by name; `-` is standard input) -> their texts -> the
 * documents (provider/model/load.ts: YAML, shapes, schemas) -> the Cluster (buildTopology). Every
 * problem names the input it came from (the path as given, `-` for standard input), and
 * `problemLine` words it, so both roads refuse the same input with the same problems and words.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster } from '../model/cluster';
import { loadDocuments, type LoadedDocument } from '../model/load';
import { type Rejection, rejection } from '../model/outcome';
import type { Problem } from '../model/problem';
import { buildTopology } from './plan';

/** The name of standard input among the inputs (`-f -`). */
export const STDIN = '-';

const EXTENSIONS = ['.yaml', '.yml', '.json'];

/** One input: its name (a path as given, or `-`) and its text. */
export interface InputSource {
  file: string;
  text: string;
}

/** A document and the input it came from. */
export type InputDocument = LoadedDocument & { file: string };

/** A problem and, where one object or document is at fault, the input it came from. */
export type InputProblem = Problem & { file?: string };

export type BuiltInput = { ok: true; cluster: Cluster } | Rejection<InputProblem>;

/** An input that cannot be read at all (missing file, empty directory, `-` given twice). */
export class InputReadError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'InputReadError';
  }
}

/** Input whose documents have problems: every one, each on its own line of the message. */
export class UnusableInputError extends Error {
  constructor(readonly problems: InputProblem[]) {
    super(`${problemSummary(problems)}:\n${problems.map((p) => `  ${problemLine(p)}`).join('\n')}`);
    this.name = 'UnusableInputError';
  }
}

/** `FILE: PATH: MESSAGE`: the one wording of a problem, in the CLI's text and the program's errors. */
export function problemLine(p: { file?: string; path?: string; message?: string }): string {
  return [p.file, p.path, p.message].filter((part) => part !== undefined && part !== '').join(': ');
}

/** `3 problems in a.yaml, b.yaml`: how many, and in which inputs. */
export function problemSummary(problems: InputProblem[]): string {
  const files = [...new Set(problems.flatMap((p) => (p.file === undefined ? [] : [p.file])))];
  const where = files.length === 0 ? '' : ` in ${files.join(', ')}`;
  return `${problems.length} problem${problems.length === 1 ? '' : 's'}${where}`;
}

/**
 * At most this many bytes of input in all (every -f together): checked while reading, so a larger
 * file or stream is refused after reading one byte more, not after parsing it. The largest
 * topology of the benchmarks (2,000 nodes, 5,000 namespaces) is under 0.5 MiB.
 */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

export function inputTooLarge(file: string): InputReadError {
  return new InputReadError(
    file,
    `${file}: the input exceeds ${MAX_INPUT_BYTES / 1024 / 1024} MiB (every -f together)`,
  );
}

/** The file's text, refused as soon as it passes `budget` bytes. */
function readText(file: string, budget: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new InputReadError(file, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 20);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > budget) throw inputTooLarge(file);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (error instanceof InputReadError) throw error;
    throw new InputReadError(file, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  } finally {
    closeSync(fd);
  }
}

/** The files one argument names: itself, or its directory's topology files sorted by name. */
function filesOf(arg: string): string[] {
  let directory: boolean;
  try {
    directory = arg !== STDIN && statSync(arg).isDirectory();
  } catch {
    return [arg]; // reading it says why it cannot be read
  }
  if (!directory) return [arg];
  const names = readdirSync(arg)
    .filter((name) => EXTENSIONS.some((ext) => name.endsWith(ext)))
    .sort();
  if (names.length === 0) throw new InputReadError(arg, `${arg} is a directory without *.yaml, *.yml or *.json files`);
  return names.map((name) => join(arg, name));
}

/** Every file the arguments name, in order; `-` at most once. */
export function inputFiles(args: string[]): string[] {
  if (args.filter((a) => a === STDIN).length > 1)
    throw new InputReadError(STDIN, 'standard input (-f -) can be read only once');
  return args.flatMap(filesOf);
}

/** Read every input; `-` through `stdin` (refused where there is none, as in a Pulumi program). */
export async function readInputs(args: string[], stdin?: (budget: number) => Promise<string>): Promise<InputSource[]> {
  const sources: InputSource[] = [];
  let budget = MAX_INPUT_BYTES;
  for (const file of inputFiles(args)) {
    let text: string;
    if (file !== STDIN) text = readText(file, budget);
    else if (stdin) text = await stdin(budget);
    else throw new InputReadError(STDIN, 'standard input (-) is not an input here: name a file');
    budget -= Buffer.byteLength(text);
    sources.push({ file, text });
  }
  return sources;
}

/** Read inputs that are files or directories, synchronously (the Pulumi program). */
export function readInputsSync(args: string[]): InputSource[] {
  let budget = MAX_INPUT_BYTES;
  return inputFiles(args).map((file) => {
    if (file === STDIN) throw new InputReadError(STDIN, 'standard input (-) is not an input here: name a file');
    const text = readText(file, budget);
    budget -= Buffer.byteLength(text);
    return { file, text };
  });
}

/** Each source's documents and problems (YAML, shapes, schemas), each marked with its input. */
export function loadInputs(sources: InputSource[]): { documents: InputDocument[]; problems: InputProblem[] } {
  const documents: InputDocument[] = [];
  const problems: InputProblem[] = [];
  for (const { file, text } of sources) {
    const loaded = loadDocuments(text);
    documents.push(...loaded.documents.map((doc) => ({ ...doc, file })));
    problems.push(...loaded.problems.map((p) => ({ ...p, file })));
  }
  return { documents, problems };
}

/** Problems found over all documents, each marked with the input of the object it names. */
export function attributed(problems: Problem[], documents: InputDocument[]): InputProblem[] {
  const fileOf = new Map(documents.map((doc) => [doc.ref, doc.file]));
  const only = new Set(documents.map((doc) => doc.file)).size === 1 ? documents[0]?.file : undefined;
  return problems.map((p) => {
    const file = (p.object === undefined ? undefined : fileOf.get(p.object)) ?? only;
    return file === undefined ? p : { ...p, file };
  });
}

/** The Cluster of the documents (after any filling of the Inventory), or every problem. */
export function buildInputs(documents: InputDocument[]): BuiltInput {
  const built = buildTopology(documents);
  return built.ok ? built : rejection(attributed(built.problems, documents));
}

/** Read, load and build in one step, throwing every problem: what a program without flags needs. */
export function loadTopologySync(
  args: string[],
  fill: (documents: InputDocument[]) => InputDocument[] = (d) => d,
): { documents: InputDocument[]; cluster: Cluster } {
  const loaded = loadInputs(readInputsSync(args));
  if (loaded.problems.length > 0) throw new UnusableInputError(loaded.problems);
  const documents = fill(loaded.documents);
  const built = buildInputs(documents);
  if (!built.ok) throw new UnusableInputError(built.problems);
  return { documents, cluster: built.cluster };
}
