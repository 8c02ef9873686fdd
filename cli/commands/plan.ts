/**
 * `ovnk plan -f FILE [--lab [NAME]] [--zone NAME] [--previous FILE] [-o json|text]`: offline plan,
 * or with --lab against the running lab (nodes and targets filled and the stored state read
 * exactly as apply does, so the plan is what apply would do). Reads the objects, validates,
 * allocates (stable against --previous, else the stored state) and prints the plan document:
 * connects (accepted, problems, upstream annotations), allocations, zones (each zone's NB rows by
 * table as provider/runtime/cli's planTopology renders them for apply: networks, connects, services;
 * children written into the parents among them (nb/parents.ts); plus notes on what was left out)
 * and state. With Uplinks, the runtime's cluster plan adds the Uplink section (uplinksText.ts):
 * offline the selection, UplinkState names and the conditions that need no node; with --lab (or
 * node targets in the Inventory) each node discovered over SSH first. Exit 0 when nothing is
 * refused, 1 problems, 3 bad input. `runPlan` returns the typed report; `plan` renders it.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Cluster } from '../../provider/model/cluster';
import type { Problem } from '../../provider/model/problem';
import {
  type AllocationState,
  attributed,
  buildInputs,
  type ClusterAllocation,
  closeCluster,
  connectReplacements,
  dict,
  hasNodeTargets,
  type InputDocument,
  planCluster,
  planUplinkSection,
  readableTables,
  readPreviousAllocation,
  type RuntimeState,
  type TopologyPlan,
  type UplinkSection,
  withAllocation,
  type ZonePlan,
  zoneNames,
} from '../../provider/runtime/cli';
import { CliError, type CommandResult, ExitCode, OUTPUT_FORMATS, progress } from '../contract';
import { notePlanWarnings, noteWarnings } from '../warnings';
import { fileTarget, runFileCommand } from './fileTarget';
import { type FileArgs, fileOption, inputError, inputOf } from './input';
import { planText } from './planText';
import { nodeFailures, uplinkFields, uplinkLines, withUplinkExit } from './uplinksText';
import { releaseZones } from './zoneRuns';

export interface PlanOptions {
  file: FileArgs;
  lab?: string | boolean;
  zone?: string;
  previous?: string;
  output?: string;
}

export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description('Validate and allocate offline: ids, host subnets, tunnel keys, connect subnets, problems')
    .addOption(
      fileOption('YAML or JSON file with Inventory, (Cluster)UserDefinedNetwork and ClusterNetworkConnect objects'),
    )
    .option('--zone <name>', 'plan only this zone (default: every zone)')
    .option(
      '--lab [name]',
      'plan against the running lab: nodes, targets and stored state as apply reads them; Uplinks discovered on its nodes over SSH',
    )
    .option('--previous <file>', 'an earlier `ovnk plan -o json` document (or its state) to stay stable against')
    .option('-o, --output <format>', OUTPUT_FORMATS, 'text')
    .action((options: PlanOptions) => runFileCommand(options, () => plan(options)));
}

const withLab = (options: PlanOptions): boolean => options.lab !== undefined && options.lab !== false;

interface PlanSource {
  cluster: Cluster;
  /** The inputs as one label, and the documents with their files (problems name them). */
  label: string;
  documents: InputDocument[];
  previous?: RuntimeState;
}

/** Offline: the inputs alone; --lab: filled from the lab (fileTarget, as apply) with the state stored there. */
async function sourceOf(options: PlanOptions): Promise<PlanSource> {
  const allocation = options.previous === undefined ? undefined : readPrevious(options.previous);
  if (withLab(options)) {
    const target = await fileTarget(options);
    await releaseZones(target);
    const stored = target.previous;
    return {
      cluster: target.cluster,
      label: target.file,
      documents: target.documents,
      previous: allocation === undefined ? stored : withAllocation(stored, allocation),
    };
  }
  const input = await inputOf(options);
  if (input.problems.length > 0) throw inputError(input.label, input.problems);
  const built = buildInputs(input.documents);
  if (!built.ok) throw inputError(input.label, built.problems);
  noteWarnings(built.cluster);
  return {
    cluster: built.cluster,
    label: input.label,
    documents: input.documents,
    previous: allocation === undefined ? undefined : withAllocation(undefined, allocation),
  };
}

/** What one plan shows, typed: the topology plan and the Uplink section. */
export interface PlanReport {
  topology: TopologyPlan;
  uplinks?: UplinkSection;
}

/** The plan is the runtime's cluster plan: exactly the rows, pods, state and Uplink steps apply would use. */
export async function runPlan(options: PlanOptions, reach = { targets: false }): Promise<PlanReport> {
  const source = await sourceOf(options);
  if (!withLab(options)) checkPodNodes(source);
  checkZone(source.cluster, options.zone);
  const { cluster, previous } = source;
  const discover = withLab(options) || hasNodeTargets(cluster);
  reach.targets = discover;
  const result = await planCluster(
    { cluster, owner: cluster.inventory.name, previous },
    { zone: options.zone, discover },
  );
  if (!result.ok) throw inputError(source.label, attributed(result.problems, source.documents));
  notePlanWarnings(result.plan.topology.warnings);
  try {
    return { topology: result.plan.topology, uplinks: await planUplinkSection(result.plan) };
  } finally {
    await closeCluster(result.plan);
  }
}

export function renderPlan({ topology, uplinks }: PlanReport): CommandResult {
  const { cluster, allocation, zones, problems } = topology;
  const document = planDocument(allocation, zones, problems);
  const exitCode = problems.length === 0 ? ExitCode.ok : ExitCode.refused;
  // made when read: `-o json` never renders the text (each renders every zone's rows)
  const text = () => builtHere(() => planText(cluster, allocation, zones, problems));
  if (!uplinks)
    return {
      exitCode,
      document,
      get text() {
        return text();
      },
    };
  const refused =
    uplinks.problems.length > 0 ? { ok: false, problems: [...document.problems, ...uplinks.problems] } : {};
  const failed = nodeFailures(uplinks);
  const error = failed.map((n) => `node ${n.node}: ${n.error}`).join('; ');
  const code = withUplinkExit('plan', exitCode, uplinks);
  const failure = failed.length > 0 ? { ok: false, exitCode: code, error, failedNodes: failed.map((n) => n.node) } : {};
  if (error) progress(`error: ${error}`);
  return {
    exitCode: code,
    document: { ...document, ...refused, ...failure, ...uplinkFields(uplinks, 'plan') },
    text: [text(), ...uplinkLines(uplinks, 'plan'), ...(error ? [`failed: ${error}`] : [])].join('\n'),
  };
}

export async function plan(options: PlanOptions): Promise<CommandResult> {
  const reach = { targets: withLab(options) };
  try {
    return renderPlan(await runPlan(options, reach));
  } catch (error) {
    if (reach.targets) throw error;
    return builtHere(() => {
      throw error;
    });
  }
}

/**
 * `build`'s result. Offline nothing is reached: a plan that cannot be built, now or while its
 * zones are written (they render when read), is this process's failure (exit 1), never 4.
 */
function builtHere<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof CliError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(ExitCode.refused, `the plan could not be built: ${message}`);
  }
}

/**
 * `ok` is false when anything is refused; `problems` lists every refusal (each connect's also under
 * `connects`); each connect's warnings are under `connects` too (all of them: cli/warnings.ts).
 */
export function planDocument(allocation: ClusterAllocation, zones: ZonePlan[], problems: Problem[]) {
  const brief = ({ reason, message, path }: { reason: string; message: string; path: string }) => ({
    reason,
    message,
    path,
  });
  const { networkIds, nodeIds, hostSubnets, datapathKeys } = allocation;
  const connects = dict<unknown>();
  for (const [name, c] of Object.entries(allocation.connects)) {
    connects[name] = {
      accepted: c.accepted,
      problems: c.problems.map(brief),
      warnings: (c.warnings ?? []).map(brief),
      annotations: c.annotations,
      tunnelKey: c.tunnelKey,
      networks: c.networks,
    };
  }
  return {
    ok: problems.length === 0,
    accepted: allocation.problems.length === 0 && Object.values(allocation.connects).every((c) => c.accepted),
    connects,
    problems: problems.map(brief),
    allocations: { networkIds, nodeIds, hostSubnets, datapathKeys },
    // Children listed in their parents' columns, as a person reads a Northbound.
    zones: lazyZoneTables(zones),
    get zoneNotes() {
      return zones.flatMap((z) => z.notes);
    },
    // connects whose connectSubnets changed: apply replaces them only when given --replace
    replacements: connectReplacements(allocation),
    state: allocation.state,
  };
}

/**
 * Each zone's tables made when read (a getter), so the document of a per-node plan, whose zones
 * together hold N² rows (issue 25.4), is written zone by zone (cli/jsonStream.ts), not held whole.
 */
function lazyZoneTables(zones: ZonePlan[]): Record<string, ReturnType<typeof readableTables>> {
  const tables = dict<ReturnType<typeof readableTables>>();
  for (const z of zones)
    Object.defineProperty(tables, z.name, { enumerable: true, get: () => builtHere(() => readableTables(z.rows)) });
  return tables;
}

/**
 * Offline, pods on nodes the Inventory does not list cannot be planned (no node ids, no rows): exit
 * 3, suggesting --lab.
 */
function checkPodNodes({ cluster, label, documents }: PlanSource): void {
  const listed = new Set(cluster.inventory.nodes.map((n) => n.name));
  const at = cluster.inventory.pods.findIndex((p) => !listed.has(p.node));
  if (at < 0) return;
  const pod = cluster.inventory.pods[at]!;
  const known = listed.size === 0 ? 'spec.nodes lists no node' : `spec.nodes lists ${[...listed].join(', ')}`;
  const message = `pod ${pod.namespace}/${pod.name} names node "${pod.node}", which the Inventory does not list (${known}): give --lab [NAME] to plan against the running lab's nodes, or list the node under spec.nodes`;
  const inventory = documents.find((d) => d.kind === 'Inventory');
  const object = inventory?.ref ?? 'Inventory';
  const path = `${object}: spec.pods[${at}].node`;
  throw inputError(label, [{ reason: 'InvalidField', message, path, object, file: inventory?.file }]);
}

function checkZone(cluster: Cluster, zone: string | undefined): void {
  if (zone === undefined) return;
  const zones = zoneNames(cluster);
  if (!zones.includes(zone))
    throw new CliError(
      ExitCode.badInput,
      `--zone "${zone}" is not a zone of this inventory (zones: ${zones.join(', ') || 'none'})`,
      { path: '--zone' },
    );
}

function readInput(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(
      ExitCode.badInput,
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      { file, path: flag },
    );
  }
}

function readPrevious(file: string): AllocationState {
  let value: unknown;
  try {
    value = JSON.parse(readInput(file, '--previous'));
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(ExitCode.badInput, `${file} is not JSON: ${(error as Error).message}`, {
      file,
      path: '--previous',
    });
  }
  const read = readPreviousAllocation(value);
  if (!read.ok) throw new CliError(ExitCode.badInput, `${file} ${read.why}`, { file, path: '--previous' });
  return read.value;
}
