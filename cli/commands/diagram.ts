/**
 * `ovnk diagram -f FILE [--lab [NAME]] [--zone Z] [--connect NAME] [--previous FILE]
 * -o svg|png|dot [--output-file FILE]`: the planned topology as a picture. It reads the same plan
 * `ovnk plan` makes (no I/O beyond plan's) and draws it with the runtime's diagram
 * (provider/runtime/diagram/): DOT text, SVG laid out by Graphviz, or PNG. The result goes to
 * stdout whole (`-o png` too: binary, so not onto a terminal), or into `--output-file`. Exit 0, 1
 * when the plan is refused (the picture still shows it, the refused connects marked), 3 for
 * unusable input or flags.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import {
  closeConnections,
  diagramDot,
  diagramOf,
  dotToSvg,
  svgToPng,
  type UplinkSection,
} from '../../provider/runtime/cli';
import { CliError, type CommandResult, emit, ExitCode, progress, runCommand } from '../contract';
import { asCliError } from './fileTarget';
import { fileOption, inputLabel } from './input';
import { type PlanOptions, runPlan } from './plan';

const formats = ['svg', 'png', 'dot'] as const;
type DiagramFormat = (typeof formats)[number];

interface DiagramOptions extends PlanOptions {
  connect?: string;
  outputFile?: string;
}

export function registerDiagram(program: Command): void {
  program
    .command('diagram')
    .description('Draw the planned topology: networks, routers, connects and Uplinks (SVG, PNG or DOT)')
    .addOption(
      fileOption('YAML or JSON file with Inventory, (Cluster)UserDefinedNetwork and ClusterNetworkConnect objects'),
    )
    .option(
      '--lab [name]',
      'draw the plan against the running lab (its nodes, stored state and Uplink bridges), as plan --lab',
    )
    .option('--zone <name>', "only this zone's routers (default: every zone)")
    .option('--connect <name>', 'only this ClusterNetworkConnect and the networks it joins')
    .option('--previous <file>', 'an earlier `ovnk plan -o json` document (or its state) to stay stable against')
    .option('-o, --output <format>', 'svg, png or dot', 'svg')
    .option('--output-file <file>', 'write the picture into this file instead of stdout')
    .action(async (options: DiagramOptions) => {
      process.exitCode = await runCommand('text', async () => {
        try {
          return await diagram(options);
        } catch (error) {
          throw asCliError(error, inputLabel(options.file));
        } finally {
          await closeConnections();
        }
      });
    });
}

function formatOf(value: string | undefined): DiagramFormat {
  const format = formats.find((f) => f === (value ?? 'svg'));
  if (format) return format;
  throw new CliError(ExitCode.badInput, `unknown diagram format "${value}": use -o svg, -o png or -o dot`, {
    path: '-o',
  });
}

/** Each Uplink's bridge per node, as the nodes reported it (plan --lab); none offline. */
function bridgesOf(section: UplinkSection | undefined): Record<string, Record<string, string>> {
  const bridges: Record<string, Record<string, string>> = Object.create(null);
  for (const state of section?.uplinkStates ?? []) {
    const bridge = state.status.ovsBridge?.name;
    if (bridge === undefined) continue;
    (bridges[state.spec.uplinkName] ??= Object.create(null))[state.spec.nodeName] = bridge;
  }
  return bridges;
}

export async function diagram(options: DiagramOptions): Promise<CommandResult> {
  const format = formatOf(options.output);
  if (format === 'png' && !options.outputFile && process.stdout.isTTY)
    throw new CliError(ExitCode.badInput, 'a PNG is binary: give --output-file FILE or redirect stdout', {
      path: '-o',
    });
  const report = await runPlan(options);
  const plan = report.topology;
  if (options.connect !== undefined && !plan.cluster.connects.some((c) => c.name === options.connect)) {
    const known = plan.cluster.connects.map((c) => c.name).join(', ') || 'none';
    throw new CliError(
      ExitCode.badInput,
      `--connect "${options.connect}" is not a ClusterNetworkConnect of the input (connects: ${known})`,
      {
        path: '--connect',
      },
    );
  }
  const dot = diagramDot(diagramOf(plan, { connect: options.connect, bridges: bridgesOf(report.uplinks) }));
  const picture = format === 'dot' ? dot : format === 'svg' ? await dotToSvg(dot) : await svgToPng(await dotToSvg(dot));
  const exitCode = plan.problems.length === 0 ? ExitCode.ok : ExitCode.refused;
  if (options.outputFile !== undefined) {
    writeOutput(options.outputFile, picture);
    progress(`wrote ${options.outputFile} (${format}, ${picture.length} bytes)`);
    return { exitCode, document: {} };
  }
  if (typeof picture !== 'string') {
    await emit(process.stdout, picture);
    return { exitCode, document: {} };
  }
  return { exitCode, document: {}, text: picture };
}

function writeOutput(file: string, picture: string | Buffer): void {
  try {
    writeFileSync(file, picture);
  } catch (error) {
    throw new CliError(
      ExitCode.badInput,
      `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      {
        path: '--output-file',
      },
    );
  }
}
