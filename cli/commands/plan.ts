/**
 * `ovnk plan -f FILE [--zone NAME] [--previous FILE] [-o json|text]`: offline plan. Reads the
 * objects, validates, allocates (stable against --previous) and prints the plan document:
 * connects (accepted, problems, upstream annotations), allocations, zones (each zone's NB rows by
 * table, from provider/connect/zones.ts, with children written into the parents among them
 * (nb/parents.ts); plus notes on what was left out) and state. Exit 0 all accepted, 1 problems, 3 bad input.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { ClusterAllocation } from '../../provider/alloc/cluster';
import { type AllocationState, readState } from '../../provider/alloc/state';
import { planCluster } from '../../provider/connect/plan';
import type { Cluster } from '../../provider/model/cluster';
import { prepareZones, renderZone, type ZoneRows, uniqueRows, zoneTables } from '../../provider/connect/zones';
import { inlineParents } from '../../provider/nb/parents';
import { TopologyInputError } from '../../provider/topology/errors';
import { topologyInputs } from '../../provider/topology/fromCluster';
import { renderNetwork } from '../../provider/topology/render';
import { CliError, type CommandResult, ExitCode, parseOutputFormat, runCommand } from '../contract';
import { planText } from './planText';
import { withUplinks } from './uplinks';

interface PlanOptions {
  file: string;
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
    .option('--lab [name]', 'Uplinks: discover them on the running lab\'s nodes over SSH') // uplinks: cli/commands/uplinks.ts
    .option('--previous <file>', 'an earlier `ovnk plan -o json` document (or its state) to stay stable against')
    .option('-o, --output <format>', 'json or text', 'text')
    .action(async (options: PlanOptions) => {
      const format = parseOutputFormat(options.output);
      process.exitCode = await runCommand(format, async () => withUplinks('plan', options, () => plan(options))); // uplinks: cli/commands/uplinks.ts
    });
}

export function plan(options: PlanOptions): CommandResult {
  const text = readInput(options.file, '-f');
  const previous = options.previous === undefined ? undefined : readPrevious(options.previous);
  const outcome = planCluster(text, previous);
  if (!outcome.ok) {
    const first = outcome.inputProblems[0]!;
    throw new CliError(ExitCode.badInput, `${options.file}: ${first.path}: ${first.message}`, { file: options.file, path: first.path, problems: outcome.inputProblems });
  }
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
 * The NB rows of every zone, or of `zone` only: the networks' rows (provider/topology) and the
 * connects' rows, with children (the connects' LBG and ACLs) written into the parents among them.
 */
export function renderZones(cluster: Cluster, allocation: ClusterAllocation, zone?: string): ZoneRows[] {
  const prepared = prepareZones(cluster, allocation);
  const networks = networkRows(cluster, allocation, zone);
  return prepared.zones.filter((z) => zone === undefined || z.name === zone).map((z) => {
    const connect = renderZone(prepared, z);
    return { ...connect, rows: inlineParents(uniqueRows([...(networks.get(z.name) ?? []), ...connect.rows])) };
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
