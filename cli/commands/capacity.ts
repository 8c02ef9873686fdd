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
import { capacityOf, type CapacityForecast, type Growth, type Limit } from '../../provider/runtime/cli';
import { type CommandResult, ExitCode, OUTPUT_FORMATS } from '../contract';
import { table } from '../table';
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
    .option('-o, --output <format>', OUTPUT_FORMATS, 'text')
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

const limitText = (l: Limit) => `${l.reason}${l.ref ? ` ${l.ref}` : ''}: ${l.message}`;

function capacityText(forecast: CapacityForecast, problems: { reason: string; message: string }[]): string {
  const sections = [rangeLines(forecast), networkLines(forecast), ...connectLines(forecast), growthLines(forecast)];
  const lines = sections.flatMap((s, i) => (i === 0 ? s : ['', ...s]));
  if (problems.length > 0)
    lines.push('', `Problems (${problems.length}: the plan is refused; the forecast covers what was accepted)`);
  for (const p of problems) lines.push(`  ! ${p.reason}: ${p.message}`);
  return lines.join('\n');
}

function rangeLines({ ranges }: CapacityForecast): string[] {
  const named = [
    ['node ids', ranges.nodeIds],
    ['network ids', ranges.networkIds],
    ['datapath keys', ranges.datapathKeys],
  ] as const;
  const rows = named.map(([name, r]) => [name, `${r.first}..${r.last}`, String(r.used), String(r.free)]);
  return table(['range', 'values', 'used', 'free'], rows);
}

/** Per network and range of its subnets: the host subnets used and free, and how many more nodes fit. */
function networkLines({ networks }: CapacityForecast): string[] {
  const rows = networks.flatMap((n) => {
    if (n.hostSubnets.length === 0)
      return [[n.name, n.topology, '-', '', '', '', 'no host subnets: nodes do not draw on it']];
    return n.hostSubnets.map((h, i) => [
      i === 0 ? n.name : '',
      i === 0 ? n.topology : '',
      h.cidr,
      `/${h.hostSubnet}`,
      String(h.used),
      String(h.free),
      i === 0 && n.moreNodes ? String(n.moreNodes.more) : '',
    ]);
  });
  return table(['network', 'topology', 'subnet', 'per node', 'used', 'free', 'more nodes'], rows);
}

/**
 * Per connect: its slices, its Layer2 blocks, then one row of what it takes (the limits are said
 * once, under growth).
 */
function connectLines({ connects }: CapacityForecast): string[][] {
  if (connects.length === 0) return [];
  const slices = connects.flatMap((c) =>
    c.slices.map((s, i) => [
      i === 0 ? c.name : '',
      s.cidr,
      `/${s.networkPrefix}`,
      String(s.used),
      String(s.free),
      String(s.layer3),
      String(s.layer2Blocks),
    ]),
  );
  const blocks = connects.flatMap((c) =>
    c.layer2Blocks.map((b, i) => [i === 0 ? c.name : '', b.block, String(b.used), String(b.free)]),
  );
  const takes = connects.map((c) => {
    const key = c.highestPortKey;
    return [
      c.name,
      `below ${c.nodeIdsPerSlice}`,
      key ? `${key.key} of ${key.limit} (${key.network}${key.node ? ` at ${key.node}` : ''})` : '-',
      c.moreNodes ? String(c.moreNodes.more) : 'node ids bound it',
      String(c.moreLayer3Networks.more),
      String(c.moreLayer2Networks.more),
    ];
  });
  return [
    table(['connect', 'slice range', 'slice', 'used', 'free', 'layer3', 'layer2 blocks'], slices),
    ...(blocks.length > 0 ? [table(['connect', 'layer2 block', 'used /31s', 'free /31s'], blocks)] : []),
    table(
      ['connect', 'layer3 node ids', 'highest port key', 'more nodes', 'more layer3 networks', 'more layer2 networks'],
      takes,
    ),
  ];
}

/** How many more fit growing by each, and the limit (or the tied limits) reached first, each said once. */
function growthLines({ growth }: CapacityForecast): string[] {
  const rows: [string, Growth][] = [
    ['nodes', growth.nodes],
    ['Layer3 networks', growth.layer3Networks],
    ['Layer2 networks', growth.layer2Networks],
  ];
  const cells = rows.flatMap(([name, g]) =>
    g.limits.map((l, i) => [i === 0 ? name : '', i === 0 ? String(g.more) : '', limitText(l)]),
  );
  return table(['growing by', 'more', 'then refused'], cells);
}
