/**
 * `ovnk diff -f FILE ...`: the drift between each zone's rows of this owner and what the file
 * implies (planned against the stored state), row by row in words, every zone at once, and with
 * Uplinks each node's bridge mappings and VRF membership (the runtime's cluster diff). Exit 2 on
 * drift, 0 when none; a zone that cannot be read fails alone (exit 4 naming it, zoneRuns.ts).
 * Nothing is written. `runDiff` returns the typed report (the demo reads it); `diff` renders it.
 */
import type { Command } from 'commander';
import { closeCluster, dict, diffCluster, type Drift, isDrift, type UplinkSection } from '../../provider/runtime/cli';
import { type CommandResult, ExitCode } from '../contract';
import { clusterPlanFor, type FileOptions, fileTarget, runFileCommand, withFileOptions } from './fileTarget';
import { zonesResultWithUplinks } from './uplinksText';
import { failureEntry, failureLine, releaseZones, type ZoneRun, zoneRunsOf, zoneTargets } from './zoneRuns';

const driftText = (d: Drift) => (d.lines.length === 0 ? 'no drift' : `${d.lines.length} rows drifted`);

/** What one diff found, typed: every zone's drift (or failure) and the Uplink section. */
export interface DiffReport {
  owner: string;
  zones: ZoneRun<Drift>[];
  uplinks?: UplinkSection;
}

/** Whether anything drifted: a zone's rows or a node's Uplink state. */
export function drifted(report: DiffReport): boolean {
  return (
    report.zones.some((r) => r.ok && r.value.lines.length > 0) || (report.uplinks?.findings.some(isDrift) ?? false)
  );
}

export async function runDiff(options: FileOptions): Promise<DiffReport> {
  const target = await fileTarget(options, true);
  try {
    const plan = await clusterPlanFor(target, options.zone, true);
    try {
      const names = plan.topology.zones.map((z) => z.name);
      const result = await diffCluster(plan, zoneTargets(target, 'diff', names, driftText));
      return { owner: target.owner, zones: zoneRunsOf(target, names, result.zones), uplinks: result.uplinks };
    } finally {
      await closeCluster(plan);
    }
  } finally {
    await releaseZones(target);
  }
}

export function renderDiff(report: DiffReport): CommandResult {
  const zones = dict<unknown>();
  const lines: string[] = [];
  for (const run of report.zones) {
    if (!run.ok) {
      zones[run.zone] = failureEntry(run);
      lines.push(failureLine(run));
      continue;
    }
    const drift = run.value;
    zones[run.zone] = { endpoint: drift.endpoint, drift: drift.lines };
    lines.push(`zone ${run.zone} (${drift.endpoint}): ${driftText(drift)}`, ...drift.lines.map((l) => `  ${l}`));
  }
  const failures = report.zones.flatMap((r) => (r.ok ? [] : [r]));
  const rowsDrifted = report.zones.some((r) => r.ok && r.value.lines.length > 0);
  const { uplinks } = report;
  const document = {
    owner: report.owner,
    drift: rowsDrifted,
    zones,
  };
  const exitCode = rowsDrifted ? ExitCode.drift : ExitCode.ok;
  return zonesResultWithUplinks('diff', document, lines, failures, uplinks, exitCode);
}

export async function diff(options: FileOptions): Promise<CommandResult> {
  return renderDiff(await runDiff(options));
}

export function registerDiff(program: Command): void {
  withFileOptions(
    program
      .command('diff')
      .description(
        "Report, row by row, how each zone's Northbound (and each node's Uplink state) differs from the file (exit 2 on drift)",
      ),
  ).action((options: FileOptions) => runFileCommand(options, () => diff(options)));
}
