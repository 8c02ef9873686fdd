/**
 * The lab's failures as the contract's outcomes: a LabError's kind gives the exit code (bad input
 * 3, refused 1, failing 4), and a refusal names its problem (reason, path, message) as every
 * refusal does; a lab's path is its name.
 */
import { LabError } from '../../lab';
import { CliError, ExitCode } from '../contract';

const EXIT_OF_KIND = {
  'bad-input': ExitCode.badInput,
  refused: ExitCode.refused,
  failing: ExitCode.unreachable,
} as const;

function labProblems(reason: string, lab: string, message: string) {
  return { problems: [{ reason, path: `lab "${lab}"`, message }] };
}

/** A LabError as a CliError; other errors as they are. */
export function labCliError(error: unknown, lab: string): unknown {
  if (!(error instanceof LabError)) return error;
  const problems = error.kind === 'refused' ? labProblems('LabRefused', lab, error.message) : {};
  return new CliError(EXIT_OF_KIND[error.kind], error.message, { lab, ...problems });
}

/** A command that needs a running lab, refused (exit 1) because it is not running. */
export function labNotRunning(lab: string, message: string): CliError {
  return new CliError(ExitCode.refused, message, { lab, ...labProblems('LabNotRunning', lab, message) });
}
