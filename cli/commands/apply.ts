/**
 * `ovnk apply -f FILE [--lab [NAME] | --nb EP ...] [--zone NAME] [--owner NAME] [--parallel N] [-o json|text]`:
 * load -> the runtime's cluster plan against the state stored in the target Northbounds (a file
 * with Uplinks has its nodes discovered first) -> refuse (exit 1, nothing sent) on problems ->
 * the runtime's cluster apply: every zone at once, each one transaction (rows + state), a zone
 * that fails fails alone (zoneRuns.ts), then every node's Uplink state -> in the lab, plug the
 * planned pods and unplug this owner's pods no longer in the file, leaving the pods of failed
 * zones as they were. `runApply` returns the typed report (the demo reads it); `apply` renders it.
 */
import type { Command } from 'commander';
import type { LabStatus } from '../../lab';
import {
  applyCluster,
  dict,
  type ClusterPlan,
  closeCluster,
  connectReplacements,
  type PlannedReplacement,
  refusals,
  type UplinkSection,
  type ZoneResult,
} from '../../provider/runtime/cli';
import { CliError, type CommandResult, ExitCode } from '../contract';
import {
  clusterPlanFor,
  type FileOptions,
  type FileTarget,
  fileTarget,
  runFileCommand,
  withFileOptions,
} from './fileTarget';
import { checkLabPods, type PodChanges, podKeysOf, podsOfZones, syncLabPods } from './labPods';
import { zonesResultWithUplinks } from './uplinksText';
import {
  failureEntry,
  failureLine,
  releaseZones,
  type ZoneFailure,
  type ZoneRun,
  zoneRunsOf,
  zoneTargets,
} from './zoneRuns';

interface ApplyOptions extends FileOptions {
  replace?: boolean;
}

/** What one apply did, typed: every zone's outcome, the lab's pods, the replacements, the Uplink section. */
export interface ApplyReport {
  owner: string;
  zones: ZoneRun<ZoneResult>[];
  /** The lab's pod changes (only --lab plugs pods). */
  pods?: PodChanges;
  /** Whether the plan had pods that were not plugged (no --lab). */
  unpluggedPods: boolean;
  replaced: PlannedReplacement[];
  uplinks?: UplinkSection;
}

function refusal(file: string, plan: ClusterPlan): CliError {
  const uplinks = plan.uplinks?.offline.problems ?? [];
  if (uplinks.length > 0)
    return new CliError(
      ExitCode.refused,
      `${file}: refused, nothing was changed: ${uplinks.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      { file, problems: uplinks },
    );
  const problems = plan.topology.problems.map(({ reason, message, path }) => ({ reason, message, path }));
  return new CliError(
    ExitCode.refused,
    `${file}: refused, nothing was changed: ${problems.map((p) => p.message).join('; ')}`,
    { file, problems },
  );
}

/** Changed connectSubnets replace a connect (upstream recreates the object): only when asked for. */
function replaceRefusal(file: string, replacements: PlannedReplacement[]): CliError {
  return new CliError(
    ExitCode.refused,
    `${file}: refused, nothing was changed: ${replacements.map((r) => r.message).join('; ')}; give --replace to replace it`,
    {
      file,
      problems: replacements.map((r) => ({
        reason: 'ReplaceRequired',
        path: `${r.kind}/${r.name}: spec.connectSubnets`,
        message: r.message,
      })),
      replacements,
    },
  );
}

export const sentText = (r: ZoneResult): string =>
  r.sent ? `${r.operations} operations sent` : 'up to date, nothing sent';

/** The typed outcome of an apply (the demo reads it); refusals and unusable input throw. */
export async function runApply(options: ApplyOptions): Promise<ApplyReport> {
  const target = await fileTarget(options, true);
  try {
    return await applyTo(target, options);
  } finally {
    await releaseZones(target);
  }
}

async function applyTo(target: FileTarget, options: ApplyOptions): Promise<ApplyReport> {
  const plan = await clusterPlanFor(target, options.zone, true);
  try {
    if (refusals(plan).length > 0) throw refusal(target.file, plan);
    const { topology } = plan;
    const replaced = connectReplacements(topology.allocation);
    if (replaced.length > 0 && !options.replace) throw replaceRefusal(target.file, replaced);
    if (target.lab)
      checkLabPods(
        target.lab,
        topology.zones.flatMap((z) => z.pods),
        podKeysOf(target.previous),
      );
    const names = topology.zones.map((z) => z.name);
    const result = await applyCluster(plan, zoneTargets(target, 'apply', names, sentText));
    const zones = zoneRunsOf(target, names, result.zones);
    const failures = zones.flatMap((r) => (r.ok ? [] : [r]));
    const pods = target.lab ? await syncPods(target.lab, plan, target, failures) : undefined;
    const unpluggedPods = !pods && topology.zones.some((z) => z.pods.length > 0);
    return { owner: target.owner, zones, pods, unpluggedPods, replaced, uplinks: result.uplinks };
  } finally {
    await closeCluster(plan);
  }
}

/** The line of one zone and the lines under it. */
export function zoneLines(run: ZoneRun<ZoneResult>): string[] {
  if (!run.ok) return [failureLine(run)];
  const { endpoint, notes, summary } = run.value;
  return [
    `zone ${run.zone} (${endpoint}): ${sentText(run.value)}`,
    ...notes.map((n) => `  note: ${n}`),
    ...summary.map((s) => `  ${s}`),
  ];
}

export function renderApply(report: ApplyReport): CommandResult {
  const zones = dict<unknown>();
  for (const run of report.zones) {
    if (!run.ok) zones[run.zone] = failureEntry(run);
    else {
      const { endpoint, sent, operations, summary, notes } = run.value;
      zones[run.zone] = { endpoint, sent, operations, summary, notes };
    }
  }
  const lines = report.zones.flatMap(zoneLines);
  const { pods, replaced, uplinks } = report;
  if (pods)
    lines.push(
      `pods: ${pods.plugged.length} plugged, ${pods.unplugged.length} unplugged${pods.moved ? `, ${pods.moved.length} moved` : ''}`,
    );
  else if (report.unpluggedPods) lines.push('pods: not plugged (only --lab plugs pods)');
  lines.push(...replaced.map((r) => `replaced ${r.kind}/${r.name}`));
  const failures = report.zones.flatMap((r) => (r.ok ? [] : [r]));
  const document = {
    owner: report.owner,
    zones,
    ...(replaced.length > 0 ? { replaced: replaced.map((r) => `${r.kind}/${r.name}`) } : {}),
    ...(pods ? { pods } : {}),
  };
  return zonesResultWithUplinks('apply', document, lines, failures, uplinks);
}

export async function apply(options: ApplyOptions): Promise<CommandResult> {
  return renderApply(await runApply(options));
}

/** The lab's pods of this owner made to match the plan, but for the pods of zones that failed. */
function syncPods(lab: LabStatus, plan: ClusterPlan, target: FileTarget, failures: ZoneFailure[]) {
  const zones = plan.topology.zones;
  const untouched = podsOfZones(
    zones,
    failures.map((f) => f.zone),
  );
  return syncLabPods(
    lab,
    zones.flatMap((z) => z.pods).filter((p) => !untouched.has(`${p.namespace}/${p.name}`)),
    podKeysOf(target.previous).filter((key) => !untouched.has(key)),
  );
}

export function registerApply(program: Command): void {
  withFileOptions(
    program
      .command('apply')
      .description(
        "Apply the file's networks to each zone's Northbound (one transaction per zone), its Uplinks to the nodes, and plug its pods in the lab",
      )
      .option('--replace', 'allow replacing what cannot change in place (a connect whose connectSubnets changed)'),
  ).action((options: ApplyOptions) => runFileCommand(options, () => apply(options)));
}
