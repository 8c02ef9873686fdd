/**
 * `ovnk lab up|down|status|restart|inventory|pods|exec`: the embedded OVN lab from the command line.
 * `status` reports each daemon's health; `restart` starts dead ones again on their databases.
 * Lab failures map to the contract's exit codes (bad input 3, refused 1, failing 4).
 */
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import {
  checkLabName,
  checkNbMembers,
  checkNodeCount,
  checkOvnFlavor,
  checkZoneLayout,
  DEFAULT_LAB_NAME,
  DEFAULT_OVN,
  DEFAULT_ZONES,
  daemonHealth,
  type DaemonHealth,
  down,
  inventoryOf,
  type LabStatus,
  type LabState,
  readState,
  restartDead,
  statusOf,
  up,
} from '../../lab';
import { CliError, type CommandResult, ExitCode, OUTPUT_FORMATS, parseOutputFormat, runFormatted } from '../contract';
import { progressFor } from '../progress';
import { labCliError, labNotRunning } from './labErrors';

interface OutputFlags {
  output?: string;
  json?: boolean;
  name: string;
}

function formatOf(flags: OutputFlags) {
  return flags.json ? 'json' : parseOutputFormat(flags.output);
}

export { labCliError };

/** Run a lab action under the contract, turning LabError into CliError with its exit code. */
async function act(flags: OutputFlags, body: () => Promise<CommandResult>): Promise<void> {
  process.exitCode = await runFormatted(
    () => formatOf(flags),
    async () => {
      try {
        return await body();
      } catch (error) {
        throw labCliError(error, flags.name);
      }
    },
  );
}

function runningState(name: string): LabState {
  const state = readState(checkLabName(name));
  if (!state || state.phase !== 'running')
    throw labNotRunning(name, `lab "${name}" is not running: start it with "ovnk lab up --name ${name}"`);
  return state;
}

function runningStatus(name: string): LabStatus {
  const state = runningState(name);
  return statusOf(state, state.ovnRoot);
}

function healthText(health: DaemonHealth[]): string {
  return health
    .map(
      (d) => `  daemon ${d.name}  ${d.up ? `up (pid ${d.pid})` : `DOWN${d.restartable ? ' (ovnk lab restart)' : ''}`}`,
    )
    .join('\n');
}

function statusText(status: LabStatus): string {
  const plane = status.dataPlane ? '' : ', no data plane';
  const lines = [`lab ${status.name} (${status.ovn} OVN, ${status.zoneLayout} zones${plane})`];
  for (const z of status.zones) lines.push(`  zone ${z.name}  nb ${z.nb}  sb ${z.sb}`);
  if (!status.dataPlane) return lines.join('\n');
  for (const n of status.nodes)
    lines.push(
      `  ${n.name}  id ${n.id}  chassis ${n.chassisId}  ssh ${n.ssh.user}@${n.ssh.host}  encap ${n.encapIp}  ${n.ssh.hostKeyFingerprint}`,
    );
  return lines.join('\n');
}

function parseCount(value: string, check = checkNodeCount, path = '--nodes'): number {
  const count = Number(value);
  try {
    return check(count);
  } catch (error) {
    throw new CliError(ExitCode.badInput, (error as Error).message, { path });
  }
}

function withOutput(command: Command): Command {
  return command
    .option('--name <name>', "the lab's name (labs with different names do not collide)", DEFAULT_LAB_NAME)
    .option('-o, --output <format>', OUTPUT_FORMATS, 'text')
    .option('--json', 'same as -o json');
}

type UpFlags = OutputFlags & {
  nodes: string;
  ovn: string;
  zones?: string;
  dataPlane: boolean;
  uplinks?: boolean;
  nbMembers?: string;
};

function registerUp(lab: Command): void {
  withOutput(
    lab
      .command('up')
      .description(
        "Start the lab: N nodes and their zones' NB/SB/northd; returns when every sshd answers and every chassis is registered",
      ),
  )
    .option('--nodes <n>', 'how many nodes', '3')
    .option('--ovn <flavor>', 'which OVN: bookworm (host packages) or trixie (debootstrapped root)', DEFAULT_OVN)
    .option(
      '--zones <layout>',
      `per-node (one NB, SB and northd per node, as upstream runs; trixie only) or central (one for all nodes); default ${DEFAULT_ZONES}`,
    )
    .option('--no-data-plane', 'only the zones (NB, SB, northd): no node namespaces, OVS, ovn-controller or sshd')
    .option('--uplinks', 'also provision the Uplink bridges br-blue and br-red next to breth0 (lab/uplinks.ts)')
    .option('--nb-members <n>', 'members of the central Northbound: 3 runs it as a RAFT cluster (with --zones central)')
    .action((flags: UpFlags) =>
      act(flags, async () => {
        const options = {
          name: checkLabName(flags.name),
          nodes: parseCount(flags.nodes),
          ovn: checkOvnFlavor(flags.ovn),
          ...(flags.zones === undefined ? {} : { zones: checkZoneLayout(flags.zones) }),
          dataPlane: flags.dataPlane,
          uplinks: flags.uplinks === true,
          ...(flags.nbMembers === undefined
            ? {}
            : { nbMembers: parseCount(flags.nbMembers, checkNbMembers, '--nb-members') }),
          progress: progressFor('lab up').note,
        };
        const result = await up(options);
        const verb = result.alreadyRunning ? 'is already running' : `is up in ${result.seconds.toFixed(2)} s`;
        return {
          document: { ...result.status, alreadyRunning: result.alreadyRunning, seconds: result.seconds },
          text: `lab ${options.name} ${verb}\n${statusText(result.status)}`,
        };
      }),
    );
}

function registerDown(lab: Command): void {
  withOutput(
    lab
      .command('down')
      .description('Stop exactly what the lab started (pods included) and remove its namespaces and links'),
  ).action((flags: OutputFlags) =>
    act(flags, async () => {
      const result = await down(checkLabName(flags.name));
      return {
        document: result,
        text: result.stopped ? `lab ${result.name} stopped` : `lab ${result.name} was not running`,
      };
    }),
  );
}

function registerStatus(lab: Command): void {
  withOutput(
    lab
      .command('status')
      .description("Show the running lab: endpoints, nodes, SSH settings, host-key pins and each daemon's health"),
  ).action((flags: OutputFlags) =>
    act(flags, async () => {
      const state = runningState(flags.name);
      const status = statusOf(state, state.ovnRoot);
      const daemons = daemonHealth(state);
      const healthy = daemons.every((d) => d.up);
      return {
        document: { ...status, healthy, daemons },
        text: `${statusText(status)}\n${healthText(daemons)}`,
      };
    }),
  );
  withOutput(
    lab
      .command('restart')
      .description('Start every dead daemon of the control plane again on its existing database (no rebuild)'),
  ).action((flags: OutputFlags) =>
    act(flags, async () => {
      const result = await restartDead(runningState(flags.name));
      const what = result.restarted.length === 0 ? 'nothing to restart' : `restarted ${result.restarted.join(', ')}`;
      return { document: result, text: `lab ${result.name}: ${what}\n${healthText(result.health)}` };
    }),
  );
  withOutput(
    lab
      .command('inventory')
      .description('Print the running lab as an Inventory object (ovnk/v1alpha1) with its targets'),
  ).action((flags: OutputFlags) =>
    act(flags, async () => {
      const inventory = inventoryOf(runningStatus(flags.name));
      return { document: inventory, text: stringify(inventory) };
    }),
  );
}

function registerPods(lab: Command): void {
  withOutput(lab.command('pods').description("List the pods plugged into the lab's nodes")).action(
    (flags: OutputFlags) =>
      act(flags, async () => {
        runningStatus(flags.name);
        const pods = readState(flags.name)?.pods ?? [];
        const text =
          pods.length === 0
            ? 'no pods'
            : pods.map((p) => `${p.namespace}/${p.name}  node ${p.node}  netns ${p.netns}`).join('\n');
        return { document: { name: flags.name, pods }, text };
      }),
  );
}

function runInNamespace(netns: string, argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('ip', ['netns', 'exec', netns, ...argv], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function registerExec(lab: Command): void {
  lab
    .command('exec')
    .description('Run a command inside a pod of the lab: ovnk lab exec NAMESPACE/POD -- CMD...')
    .argument('<pod>', 'NAMESPACE/POD')
    .argument('<command...>', 'the command and its arguments (after --)')
    .option('--name <name>', "the lab's name", DEFAULT_LAB_NAME)
    .action(async (pod: string, argv: string[], flags: { name: string }) => {
      const [namespace, name, extra] = pod.split('/');
      const fail = (code: ExitCode, message: string) => {
        process.stderr.write(`error: ${message}\n`);
        process.exitCode = code;
      };
      if (!namespace || !name || extra !== undefined)
        return fail(
          ExitCode.badInput,
          `pod "${pod}" is not NAMESPACE/POD: name it like blue/pod-a (see "ovnk lab pods")`,
        );
      const found = readState(flags.name)?.pods.find((p) => p.namespace === namespace && p.name === name);
      if (!found)
        return fail(
          ExitCode.refused,
          `pod ${pod} is not in lab "${flags.name}": see "ovnk lab pods --name ${flags.name}"`,
        );
      process.exitCode = await runInNamespace(found.netns, argv);
    });
}

export function registerLab(program: Command): void {
  const lab = program
    .command('lab')
    .description('Run the embedded OVN lab (up, down, status, restart, inventory, pods, exec)');
  registerUp(lab);
  registerDown(lab);
  registerStatus(lab);
  registerPods(lab);
  registerExec(lab);
}
