/**
 * The `-f` inputs of the file commands, as `kubectl apply -f` takes them: a file, `-f` several
 * times, a directory (its *.yaml, *.yml and *.json files, sorted), `-` for standard input. They
 * are read once per command (standard input can be read only once) and loaded by the runtime's
 * loader, which the Pulumi program uses too; problems name their file (`-` for standard input).
 */
import { Option } from 'commander';
import {
  type InputDocument,
  type InputProblem,
  InputReadError,
  inputTooLarge,
  loadInputs,
  problemLine,
  problemSummary,
  readInputs,
} from '../../provider/runtime/cli';
import { CliError, ExitCode } from '../contract';

/** `-f` as given: one or more arguments (the demo passes one path). */
export type FileArgs = string | string[];

export interface LoadedInput {
  /** The arguments as one label for messages (`a.yaml, b.yaml`). */
  label: string;
  documents: InputDocument[];
  /** Problems of the documents themselves (YAML, shapes, schemas), each with its file. */
  problems: InputProblem[];
}

/** The `-f` option: repeatable, required. */
export function fileOption(what: string): Option {
  return new Option(
    '-f, --file <file>',
    `${what}; a directory means its *.yaml, *.yml and *.json files, - is standard input; repeat for more`,
  )
    .argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .makeOptionMandatory();
}

export const inputArgs = (file: FileArgs): string[] => (Array.isArray(file) ? file : [file]);
export const inputLabel = (file: FileArgs): string => inputArgs(file).join(', ');

/** Standard input, refused as soon as it passes `budget` bytes. */
async function readStdin(budget: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    total += (chunk as Buffer).length;
    if (total > budget) {
      process.stdin.destroy();
      throw inputTooLarge('-');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const loaded = new WeakMap<object, Promise<LoadedInput>>();

/** The inputs of one command's options, read and loaded once however many steps ask. */
export function inputOf(options: { file: FileArgs }): Promise<LoadedInput> {
  let input = loaded.get(options);
  if (!input) {
    input = load(options.file);
    loaded.set(options, input);
  }
  return input;
}

async function load(file: FileArgs): Promise<LoadedInput> {
  try {
    const { documents, problems } = loadInputs(await readInputs(inputArgs(file), readStdin));
    return { label: inputLabel(file), documents, problems };
  } catch (error) {
    if (error instanceof InputReadError)
      throw new CliError(ExitCode.badInput, error.message, { file: error.file, path: '-f' });
    throw error;
  }
}

/** Unusable input (exit 3): the one problem, or how many; text mode lists every one with its file. */
export function inputError(label: string, problems: InputProblem[]): CliError {
  const withFiles = problems.map((p) => ({ ...p, file: p.file ?? label }));
  const first = withFiles[0]!;
  const message = problems.length === 1 ? problemLine(first) : problemSummary(withFiles);
  return new CliError(ExitCode.badInput, message, { file: first.file, path: first.path, problems: withFiles });
}
