/**
 * `ovnk inventory [--kubeconfig FILE] [--context C]`: an Inventory (ovnk/v1alpha1) read from a
 * running cluster through its API server: nodes with upstream's annotations (ids, chassis, host
 * subnets, gateway), namespaces with labels, the allocations upstream recorded on NADs and
 * ClusterNetworkConnects, and the settings of upstream's configmaps. `ovnk plan -f` and the
 * Pulumi components take it, so predictions start from the cluster's real numbers. The Inventory
 * is the result (YAML, or JSON with `-o json`); notes on what was missing go to stderr.
 * Exit 3 for an unusable kubeconfig or context, 4 when the cluster cannot be read.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { KubernetesReadError, readClusterInventory } from '../../provider/runtime/cli';
import { CliError, type CommandResult, ExitCode, OUTPUT_FORMATS, parseOutputFormat, runFormatted } from '../contract';
import { asCliError } from './cliErrors';

interface InventoryFlags {
  kubeconfig?: string;
  context?: string;
  name?: string;
  configNamespace: string;
  output?: string;
}

async function readInventory(flags: InventoryFlags, quiet: boolean): Promise<CommandResult> {
  const kubeconfig = kubeconfigOf(flags);
  try {
    const read = await readClusterInventory({
      kubeconfig,
      context: flags.context,
      name: flags.name,
      configNamespace: flags.configNamespace,
    });
    if (!quiet) for (const note of read.notes) process.stderr.write(`ovnk inventory: note: ${note}\n`);
    return { document: read.inventory, text: stringify(read.inventory) };
  } catch (error) {
    if (!(error instanceof KubernetesReadError)) throw asCliError(error, kubeconfig);
    const code = error.kind === 'input' ? ExitCode.badInput : ExitCode.unreachable;
    throw new CliError(code, error.message, error.kind === 'input' ? { file: kubeconfig } : {});
  }
}

/** kubectl's order: --kubeconfig, then the first file of $KUBECONFIG, then ~/.kube/config. */
function kubeconfigOf(flags: InventoryFlags): string {
  const given = flags.kubeconfig ?? process.env.KUBECONFIG?.split(delimiter).find((f) => f !== '');
  if (given) return given;
  const home = join(homedir(), '.kube', 'config');
  if (existsSync(home)) return home;
  throw new CliError(ExitCode.badInput, `no kubeconfig: give --kubeconfig FILE, set KUBECONFIG, or create ${home}`, {
    path: '--kubeconfig',
  });
}

export function registerInventory(program: Command): void {
  program
    .command('inventory')
    .description("Read a cluster's Inventory (nodes, namespaces, upstream's allocations) through its API server")
    .option(
      '--kubeconfig <file>',
      'the kubeconfig to use (default: the first file of $KUBECONFIG, then ~/.kube/config)',
    )
    .option('--context <name>', 'a context of the kubeconfig (default: its current-context)')
    .option('--name <name>', "the Inventory's metadata.name (default: the context's name)")
    .option(
      '--config-namespace <ns>',
      "the namespace of upstream's configmaps ovn-config and ovnkube-config",
      'ovn-kubernetes',
    )
    .option('-o, --output <format>', `${OUTPUT_FORMATS} (text is YAML too)`, 'text')
    .action((flags: InventoryFlags, command: Command) =>
      runFormatted(
        () => parseOutputFormat(flags.output),
        () => readInventory(flags, command.optsWithGlobals().quiet === true),
      ).then((code) => {
        process.exitCode = code;
      }),
    );
}
