/**
 * Runtime failures as the contract's outcomes: unreachable or in doubt (exit 4), refused with
 * nothing sent or because of others' writes (exit 1), unusable endpoint or stored state, or an
 * optional package the command needs and that is not installed (exit 3).
 * Whole commands (fileTarget.ts) and single zones (zoneRuns.ts) map their failures here alike.
 */
import {
  ChangedByAnotherWriterError,
  EndpointError,
  ForeignRowClash,
  LedgerError,
  MissingPackageError,
  NotCommittedError,
  OutcomeUnknownError,
  OwnerConflictError,
  refusalProblems,
  StateError,
  suggestsLostLedger,
  TargetUnreachableError,
  UpstreamRowsError,
} from '../../provider/runtime/cli';
import { CliError, ExitCode } from '../contract';

/** Runtime failures as the contract's outcomes (exported for the unit test of the mapping). */
export function asCliError(error: unknown, file: string): unknown {
  const outcome = outcomeError(error, file);
  if (outcome) return outcome;
  if (error instanceof TargetUnreachableError)
    return new CliError(ExitCode.unreachable, error.message, { endpoint: error.endpoint });
  if (error instanceof MissingPackageError)
    return new CliError(ExitCode.badInput, error.message, { package: error.packageName });
  if (error instanceof EndpointError)
    return new CliError(ExitCode.badInput, error.message, { path: error.field, endpoint: error.endpoint });
  if (error instanceof StateError || error instanceof LedgerError)
    return new CliError(
      ExitCode.badInput,
      `${error.message}; \`ovnk repair\` rebuilds it from what the Northbound holds`,
      {
        file,
      },
    );
  const refused = refusalProblems(error);
  if (refused) {
    const hint = suggestsLostLedger(error)
      ? " (if it is this owner's and its ledger was lost, `ovnk repair` rebuilds the ledger)"
      : '';
    return new CliError(ExitCode.refused, `refused, nothing was sent: ${(error as Error).message}${hint}`, {
      file,
      problems: refused,
    });
  }
  return error;
}

/** Refused because of others' writes (exit 1), or a transaction whose outcome the target left in doubt (exit 4). */
function outcomeError(error: unknown, file: string): CliError | undefined {
  const refused = (reason: string, path: string) =>
    new CliError(ExitCode.refused, `refused: ${(error as Error).message}`, {
      file,
      problems: [{ reason, message: (error as Error).message, path }],
    });
  if (error instanceof ChangedByAnotherWriterError) return refused('ChangedByAnotherWriter', error.endpoint);
  if (error instanceof ForeignRowClash) return refused('ForeignRowClash', `${error.table} ${error.values}`);
  if (error instanceof OwnerConflictError) return refused('OwnerConflict', error.endpoint);
  // upstream's rows of a planned network, met before anything is written (adoptUpstream.ts)
  if (error instanceof UpstreamRowsError) return refused('UpstreamRows', 'spec.adoptUpstreamRows');
  if (error instanceof NotCommittedError)
    return new CliError(ExitCode.unreachable, error.message, { endpoint: error.endpoint, outcome: 'not committed' });
  if (error instanceof OutcomeUnknownError)
    return new CliError(ExitCode.unreachable, error.message, { endpoint: error.endpoint, outcome: 'unknown' });
  return undefined;
}
