/**
 * `ovnk apply -f FILE [--lab [NAME] | --nb EP ...] [--zone NAME] [--owner NAME] [-o json|text]`:
 * load -> plan against the state stored in the target Northbound -> refuse (exit 1, nothing
 * sent) on problems -> per zone one transaction (rows + state) -> in the lab, plug the planned
 * pods and unplug this owner's pods no longer in the file.
 */
import type { Command } from 'commander';
import { applyZone, connectReplacements, type PlannedReplacement, type TopologyPlan } from '../../provider/runtime';
import { CliError, type CommandResult, ExitCode } from '../contract';
import { progressFor } from '../progress';
import { type FileOptions, fileTarget, planFor, runFileCommand, withFileOptions } from './fileTarget';
import { checkLabPods, podKeysOf, syncLabPods } from './labPods';
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

export async function apply(options: ApplyOptions): Promise<CommandResult> {
  const target = await fileTarget(options);
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
  const zones: Record<string, unknown> = {};
  const lines: string[] = [];
  const progress = progressFor('apply', plan.zones.length);
  for (const zone of plan.zones) {
    const db = target.zones.find((z) => z.name === zone.name)!.db;
    const done = progress.zone(zone.name);
    const result = await applyZone(db, zone, target.owner, plan.state);
    done(result.sent ? `${result.operations} operations sent` : 'up to date, nothing sent');
    zones[zone.name] = {
      endpoint: result.endpoint,
      sent: result.sent,
      operations: result.operations,
      summary: result.summary,
      notes: result.notes,
    };
    lines.push(
      `zone ${zone.name} (${result.endpoint}): ${result.sent ? `${result.operations} operations sent` : 'up to date, nothing sent'}`,
      ...result.notes.map((n) => `  note: ${n}`),
      ...result.summary.map((s) => `  ${s}`),
    );
  }
  const pods = target.lab
    ? await syncLabPods(
        target.lab,
        plan.zones.flatMap((z) => z.pods),
        podKeysOf(target.previous),
      )
    : undefined;
  if (pods) lines.push(`pods: ${pods.plugged.length} plugged, ${pods.unplugged.length} unplugged`);
  else if (plan.zones.some((z) => z.pods.length > 0)) lines.push('pods: not plugged (only --lab plugs pods)');
  if (replacements.length > 0) lines.push(...replacements.map((r) => `replaced ${r.kind}/${r.name}`));
  const replaced = replacements.length > 0 ? { replaced: replacements.map((r) => `${r.kind}/${r.name}`) } : {};
  return {
    document: { ok: true, owner: target.owner, zones, ...replaced, ...(pods ? { pods } : {}) },
    text: lines.join('\n'),
  };
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
