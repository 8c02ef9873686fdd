/**
 * What the file commands (plan, apply, diff, destroy) share: their flags, running under the
 * contract with the Northbound connections closed afterwards, and the target of a file: the
 * cluster (with `--lab`, the Inventory filled from the running lab; the file wins), the owner,
 * each zone's Northbound, and the state stored there.
 */
import type { Command } from 'commander';
import { checkLabName, DEFAULT_LAB_NAME, inventoryOf, type LabStatus, readState as readLab, statusOf } from '../../lab';
import type { Cluster } from '../../provider/model/cluster';
import {
  attributed,
  buildInputs,
  ChangedByAnotherWriterError,
  checkOwner,
  closeConnections,
  EndpointError,
  fillInventory,
  ForeignRowClash,
  type InputDocument,
  nbConnection,
  NotCommittedError,
  OutcomeUnknownError,
  type OvsdbDatabase,
  planTopology,
  readZoneState,
  refusalProblems,
  type RuntimeState,
  StateError,
  TargetUnreachableError,
  type TopologyPlan,
  zoneNames,
} from '../../provider/runtime';
import { CliError, type CommandResult, ExitCode, parseOutputFormat, runFormatted } from '../contract';
import { type FileArgs, fileOption, inputError, inputLabel, inputOf } from './input';

export interface FileOptions {
  file: FileArgs;
  lab?: string | boolean;
  nb?: string[];
  zone?: string;
  owner?: string;
  output?: string;
}

export interface FileTarget {
  /** The inputs as one label for messages. */
  file: string;
  /** The documents as loaded (filled from the lab with --lab), each with its file. */
  documents: InputDocument[];
  owner: string;
  cluster: Cluster;
  lab?: LabStatus;
  zones: { name: string; db: OvsdbDatabase }[];
  /** The state stored in the first zone that has one. */
  previous?: RuntimeState;
}

export function withFileOptions(command: Command): Command {
  return command
    .addOption(fileOption('YAML or JSON file with Inventory and network objects'))
    .option(
      '--lab [name]',
      `target the running lab (default name "${DEFAULT_LAB_NAME}"); fills nodes and targets the file lacks`,
    )
    .option('--nb <endpoint...>', 'Northbound endpoint for every zone (EP) or one zone (ZONE=EP)')
    .option('--zone <name>', 'only this zone (default: every zone)')
    .option('--owner <name>', "the owner marker and state key (default: the Inventory's name)")
    .option('-o, --output <format>', 'json or text', 'text');
}

/** Run a file command under the contract, closing the Northbound connections afterwards. */
export async function runFileCommand(options: FileOptions, body: () => Promise<CommandResult>): Promise<void> {
  process.exitCode = await runFormatted(
    () => parseOutputFormat(options.output),
    async () => {
      try {
        return await body();
      } catch (error) {
        throw asCliError(error, inputLabel(options.file));
      } finally {
        await closeConnections();
      }
    },
  );
}

/** Runtime failures as the contract's outcomes (exported for the unit test of the mapping). */
export function asCliError(error: unknown, file: string): unknown {
  const outcome = outcomeError(error, file);
  if (outcome) return outcome;
  if (error instanceof TargetUnreachableError)
    return new CliError(ExitCode.unreachable, error.message, { endpoint: error.endpoint });
  if (error instanceof EndpointError)
    return new CliError(ExitCode.badInput, error.message, { path: error.field, endpoint: error.endpoint });
  if (error instanceof StateError) return new CliError(ExitCode.badInput, error.message, { file });
  const refused = refusalProblems(error);
  if (refused) {
    return new CliError(ExitCode.refused, `refused, nothing was sent: ${(error as Error).message}`, {
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
  if (error instanceof NotCommittedError)
    return new CliError(ExitCode.unreachable, error.message, { endpoint: error.endpoint, outcome: 'not committed' });
  if (error instanceof OutcomeUnknownError)
    return new CliError(ExitCode.unreachable, error.message, { endpoint: error.endpoint, outcome: 'unknown' });
  return undefined;
}

function labStatus(lab: string | boolean): LabStatus {
  const name = checkLabName(typeof lab === 'string' ? lab : DEFAULT_LAB_NAME);
  const state = readLab(name);
  if (!state || state.phase !== 'running')
    throw new CliError(
      ExitCode.unreachable,
      `lab "${name}" is not running: start it with "ovnk lab up --name ${name}"`,
      { lab: name },
    );
  return statusOf(state, state.ovnRoot);
}

/** `EP` for every zone, or `ZONE=EP`; the last one given wins. */
function endpointOf(zone: string, cluster: Cluster, nb: string[] | undefined): string {
  for (const given of [...(nb ?? [])].reverse()) {
    const at = given.indexOf('=');
    if (at < 0) return given;
    if (given.slice(0, at) === zone) return given.slice(at + 1);
  }
  const endpoint = cluster.inventory.targets?.zones[zone]?.nb;
  if (endpoint === undefined)
    throw new CliError(
      ExitCode.badInput,
      `zone "${zone}" has no Northbound endpoint: give --nb, --lab, or spec.targets.zones.${zone}.nb`,
      { path: `spec.targets.zones.${zone}.nb` },
    );
  return endpoint;
}

/** `--owner`, else the Inventory's name; checked before anything is read or written. */
function ownerOf(given: string | undefined, cluster: Cluster): string {
  const owner = given ?? cluster.inventory.name;
  try {
    return checkOwner(owner);
  } catch (error) {
    throw new CliError(ExitCode.badInput, (error as Error).message, {
      path: given === undefined ? `Inventory/${owner}: metadata.name` : '--owner',
    });
  }
}

/** Load, fill from the lab, build, connect to each zone's Northbound, read the stored state. */
export async function fileTarget(options: FileOptions): Promise<FileTarget> {
  const input = await inputOf(options);
  if (input.problems.length > 0) throw inputError(input.label, input.problems);
  const lab = options.lab === undefined || options.lab === false ? undefined : labStatus(options.lab);
  const documents = lab
    ? fillInventory(input.documents, inventoryOf(lab) as unknown as { spec: Record<string, unknown> })
    : input.documents;
  const built = buildInputs(documents);
  if (!built.ok) throw inputError(input.label, built.problems);
  const names = zoneNames(built.cluster);
  if (options.zone !== undefined && !names.includes(options.zone)) {
    throw new CliError(
      ExitCode.badInput,
      `--zone "${options.zone}" is not a zone of this inventory (zones: ${names.join(', ') || 'none'})`,
      { path: '--zone' },
    );
  }
  const zones = [];
  for (const name of names.filter((n) => options.zone === undefined || n === options.zone)) {
    const endpoint = endpointOf(name, built.cluster, options.nb);
    zones.push({ name, db: await nbConnection(endpoint, options.nb ? '--nb' : `spec.targets.zones.${name}.nb`) });
  }
  const owner = ownerOf(options.owner, built.cluster);
  let previous: RuntimeState | undefined;
  for (const zone of zones) previous ??= await readZoneState(zone.db, owner);
  return { file: input.label, documents, owner, cluster: built.cluster, lab, zones, previous };
}

/** The plan for a target; input problems exit 3. */
export function planFor(target: FileTarget, zone?: string): TopologyPlan {
  const result = planTopology(target.cluster, target.previous, { zone });
  if (!result.ok) throw inputError(target.file, attributed(result.inputProblems, target.documents));
  return result.plan;
}
