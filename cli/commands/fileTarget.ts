/**
 * What the file commands (plan, apply, diff, destroy) share: their flags, running under the
 * contract with the Northbound connections closed afterwards, and the target of a file: the
 * cluster (with `--lab`, the Inventory filled from the running lab; the file wins), the owner,
 * each zone's Northbound (connected to at once: zoneRuns.ts), and the state stored there.
 */
import type { Command } from 'commander';
import { checkLabName, DEFAULT_LAB_NAME, inventoryOf, type LabStatus, readState as readLab, statusOf } from '../../lab';
import type { Cluster } from '../../provider/model/cluster';
import {
  attributed,
  buildInputs,
  checkOwner,
  closeConnections,
  type ClusterPlan,
  fillInventory,
  type InputDocument,
  type OvsdbDatabase,
  planCluster,
  planTopology,
  type TopologyPlan,
  zoneNames,
} from '../../provider/runtime/cli';
import { CliError, type CommandResult, ExitCode, OUTPUT_FORMATS, parseOutputFormat, runFormatted } from '../contract';
import { notePlanWarnings, noteWarnings } from '../warnings';
import { asCliError } from './cliErrors';
import { type FileArgs, fileOption, inputError, inputLabel, inputOf } from './input';
import { type CredentialOptions, defaultEndpoint, nbOptionsFor, withCredentialOptions } from './nbCredentials';
import { type ConnectedZones, connectZones, parallelOf, releaseZones } from './zoneRuns';

export { asCliError } from './cliErrors';

export interface FileOptions extends CredentialOptions {
  file: FileArgs;
  lab?: string | boolean;
  nb?: string[];
  zone?: string;
  owner?: string;
  output?: string;
  /** Zones worked on at once (`--parallel`, default 8). */
  parallel?: string;
}

/** The file's cluster and owner, and each zone's Northbound (zones, failed, previous: zoneRuns.ts). */
export interface FileTarget<R = undefined> extends ConnectedZones<R> {
  /** The inputs as one label for messages. */
  file: string;
  /** The documents as loaded (filled from the lab with --lab), each with its file. */
  documents: InputDocument[];
  owner: string;
  cluster: Cluster;
  lab?: LabStatus;
  /** Zones worked on at once. */
  parallel: number;
}

export function withFileOptions(command: Command): Command {
  const withTargets = command
    .addOption(fileOption('YAML or JSON file with Inventory and network objects'))
    .option(
      '--lab [name]',
      `target the running lab (default name "${DEFAULT_LAB_NAME}"); fills nodes and targets the file lacks`,
    )
    .option(
      '--nb <endpoint...>',
      'Northbound endpoint for every zone (EP) or one zone (ZONE=EP): unix:, tcp:, ssl:, ssh://user@host[:port]/unix:/path (default: spec.targets, then OVN_NB_DB)',
    )
    .option('--zone <name>', 'only this zone (default: every zone)');
  return withCredentialOptions(withTargets)
    .option('--owner <name>', "the owner marker and state key (default: the Inventory's name)")
    .option('--parallel <n>', 'zones worked on at once (default 8); each zone is still one transaction')
    .option('-o, --output <format>', OUTPUT_FORMATS, 'text');
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

/** `EP` for every zone, or `ZONE=EP` (the last one given wins); else the file's target; else OVN_NB_DB. */
function endpointOf(zone: string, cluster: Cluster, nb: string[] | undefined): { endpoint: string; field: string } {
  for (const given of [...(nb ?? [])].reverse()) {
    const at = given.indexOf('=');
    if (at < 0) return { endpoint: given, field: '--nb' };
    if (given.slice(0, at) === zone) return { endpoint: given.slice(at + 1), field: '--nb' };
  }
  const endpoint = cluster.inventory.targets?.zones[zone]?.nb;
  if (endpoint !== undefined) return { endpoint, field: `spec.targets.zones.${zone}.nb` };
  const fallback = defaultEndpoint();
  if (fallback !== undefined) return { endpoint: fallback, field: 'OVN_NB_DB' };
  throw new CliError(
    ExitCode.badInput,
    `zone "${zone}" has no Northbound endpoint: give --nb, --lab, spec.targets.zones.${zone}.nb or OVN_NB_DB`,
    { path: `spec.targets.zones.${zone}.nb` },
  );
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

/**
 * Load, fill from the lab, build, connect to each zone's Northbound and read the stored state
 * there (and what `also` reads, on the same connection). With `partial`, zones that do not answer
 * are listed in `failed` (apply, diff and destroy go on with the others); without it the first one
 * fails the command (exit 4). With `tolerateState`, an unreadable stored state is noted in
 * `unreadableState` instead of failing its zone (exit 3): destroy and repair need none. The first
 * `--parallel` zones stay connected for the zone run: call releaseZones when done.
 */
export async function fileTarget<R = undefined>(
  options: FileOptions,
  partial = false,
  tolerateState = false,
  also?: (cluster: Cluster) => (db: OvsdbDatabase) => Promise<R>,
): Promise<FileTarget<R>> {
  const input = await inputOf(options);
  if (input.problems.length > 0) throw inputError(input.label, input.problems);
  const lab = options.lab === undefined || options.lab === false ? undefined : labStatus(options.lab);
  const documents = lab
    ? fillInventory(input.documents, inventoryOf(lab) as unknown as { spec: Record<string, unknown> })
    : input.documents;
  const built = buildInputs(documents);
  if (!built.ok) throw inputError(input.label, built.problems);
  noteWarnings(built.cluster);
  const names = zoneNames(built.cluster);
  if (options.zone !== undefined && !names.includes(options.zone)) {
    throw new CliError(
      ExitCode.badInput,
      `--zone "${options.zone}" is not a zone of this inventory (zones: ${names.join(', ') || 'none'})`,
      { path: '--zone' },
    );
  }
  const endpoints = names
    .filter((n) => options.zone === undefined || n === options.zone)
    .map((name) => {
      const { endpoint, field } = endpointOf(name, built.cluster, options.nb);
      return { name, endpoint, field, options: nbOptionsFor(endpoint, options) };
    });
  const owner = ownerOf(options.owner, built.cluster);
  const parallel = parallelOf(options.parallel);
  const read = also?.(built.cluster);
  const connected = await connectZones(endpoints, owner, parallel, input.label, tolerateState, read);
  if (!partial && connected.failed.length > 0) {
    await releaseZones(connected);
    const first = connected.failed[0]!;
    throw new CliError(first.exitCode, first.why, { file: input.label, endpoint: first.endpoint, zone: first.zone });
  }
  return { file: input.label, documents, owner, cluster: built.cluster, lab, parallel, ...connected };
}

/**
 * The cluster plan of a target (Northbound rows and host state): with `discover`, a file with
 * Uplinks has its nodes discovered first. Input problems exit 3. Close it with closeCluster.
 */
export async function clusterPlanFor(
  target: FileTarget<unknown>,
  zone: string | undefined,
  discover: boolean,
): Promise<ClusterPlan> {
  const { cluster, owner, previous, others } = target;
  const result = await planCluster({ cluster, owner, previous, others }, { zone, discover });
  if (!result.ok) throw inputError(target.file, attributed(result.problems, target.documents));
  notePlanWarnings(result.plan.topology.warnings);
  return result.plan;
}

/** The plan for a target; input problems exit 3. */
export function planFor(target: FileTarget<unknown>, zone?: string): TopologyPlan {
  const result = planTopology(target.cluster, target.previous, { zone, others: target.others });
  if (!result.ok) throw inputError(target.file, attributed(result.problems, target.documents));
  return result.plan;
}
