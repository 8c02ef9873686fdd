/**
 * `ovnk plan -f FILE [--lab [NAME]] [--zone NAME] [--previous FILE] [-o json|text]`: offline plan,
 * or with --lab against the running lab (nodes and targets filled and the stored state read
 * exactly as apply does, so the plan is what apply would do). Reads the objects, validates,
 * allocates (stable against --previous, else the stored state) and prints the plan document:
 * connects (accepted, problems, upstream annotations), allocations, zones (each zone's NB rows by
 * table, from provider/connect/zones.ts, with children written into the parents among them
 * (nb/parents.ts); plus notes on what was left out) and state. Exit 0 all accepted, 1 problems, 3 bad input.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { ClusterAllocation } from '../../provider/alloc/cluster';
import { type AllocationState, readState } from '../../provider/alloc/state';
import { allocatePlan, planCluster, type PlanOutcome } from '../../provider/connect/plan';
import type { Cluster } from '../../provider/model/cluster';
import { networkServiceRows } from '../../provider/connect/services';
import { prepareZones, renderZone, type ZoneRows, uniqueRows, zoneTables } from '../../provider/connect/zones';
import { inlineParents } from '../../provider/nb/parents';
import { TopologyInputError } from '../../provider/topology/errors';
import { topologyInputs } from '../../provider/topology/fromCluster';
import { renderNetwork } from '../../provider/topology/render';
import { CliError, type CommandResult, ExitCode } from '../contract';
import { fileTarget, runFileCommand } from './apply';
import { planText } from './planText';
import { withUplinks } from './uplinks';

interface PlanOptions {
  file: string;
  lab?: string | boolean;
  zone?: string;
  previous?: string;
  output?: string;
}

export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description('Validate and allocate offline: ids, host subnets, tunnel keys, connect subnets, problems')
    .requiredOption('-f, --file <file>', 'YAML or JSON file with Inventory, (Cluster)UserDefinedNetwork and ClusterNetworkConnect objects')
    .option('--zone <name>', 'plan only this zone (default: every zone)')
    .option('--lab [name]', 'plan against the running lab: nodes, targets and stored state as apply reads them; Uplinks discovered on its nodes over SSH') // uplinks: cli/commands/uplinks.ts
    .option('--previous <file>', 'an earlier `ovnk plan -o json` document (or its state) to stay stable against')
    .option('-o, --output <format>', 'json or text', 'text')
    .action((options: PlanOptions) => runFileCommand(options, () => withUplinks('plan', options, () => plan(options)))); // uplinks: cli/commands/uplinks.ts
}

const withLab = (options: PlanOptions): boolean => options.lab !== undefined && options.lab !== false;

/** Offline: the file alone; --lab: the file filled from the lab (fileTarget, as apply) and the state stored there. */
async function outcomeOf(options: PlanOptions): Promise<PlanOutcome> {
  const previous = options.previous === undefined ? undefined : readPrevious(options.previous);
  if (!withLab(options)) return planCluster(readInput(options.file, '-f'), previous);
  const target = await fileTarget({ file: options.file, lab: options.lab, zone: options.zone });
  return { ok: true, cluster: target.cluster, allocation: allocatePlan(target.cluster, previous ?? target.previous?.allocation) };
}

export async function plan(options: PlanOptions): Promise<CommandResult> {
  const outcome = await outcomeOf(options);
  if (!outcome.ok) {
    const first = outcome.inputProblems[0]!;
    throw new CliError(ExitCode.badInput, `${options.file}: ${first.path}: ${first.message}`, { file: options.file, path: first.path, problems: outcome.inputProblems });
  }
  if (!withLab(options)) checkPodNodes(options.file, outcome.cluster);
  checkZone(outcome.cluster, options.zone);
  const zones = renderZones(outcome.cluster, outcome.allocation, options.zone);
  const document = planDocument(outcome.cluster, outcome.allocation, zones);
  const accepted = Object.values(outcome.allocation.connects).every((c) => c.accepted) && outcome.allocation.problems.length === 0;
  return { exitCode: accepted ? ExitCode.ok : ExitCode.refused, document, text: planText(outcome.cluster, outcome.allocation, zones) };
}

export function planDocument(cluster: Cluster, allocation: ClusterAllocation, zones: ZoneRows[] = renderZones(cluster, allocation)) {
  const { networkIds, nodeIds, hostSubnets, datapathKeys } = allocation;
  const connects: Record<string, unknown> = {};
  for (const [name, c] of Object.entries(allocation.connects)) {
    connects[name] = { accepted: c.accepted, problems: c.problems.map(({ reason, message, path }) => ({ reason, message, path })), annotations: c.annotations, tunnelKey: c.tunnelKey, networks: c.networks };
  }
  return {
    ok: true,
    accepted: allocation.problems.length === 0 && Object.values(allocation.connects).every((c) => c.accepted),
    connects,
    problems: allocation.problems,
    allocations: { networkIds, nodeIds, hostSubnets, datapathKeys },
    zones: Object.fromEntries(zones.map((z) => [z.zone.name, zoneTables(z.rows)])),
    zoneNotes: zones.flatMap((z) => z.notes),
    state: allocation.state,
  };
}

/**
 * The NB rows of every zone, or of `zone` only: the networks' rows (provider/topology), the
 * connects' rows and the services' rows (as apply adds them, runtime/services.ts), with children
 * (the LB groups and ACLs) written into the parents among them.
 */
export function renderZones(cluster: Cluster, allocation: ClusterAllocation, zone?: string): ZoneRows[] {
  const prepared = prepareZones(cluster, allocation);
  const networks = networkRows(cluster, allocation, zone);
  return prepared.zones.filter((z) => zone === undefined || z.name === zone).map((z) => {
    const connect = renderZone(prepared, z);
    const rows = uniqueRows([...(networks.get(z.name) ?? []), ...connect.rows]);
    const services = networkServiceRows(cluster.networks, cluster.inventory.services, Object.keys(allocation.nodeIds), rows);
    return { ...connect, rows: inlineParents([...rows, ...services]) };
  });
}

/** Each zone's network rows; unusable network input is the CLI's exit 3. */
function networkRows(cluster: Cluster, allocation: ClusterAllocation, zone?: string): Map<string, ReturnType<typeof renderNetwork>> {
  try {
    const inputs = topologyInputs(cluster, allocation, {}, zone);
    return new Map(inputs.zones.map((z) => [z.zone.name, z.inputs.flatMap((input) => renderNetwork(input))]));
  } catch (error) {
    if (error instanceof TopologyInputError) throw new CliError(ExitCode.badInput, error.message, { path: error.field });
    throw error;
  }
}

/** Offline, pods on nodes the Inventory does not list cannot be planned (no node ids, no rows): exit 3, suggesting --lab. */
function checkPodNodes(file: string, cluster: Cluster): void {
  const listed = new Set(cluster.inventory.nodes.map((n) => n.name));
  const at = cluster.inventory.pods.findIndex((p) => !listed.has(p.node));
  if (at < 0) return;
  const pod = cluster.inventory.pods[at]!;
  const path = `spec.pods[${at}].node`;
  const known = listed.size === 0 ? 'spec.nodes lists no node' : `spec.nodes lists ${[...listed].join(', ')}`;
  const message = `pod ${pod.namespace}/${pod.name} names node "${pod.node}", which the Inventory does not list (${known}): give --lab [NAME] to plan against the running lab's nodes, or list the node under spec.nodes`;
  throw new CliError(ExitCode.badInput, `${file}: ${path}: ${message}`, { file, path });
}

function checkZone(cluster: Cluster, zone: string | undefined): void {
  if (zone === undefined) return;
  const zones = cluster.inventory.zones === 'central' ? ['central'] : cluster.inventory.nodes.map((n) => n.name);
  if (!zones.includes(zone)) throw new CliError(ExitCode.badInput, `--zone "${zone}" is not a zone of this inventory (zones: ${zones.join(', ') || 'none'})`, { path: '--zone' });
}

function readInput(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(ExitCode.badInput, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file, path: flag });
  }
}

function readPrevious(file: string): AllocationState {
  let value: unknown;
  try {
    value = JSON.parse(readInput(file, '--previous'));
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(ExitCode.badInput, `${file} is not JSON: ${(error as Error).message}`, { file, path: '--previous' });
  }
  const state = readState(value);
  if (typeof state === 'string') throw new CliError(ExitCode.badInput, `${file} ${state}`, { file, path: '--previous' });
  return state;
}
