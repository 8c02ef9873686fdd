/**
 * `ovnk lab vm up|down|status`: the optional QEMU guest nodes (a real kernel for VRF), under the
 * `lab` command group. Status reports each node like the netns lab's: ssh host, port, user, key
 * path and the host key fingerprint to pin. Lab failures map to the contract's exit codes.
 */
import type { Command } from 'commander';
import { checkVmNodeCount, DEFAULT_VM_LAB, vmDown, type VmLabStatus, vmStatus, vmUp } from '../../lab/vm';
import { type CommandResult, OUTPUT_FORMATS, parseOutputFormat, runCommand } from '../contract';
import { progressFor } from '../progress';
import { labCliError, labNotRunning } from './labErrors';

interface VmFlags {
  name: string;
  output?: string;
  json?: boolean;
  vmNodes?: string;
  data?: boolean;
}

async function act(flags: VmFlags, body: () => Promise<CommandResult>): Promise<void> {
  const format = flags.json ? 'json' : flags.output === 'json' || flags.output === 'yaml' ? flags.output : 'text';
  process.exitCode = await runCommand(format, async () => {
    parseOutputFormat(flags.output);
    try {
      return await body();
    } catch (error) {
      throw labCliError(error, flags.name);
    }
  });
}

export function vmStatusText(status: VmLabStatus): string {
  const lines = [`vm lab ${status.name} (kernel ${status.kernelVersion})`];
  for (const n of status.nodes)
    lines.push(
      `  ${n.name}  ssh ${n.ssh.user}@${n.ssh.host} -p ${n.ssh.port} -i ${n.ssh.keyPath}  ${n.ssh.hostKeyFingerprint}${n.dataAddress ? `  data ${n.dataAddress}` : ''}`,
    );
  return lines.join('\n');
}

function withOutput(command: Command): Command {
  return command
    .option('--name <name>', "the vm lab's name (1-7 lowercase letters or digits)", DEFAULT_VM_LAB)
    .option('-o, --output <format>', OUTPUT_FORMATS, 'text')
    .option('--json', 'same as -o json');
}

export function registerLabVm(program: Command): void {
  const lab = program.commands.find((c) => c.name() === 'lab') ?? program.command('lab');
  const vm = lab
    .command('vm')
    .description("Optional QEMU (TCG) guest nodes with Debian's kernel, for VRF, VLAN and dummy devices");
  withOutput(
    vm
      .command('up')
      .description(
        'Boot N guests (building the cached image once) and wait until each answers SSH with its pinned host key',
      ),
  )
    .option('--vm-nodes <n>', 'how many guests', '1')
    .option('--data', 'also join the guests on a tap data segment (eth1, 192.168.50.N/24)')
    .action((flags: VmFlags) =>
      act(flags, async () => {
        const status = await vmUp({
          name: flags.name,
          nodes: checkVmNodeCount(Number(flags.vmNodes)),
          data: flags.data === true,
          progress: progressFor('lab vm up').note,
        });
        return { document: status, text: vmStatusText(status) };
      }),
    );
  withOutput(
    vm.command('down').description('Stop the guests by their recorded pids and remove their links and directory'),
  ).action((flags: VmFlags) =>
    act(flags, async () => ({
      document: { name: flags.name, ...(await vmDown(flags.name)) },
      text: `vm lab ${flags.name} is down`,
    })),
  );
  withOutput(vm.command('status').description('Show the guests: SSH settings and host-key pins')).action(
    (flags: VmFlags) =>
      act(flags, async () => {
        const status = vmStatus(flags.name);
        if (!status)
          throw labNotRunning(
            flags.name,
            `vm lab "${flags.name}" is not running: start it with "ovnk lab vm up --name ${flags.name}"`,
          );
        return { document: status, text: vmStatusText(status) };
      }),
  );
}
