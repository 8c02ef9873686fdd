/**
 * `ovnk diff -f FILE ...`: the drift between each zone's rows of this owner and what the file
 * implies (planned against the stored state), row by row in words, every zone at once. Exit 2 on
 * drift, 0 when none; a zone that cannot be read fails alone (exit 4 naming it, zoneRuns.ts).
 * Nothing is written.
 */
import type { Command } from 'commander';
import { dict, diffZone, type Drift } from '../../provider/runtime';
import { type CommandResult, ExitCode } from '../contract';
import { failureEntry, failureLine, runZones, zonesResult } from './zoneRuns';
import { withUplinks } from './uplinks';
import { type FileOptions, fileTarget, planFor, runFileCommand, withFileOptions } from './fileTarget';

const driftText = (d: Drift) => (d.lines.length === 0 ? 'no drift' : `${d.lines.length} rows drifted`);

export async function diff(options: FileOptions): Promise<CommandResult> {
  const target = await fileTarget(options, true);
  const plan = planFor(target, options.zone);
  const runs = await runZones(
    target,
    'diff',
    plan.zones.map((z) => z.name),
    (zone) =>
      diffZone(
        zone.db,
        plan.zones.find((z) => z.name === zone.name)!,
        target.owner,
      ),
    driftText,
  );
  const zones = dict<unknown>();
  const lines: string[] = [];
  let drifted = false;
  for (const run of runs) {
    if (!run.ok) {
      zones[run.zone] = failureEntry(run.failure);
      lines.push(failureLine(run.failure));
      continue;
    }
    const drift = run.value;
    drifted ||= drift.lines.length > 0;
    zones[run.zone] = { endpoint: drift.endpoint, drift: drift.lines };
    lines.push(`zone ${run.zone} (${drift.endpoint}): ${driftText(drift)}`, ...drift.lines.map((l) => `  ${l}`));
  }
  const failures = runs.flatMap((r) => (r.ok ? [] : [r.failure]));
  const exitCode = drifted ? ExitCode.drift : ExitCode.ok;
  return zonesResult({ owner: target.owner, drift: drifted, zones }, lines, failures, exitCode);
}

export function registerDiff(program: Command): void {
  withFileOptions(
    program
      .command('diff')
      .description("Report, row by row, how each zone's Northbound differs from the file (exit 2 on drift)"),
  ).action((options: FileOptions) => runFileCommand(options, () => withUplinks('diff', options, () => diff(options)))); // uplinks: cli/commands/uplinks.ts
}
