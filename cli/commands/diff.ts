/**
 * `ovnk diff -f FILE ...`: the drift between each zone's rows of this owner and what the file
 * implies (planned against the stored state), row by row in words. Exit 2 on drift, 0 when none.
 * Nothing is written.
 */
import type { Command } from 'commander';
import { diffZone } from '../../provider/runtime';
import { type CommandResult, ExitCode } from '../contract';
import { progressFor } from '../progress';
import { withUplinks } from './uplinks';
import { type FileOptions, fileTarget, planFor, runFileCommand, withFileOptions } from './fileTarget';

export async function diff(options: FileOptions): Promise<CommandResult> {
  const target = await fileTarget(options);
  const plan = planFor(target, options.zone);
  const zones: Record<string, unknown> = {};
  const lines: string[] = [];
  let drifted = false;
  const progress = progressFor('diff', plan.zones.length);
  for (const zone of plan.zones) {
    const db = target.zones.find((z) => z.name === zone.name)!.db;
    const done = progress.zone(zone.name);
    const drift = await diffZone(db, zone, target.owner);
    done(drift.lines.length === 0 ? 'no drift' : `${drift.lines.length} rows drifted`);
    drifted ||= drift.lines.length > 0;
    zones[zone.name] = { endpoint: drift.endpoint, drift: drift.lines };
    lines.push(
      `zone ${zone.name} (${drift.endpoint}): ${drift.lines.length === 0 ? 'no drift' : `${drift.lines.length} rows drifted`}`,
      ...drift.lines.map((l) => `  ${l}`),
    );
  }
  return {
    exitCode: drifted ? ExitCode.drift : ExitCode.ok,
    document: { ok: true, owner: target.owner, drift: drifted, zones },
    text: lines.join('\n'),
  };
}

export function registerDiff(program: Command): void {
  withFileOptions(
    program
      .command('diff')
      .description("Report, row by row, how each zone's Northbound differs from the file (exit 2 on drift)"),
  ).action((options: FileOptions) => runFileCommand(options, () => withUplinks('diff', options, () => diff(options)))); // uplinks: cli/commands/uplinks.ts
}
