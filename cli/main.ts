#!/usr/bin/env node
/**
 * `ovnk`: the command line of ovnk-pulumi. It parses flags and hands each command to its module in
 * cli/commands/; the contract (exit codes, `-o json` on stdout, progress on stderr) is cli/contract.ts.
 */
import { Command, CommanderError } from 'commander';
import { commands } from './commands';
import { ExitCode, errorDocument } from './contract';

export function buildProgram(): Command {
  const program = new Command('ovnk')
    .description(
      'User-defined networking for OVN-Kubernetes as code: plan, apply, diff and destroy topologies; run the embedded lab.',
    )
    .version(readVersion())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const register of commands) register(program);
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

/** Help and usage errors are human output (stderr); usage errors throw so we choose the exit code. */
function applyContract(command: Command): void {
  command.exitOverride();
  command.configureOutput({ writeOut: (s) => process.stderr.write(s), writeErr: (s) => process.stderr.write(s) });
  for (const sub of command.commands) applyContract(sub);
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  applyContract(program);
  try {
    await program.parseAsync(argv);
    return (process.exitCode as number | undefined) ?? ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      const code = exitCodeOf(error);
      if (code !== ExitCode.ok && argv.includes('json')) {
        process.stdout.write(`${JSON.stringify({ ok: false, exitCode: code, error: error.message }, null, 2)}\n`);
      }
      return code;
    }
    const { exitCode, document } = errorDocument(error);
    process.stderr.write(`error: ${(document as { error: string }).error}\n`);
    return exitCode;
  }
}

if (require.main === module) {
  main(process.argv).then((code) => process.exit(code));
}
