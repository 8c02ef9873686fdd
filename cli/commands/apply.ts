/**
 * `ovnk apply -f FILE [--lab [NAME] | --nb EP ...] [--zone NAME] [--owner NAME] [--parallel N] [-o json|text]`:
 * load -> plan against the state stored in the target Northbounds -> refuse (exit 1, nothing
 * sent) on problems -> every zone at once, each one transaction (rows + state); a zone that fails
 * fails alone (zoneRuns.ts) -> in the lab, plug the planned pods and unplug this owner's pods no
 * longer in the file, leaving the pods of failed zones as they were.
 */
import type { Command } from 'commander';
import {
  applyZone,
  dict,
  connectReplacements,
  type PlannedReplacement,
  type TopologyPlan,
  type ZoneResult,
} from '../../provider/runtime';
import { CliError, type CommandResult, ExitCode } from '../contract';
import type { LabStatus } from '../../lab';
import { type FileOptions, type FileTarget, fileTarget, planFor, runFileCommand, withFileOptions } from './fileTarget';
import { checkLabPods, podKeysOf, podsOfZones, syncLabPods } from './labPods';
import { failureEntry, failureLine, runZones, type ZoneFailure, zonesResult } from './zoneRuns';
import { withUplinks } from './uplinks';

interface ApplyOptions extends FileOptions {
  replace?: boolean;
}

function refusal(file: string, plan: TopologyPlan): CliError {
  const problems = plan.problems.map(({ reason, message, path }) => ({ reason, message, path }));
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

const sentText = (r: ZoneResult) => (r.sent ? `${r.operations} operations sent` : 'up to date, nothing sent');

export async function apply(options: ApplyOptions): Promise<CommandResult> {
  const target = await fileTarget(options, true);
  const plan = planFor(target, options.zone);
  if (plan.problems.length > 0) throw refusal(target.file, plan);
  const replacements = connectReplacements(plan.allocation);
  if (replacements.length > 0 && !options.replace) throw replaceRefusal(target.file, replacements);
  if (target.lab)
    checkLabPods(
      target.lab,
      plan.zones.flatMap((z) => z.pods),
      podKeysOf(target.previous),
    );
  const runs = await runZones(
    target,
    'apply',
    plan.zones.map((z) => z.name),
    (zone) =>
      applyZone(
        zone.db,
        plan.zones.find((z) => z.name === zone.name)!,
        target.owner,
        plan.state,
      ),
    sentText,
  );
  const zones = dict<unknown>();
  const lines: string[] = [];
  for (const run of runs) {
    if (!run.ok) {
      zones[run.zone] = failureEntry(run.failure);
      lines.push(failureLine(run.failure));
      continue;
    }
    const result = run.value;
    const { endpoint, sent, operations, summary, notes } = result;
    zones[run.zone] = { endpoint, sent, operations, summary, notes };
    lines.push(
      `zone ${run.zone} (${endpoint}): ${sentText(result)}`,
      ...notes.map((n) => `  note: ${n}`),
      ...summary.map((s) => `  ${s}`),
    );
  }
  const failures = runs.flatMap((r) => (r.ok ? [] : [r.failure]));
  const pods = target.lab ? await syncPods(target.lab, plan, target, failures) : undefined;
  if (pods) lines.push(`pods: ${pods.plugged.length} plugged, ${pods.unplugged.length} unplugged`);
  else if (plan.zones.some((z) => z.pods.length > 0)) lines.push('pods: not plugged (only --lab plugs pods)');
  if (replacements.length > 0) lines.push(...replacements.map((r) => `replaced ${r.kind}/${r.name}`));
  const replaced = replacements.length > 0 ? { replaced: replacements.map((r) => `${r.kind}/${r.name}`) } : {};
  return zonesResult({ owner: target.owner, zones, ...replaced, ...(pods ? { pods } : {}) }, lines, failures);
}

/** The lab's pods of this owner made to match the plan, but for the pods of zones that failed. */
function syncPods(lab: LabStatus, plan: TopologyPlan, target: FileTarget, failures: ZoneFailure[]) {
  const untouched = podsOfZones(
    plan.zones,
    failures.map((f) => f.zone),
  );
  return syncLabPods(
    lab,
    plan.zones.flatMap((z) => z.pods).filter((p) => !untouched.has(`${p.namespace}/${p.name}`)),
    podKeysOf(target.previous).filter((key) => !untouched.has(key)),
  );
}

export function registerApply(program: Command): void {
  withFileOptions(
    program
      .command('apply')
      .description(
        "Apply the file's networks to each zone's Northbound (one transaction per zone) and plug its pods in the lab",
      )
      .option('--replace', 'allow replacing what cannot change in place (a connect whose connectSubnets changed)'),
  ).action((options: ApplyOptions) =>
    runFileCommand(options, () => withUplinks('apply', options, () => apply(options))),
  ); // uplinks: cli/commands/uplinks.ts
}
