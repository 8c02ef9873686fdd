/**
 * `ovnk capacity -f FILE [--lab [NAME]] [--previous FILE] [-o json|text]`: how far the planned
 * cluster can grow. It reads the same plan `ovnk plan` makes (offline, or against the lab's stored
 * state) and prints the runtime's forecast (provider/runtime/capacity.ts): per network its host
 * subnets used and free, per connect its slices, Layer2 blocks, highest port key against OVN's
 * 32,767 and how many more nodes and networks it takes, the node, network and datapath-key ranges,
 * and the first limit the cluster hits growing by nodes and by networks. Exit 0, or 1 when the plan
 * itself is refused (the forecast then covers what was accepted), 3 for unusable input.
 */
import type { Command } from 'commander';
import { capacityOf, type CapacityForecast, type Growth, type Limit } from '../../provider/runtime';
import { type CommandResult, ExitCode } from '../contract';
import { runFileCommand } from './fileTarget';
import { fileOption } from './input';
import { type PlanOptions, runPlan } from './plan';

export function registerCapacity(program: Command): void {
  program
    .command('capacity')
    .description('Forecast how many more nodes and networks fit, and the first limit each growth hits')
    .addOption(
      fileOption('YAML or JSON file with Inventory, (Cluster)UserDefinedNetwork and ClusterNetworkConnect objects'),
    )
    .option('--lab [name]', 'forecast from the running lab: its nodes and the state stored there, as plan --lab')
    .option('--previous <file>', 'an earlier `ovnk plan -o json` document (or its state) to stay stable against')
    .option('-o, --output <format>', 'json or text', 'text')
    .action((options: PlanOptions) => runFileCommand(options, () => capacity(options)));
}

export async function capacity(options: PlanOptions): Promise<CommandResult> {
  const plan = (await runPlan(options)).topology;
  const forecast = capacityOf(plan);
  const problems = plan.problems.map(({ reason, message, path }) => ({ reason, message, path }));
  const ok = problems.length === 0;
  return {
    exitCode: ok ? ExitCode.ok : ExitCode.refused,
    document: { ok, ...forecast, problems },
    text: capacityText(forecast, problems),
  };
}

const of = (used: number, total: number) => `${used} used, ${total - used} free`;
const limitLine = (l: Limit) => `${l.more} more (${l.reason}${l.ref ? ` ${l.ref}` : ''}): ${l.message}`;

function capacityText(forecast: CapacityForecast, problems: { reason: string; message: string }[]): string {
  const { nodeIds, networkIds, datapathKeys } = forecast.ranges;
  const range = (r: typeof nodeIds) => `${r.first}..${r.last}: ${of(r.used, r.used + r.free)}`;
  const lines = [
    'Ranges',
    `  node ids ${range(nodeIds)}`,
    `  network ids ${range(networkIds)}`,
    `  datapath keys ${range(datapathKeys)}`,
    'Networks',
    ...forecast.networks.flatMap(networkLines),
    'Connects',
    ...forecast.connects.flatMap(connectLines),
    ...growthLines('Growing by nodes', forecast.growth.nodes),
    ...growthLines('Growing by networks', forecast.growth.networks),
  ];
  if (problems.length > 0)
    lines.push(`Problems (${problems.length}: the plan is refused; the forecast covers what was accepted)`);
  for (const p of problems) lines.push(`  ! ${p.reason}: ${p.message}`);
  return lines.join('\n');
}

function networkLines(n: CapacityForecast['networks'][number]): string[] {
  if (n.hostSubnets.length === 0) return [`  ${n.name}  ${n.topology}  (no host subnets: nodes do not draw on it)`];
  return [
    `  ${n.name}  ${n.topology}  ${n.moreNodes ? `${n.moreNodes.more} more nodes` : ''}`,
    ...n.hostSubnets.map((h) => `    ${h.cidr} /${h.hostSubnet} per node: ${of(h.used, h.total)}`),
  ];
}

function connectLines(c: CapacityForecast['connects'][number]): string[] {
  const key = c.highestPortKey;
  return [
    `  ${c.name}  max nodes per slice ${c.maxNodes}`,
    ...c.slices.map(
      (s) =>
        `    ${s.cidr} /${s.networkPrefix} slices: ${of(s.used, s.total)} (${s.layer3} Layer3, ${s.layer2Blocks} Layer2 blocks)`,
    ),
    ...c.layer2Blocks.map((b) => `    Layer2 block ${b.block}: ${of(b.used, b.size)} /31s`),
    key
      ? `    highest port key ${key.key} of ${key.limit} (${key.network}${key.node ? ` at ${key.node}` : ''})`
      : '    no port key yet',
    ...(c.moreNodes ? [`    nodes: ${limitLine(c.moreNodes)}`] : []),
    `    Layer3 networks: ${limitLine(c.moreLayer3Networks)}`,
    `    Layer2 networks: ${limitLine(c.moreLayer2Networks)}`,
  ];
}

function growthLines(title: string, growth: Growth): string[] {
  return [
    `${title}: ${growth.more} more fit, then`,
    ...growth.limits.map((l) => `  ${l.reason}${l.ref ? ` ${l.ref}` : ''}: ${l.message}`),
  ];
}
