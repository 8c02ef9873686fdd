/**
 * `ovnk demo [--name LAB] [--ovn FLAVOR] [--zones per-node|central] [--keep] [-o json|text]`: the
 * README's main job in one command. Starts the lab (or reuses a running one) in upstream's
 * per-node layout (one Northbound per node; `--zones central` for one for all), prints the plan's
 * allocation table, applies OKEP-5224's colored-enterprise (stacks/colored-enterprise.yaml) to
 * every zone, pings between pods on different nodes, so in different zones (connected networks
 * answer, the isolated one does not), deletes a connect-router route by hand in the zone of the
 * probe's source pod and shows `diff` naming it and `apply` repairing it; with `--uplinks` (lab
 * started with its Uplink bridges) it also shows egress through br-blue, br-red and breth0
 * (demoEgress.ts); then tears everything down (destroy, and lab down when the demo started the
 * lab). Progress on stderr.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import {
  checkOvnFlavor,
  checkZoneLayout,
  DEFAULT_OVN,
  DEFAULT_ZONES,
  down,
  type LabStatus,
  nbctl,
  pingWithRetries,
  readState,
  syncChassis,
  up,
} from '../../lab';
import { closeConnections } from '../../provider/runtime/cli';
import { type CommandResult, ExitCode, OUTPUT_FORMATS, parseOutputFormat, progress, runCommand } from '../contract';
import { type ApplyReport, runApply, sentText } from './apply';
import { egressSection } from './demoEgress';
import { runDestroy } from './destroy';
import { drifted, runDiff } from './diff';
import { fileTarget, planFor } from './fileTarget';
import { labCliError } from './lab';
import { planText, type ZoneSummary } from './planText';
import { failureLine, releaseZones } from './zoneRuns';

interface DemoOptions {
  name: string;
  ovn: string;
  zones?: string;
  keep?: boolean;
  uplinks?: boolean;
  output?: string;
}

/** One row of the ping table: who pings whom, what the design promises, what happened. */
export interface PingRow {
  from: string;
  to: string;
  /** The zones the two pods are in (their nodes in the per-node layout). */
  fromZone: string;
  toZone: string;
  address: string;
  expect: 'reply' | 'blocked';
  got: 'reply' | 'blocked';
}

const CONNECT_ROUTER = 'connect_router_colored-enterprise';
const PINGS: [from: string, to: string, family: 4 | 6, expect: PingRow['expect']][] = [
  ['blue/a', 'green/b', 4, 'reply'],
  ['green/a', 'yellow/a', 4, 'reply'],
  ['yellow/b', 'blue/b', 4, 'reply'],
  ['blue/a', 'yellow/a', 6, 'reply'],
  ['orange/a', 'blue/b', 4, 'blocked'],
  ['green/b', 'orange/b', 4, 'blocked'],
];

/** stacks/colored-enterprise.yaml of this checkout, from cli/commands or dist/cli/commands. */
export function demoFile(): string {
  const candidates = ['../../stacks', '../../../stacks'].map((dir) =>
    path.resolve(__dirname, dir, 'colored-enterprise.yaml'),
  );
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`the demo topology is missing (looked for ${candidates.join(' and ')})`);
  return found;
}

function podOf(lab: LabStatus, key: string) {
  const [namespace, name] = key.split('/');
  const pod = readState(lab.name)?.pods.find((p) => p.namespace === namespace && p.name === name);
  if (!pod) throw new Error(`pod ${key} is not plugged in lab ${lab.name}`);
  return pod;
}

/** The zone a pod's rows and port live in: its node's in the per-node layout. */
function zoneOfPod(lab: LabStatus, key: string) {
  const name = lab.zoneLayout === 'per-node' ? podOf(lab, key).node : lab.zones[0]!.name;
  return lab.zones.find((z) => z.name === name)!;
}

async function pingRow(lab: LabStatus, [from, to, family, expect]: (typeof PINGS)[number]): Promise<PingRow> {
  const address = (podOf(lab, to).addresses as string[])
    .map((a) => a.split('/')[0]!)
    .find((a) => a.includes(':') === (family === 6))!;
  // Within 8 (2 for a block) one-second attempts, and on while the lab's ovn-controllers still work
  // (a loaded machine): the first packets may go while tunnels settle.
  const tries = expect === 'reply' ? 8 : 2;
  const replied = await pingWithRetries(podOf(lab, from).netns, address, { tries, whileLabWorks: true });
  const zones = { fromZone: zoneOfPod(lab, from).name, toZone: zoneOfPod(lab, to).name };
  return { from, to, ...zones, address, expect, got: replied ? 'reply' : 'blocked' };
}

export function pingTable(rows: PingRow[]): string {
  const lines = rows.map(
    (r) =>
      `  ${r.from.padEnd(9)} -> ${r.to.padEnd(9)} ${`${r.fromZone} -> ${r.toZone}`.padEnd(27)} ${r.address.padEnd(18)} ${r.got.padEnd(8)} ${r.got === r.expect ? 'as designed' : `WRONG (expected ${r.expect})`}`,
  );
  const header = `  ${'from'.padEnd(9)}    ${'to'.padEnd(9)} ${'zones'.padEnd(27)} ${'address'.padEnd(18)} ${'result'.padEnd(8)}`;
  return [header, ...lines].join('\n');
}

/** Until every zone's chassis have caught up with its Northbound. */
const sync = (lab: LabStatus) => {
  for (const zone of lab.zones) syncChassis({ name: lab.name, ovnRoot: lab.ovnRoot, nb: zone.nb });
};

/** Deletes the connect-router route to green/b's host subnet in the probe's source zone; returns both. */
function breakRoute(lab: LabStatus, from: string): { subnet: string; zone: string } {
  const address = (podOf(lab, 'green/b').addresses as string[]).find((a) => !a.includes(':'))!;
  const [ip] = address.split('/');
  const subnet = `${ip!.split('.').slice(0, 3).join('.')}.0/24`;
  const zone = zoneOfPod(lab, from);
  nbctl({ ovnRoot: lab.ovnRoot, nb: zone.nb }, 'lr-route-del', CONNECT_ROUTER, subnet);
  return { subnet, zone: zone.name };
}

interface Step {
  lab: LabStatus;
  file: string;
}

async function showPlan({ lab, file }: Step): Promise<void> {
  const target = await fileTarget({ file, lab: lab.name });
  await releaseZones(target);
  const plan = planFor(target);
  const zones: ZoneSummary[] = plan.zones.map((z) => ({
    zone: z.zone,
    rows: z.rows,
    notes: [],
  }));
  progress(`\n== plan (${path.basename(file)}) ==\n${planText(plan.cluster, plan.allocation, zones)}`);
}

async function runPings(step: Step): Promise<PingRow[]> {
  const title =
    step.lab.zoneLayout === 'per-node'
      ? 'pings between pods on different nodes, so across zones (one Northbound per node)'
      : 'pings between pods on different nodes (one central Northbound)';
  sync(step.lab);
  const rows = await Promise.all(PINGS.map((p) => pingRow(step.lab, p)));
  progress(`\n== ${title} ==\n${pingTable(rows)}`);
  return rows;
}

/** Each zone of an apply in one line, from the typed report. */
function applied(report: ApplyReport): string[] {
  const zones = report.zones.map((r) =>
    r.ok ? `zone ${r.zone} (${r.value.endpoint}): ${sentText(r.value)}` : failureLine(r),
  );
  const pods = report.pods
    ? [`pods: ${report.pods.plugged.length} plugged, ${report.pods.unplugged.length} unplugged`]
    : [];
  return [...zones, ...pods];
}

async function driftAndRepair(
  step: Step,
): Promise<{ subnet: string; zone: string; drift: string[]; blocked: boolean; repaired: boolean }> {
  const probe = PINGS[0]!;
  const { subnet, zone } = breakRoute(step.lab, probe[0]);
  progress(`\n== drift: deleted the connect router's route to ${subnet} by hand in zone ${zone} ==`);
  sync(step.lab);
  const blocked = (await pingRow(step.lab, probe)).got === 'blocked';
  progress(`  ${probe[0]} -> ${probe[1]}: ${blocked ? 'blocked' : 'still answers'}`);
  const found = await runDiff({ file: step.file, lab: step.lab.name });
  const drift = found.zones.flatMap((r) => (r.ok ? r.value.lines.map((l) => `zone ${r.zone}: ${l}`) : []));
  progress(`  ovnk diff (${drifted(found) ? 'drift' : 'no drift'}):\n${drift.map((l) => `    ${l}`).join('\n')}`);
  const repair = await runApply({ file: step.file, lab: step.lab.name });
  const sent = repair.zones.filter((r) => !r.ok || r.value.sent);
  progress(`  ovnk apply: ${applied({ ...repair, zones: sent, pods: undefined }).join('; ') || 'nothing sent'}`);
  sync(step.lab);
  const repaired = (await pingRow(step.lab, probe)).got === 'reply';
  progress(`  ${probe[0]} -> ${probe[1]}: ${repaired ? 'answers again' : 'STILL BLOCKED'}`);
  return { subnet, zone, drift, blocked, repaired };
}

export async function demo(options: DemoOptions): Promise<CommandResult> {
  const started = Date.now();
  const ovn = checkOvnFlavor(options.ovn);
  const zones = options.zones === undefined ? undefined : checkZoneLayout(options.zones);
  const uplinks = options.uplinks === true;
  const labUp = await up({ name: options.name, nodes: 3, ovn, ...(zones ? { zones } : {}), uplinks, progress }).catch(
    (error: unknown) => {
      throw labCliError(error, options.name);
    },
  );
  const step: Step = { lab: labUp.status, file: demoFile() };
  const layout = `${labUp.status.zoneLayout} zones`;
  progress(
    labUp.alreadyRunning
      ? `reusing the running lab "${options.name}" (${layout})`
      : `lab "${options.name}" (${ovn} OVN, ${layout}) is up in ${labUp.seconds.toFixed(1)} s`,
  );
  try {
    await showPlan(step);
    progress(`\n== apply ==\n${applied(await runApply({ file: step.file, lab: step.lab.name })).join('\n')}`);
    const pings = await runPings(step);
    const drift = await driftAndRepair(step);
    const egress = uplinks ? await egressSection(step.lab) : undefined;
    const ok =
      pings.every((p) => p.got === p.expect) &&
      drift.blocked &&
      drift.repaired &&
      drift.drift.length > 0 &&
      (egress?.ok ?? true);
    const seconds = (Date.now() - started) / 1000;
    progress(`\n${ok ? 'every promise held' : 'SOME PROMISE FAILED'} (${seconds.toFixed(1)} s so far)`);
    return {
      exitCode: ok ? ExitCode.ok : ExitCode.unreachable,
      document: {
        ok,
        lab: options.name,
        zones: step.lab.zoneLayout,
        pings,
        drift,
        ...(egress ? { egress: egress.rows } : {}),
        seconds,
      },
    };
  } finally {
    await teardown(step, options, labUp.alreadyRunning);
  }
}

async function teardown(step: Step, options: DemoOptions, reused: boolean): Promise<void> {
  if (options.keep) {
    progress(
      `kept: the topology stays applied in lab "${options.name}" (ovnk destroy -f ${step.file} --lab ${options.name})`,
    );
  } else {
    await runDestroy({ file: step.file, lab: step.lab.name }).catch((e: Error) =>
      progress(`destroy failed: ${e.message}`),
    );
    progress('destroyed: every row of colored-enterprise removed, pods unplugged');
  }
  await closeConnections();
  if (!options.keep && !reused) {
    await down(options.name);
    progress(`lab "${options.name}" is down`);
  }
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('Start the lab, plan and apply colored-enterprise, ping, show a drift repaired, tear down')
    .option('--name <name>', 'the lab to use (reused when running, else started and stopped)', 'demo')
    .option('--ovn <flavor>', 'which OVN when the demo starts the lab: bookworm or trixie', DEFAULT_OVN)
    .option(
      '--zones <layout>',
      `per-node (one Northbound per node, as upstream; needs trixie) or central, when the demo starts the lab; default ${DEFAULT_ZONES}`,
    )
    .option('--keep', 'leave the topology and the lab running')
    .option(
      '--uplinks',
      'also provision the Uplink bridges and show egress through them and breth0 (stacks/egress.yaml)',
    )
    .option('-o, --output <format>', OUTPUT_FORMATS, 'text')
    .action(async (options: DemoOptions) => {
      process.exitCode = await runCommand(parseOutputFormat(options.output), () => demo(options));
    });
}
