#!/usr/bin/env node
/**
 * `ovnk`: the command line of ovnk-pulumi. It parses flags and hands each command to its module in
 * cli/commands/; the contract (exit codes, results on stdout, progress on stderr) is cli/contract.ts.
 * Help and `--version` are results (stdout); usage errors go to stderr. The process exits only
 * after stdout and stderr have taken every byte, so a pipe or a slow reader gets whole documents.
 */
import { type Command, CommanderError } from 'commander';
import { OvnkCommand } from './command';
import { commands } from './commands';
import { documentText, emit, ExitCode, errorDocument } from './contract';
import { addExamples } from './examples';
import { setQuiet } from './progress';

export function buildProgram(): Command {
  const program = new OvnkCommand('ovnk')
    .description(
      'User-defined networking for OVN-Kubernetes as code: plan, apply, diff and destroy topologies; run the embedded lab.',
    )
    .version(readVersion())
    .option('-q, --quiet', 'no progress on stderr (progress shows only on a terminal anyway)')
    .showHelpAfterError('(run with --help for usage)')
    // Usage errors throw, so main chooses the exit code; subcommands inherit this.
    .exitOverride()
    .hook('preAction', (_program, action) => setQuiet(action.optsWithGlobals().quiet === true));
  for (const register of commands) register(program);
  addExamples(program);
  return program;
}

function readVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../package.json') as { version: string }).version;
}

/** Commander reports usage errors by throwing; they are unusable input (exit 3) per the contract. */
function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0)
      return ExitCode.ok;
    return ExitCode.badInput;
  }
  return errorDocument(error).exitCode;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return (process.exitCode as number | undefined) ?? ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      const code = exitCodeOf(error);
      const format = argv.includes('json') ? 'json' : argv.includes('yaml') ? 'yaml' : undefined;
      if (code !== ExitCode.ok && format)
        await emit(process.stdout, documentText(format, { ok: false, exitCode: code, error: error.message }));
      return code;
    }
    const { exitCode, document } = errorDocument(error);
    await emit(process.stderr, `error: ${(document as { error: string }).error}\n`);
    return exitCode;
  }
}

/** Resolves when both streams have written everything queued before (writes complete in order). */
function drained(): Promise<unknown> {
  return Promise.all([emit(process.stdout, ''), emit(process.stderr, '')]);
}

if (require.main === module) {
  // A reader that goes away (`| head`) is not an error of ours: stop writing, keep the exit code.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  void main(process.argv).then(async (code) => {
    await drained();
    process.exit(code);
  });
}
