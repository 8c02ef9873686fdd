/**
 * `ovnk repair -f FILE [--lab | --nb EP] [--force]`: rebuild this owner's bookkeeping in each
 * zone's Northbound from what the Northbound holds, and say what was rebuilt. A lost or
 * unreadable ledger is rebuilt from the owner markers. A lost or unreadable state is copied from
 * a zone whose copy reads (per-node zones each keep one); when none does, the file is planned
 * afresh and the plan is kept only if it matches every row of this owner (`--force` keeps it
 * anyway; the next apply then changes the rows that differ). One transaction per zone.
 */
import type { Command } from 'commander';
import {
  diffZone,
  inspectZone,
  repairZone,
  type RuntimeState,
  withLease,
  type ZoneBookkeeping,
} from '../../provider/runtime/cli';
import { CliError, type CommandResult, ExitCode } from '../contract';
import { type FileOptions, fileTarget, type FileTarget, planFor, runFileCommand, withFileOptions } from './fileTarget';
import { releaseZones } from './zoneRuns';

export interface RepairOptions extends FileOptions {
  force?: boolean;
}

type Inspected = { name: string; found: ZoneBookkeeping }[];

/** The state to write where it is lost or unreadable, and where it came from. */
async function stateToWrite(
  target: FileTarget,
  inspected: Inspected,
  force: boolean,
): Promise<{ state?: RuntimeState; source: string }> {
  if (inspected.every((z) => z.found.state.status === 'readable')) return { source: '' };
  const copy = inspected.find((z) => z.found.state.parsed !== undefined);
  if (copy) return { state: copy.found.state.parsed, source: `zone ${copy.name}'s copy` };
  const plan = planFor({ ...target, previous: undefined });
  let differing = 0;
  for (const zone of plan.zones) {
    const { open } = target.zones.find((z) => z.name === zone.name)!;
    const drift = await withLease(open, (db) => diffZone(db, zone, target.owner, { recoverLedger: true }));
    differing += drift.lines.length;
  }
  if (differing > 0 && !force)
    throw new CliError(
      ExitCode.refused,
      `refused, nothing was written: no zone holds a readable state, and a fresh plan of ${target.file} differs from ${differing} rows of owner "${target.owner}" (\`ovnk diff\` lists them): it would change them; --force stores it anyway`,
      { file: target.file, problems: [{ reason: 'StateNotRebuilt', message: `${differing} rows differ`, path: '-f' }] },
    );
  const how = differing === 0 ? 'which matches every row of this owner' : `kept with --force: ${differing} rows differ`;
  return { state: plan.state, source: `a fresh plan of ${target.file}, ${how}` };
}

export async function repair(options: RepairOptions): Promise<CommandResult> {
  const target = await fileTarget(options, false, true);
  try {
    return await repairTarget(target, options);
  } finally {
    await releaseZones(target);
  }
}

async function repairTarget(target: FileTarget, options: RepairOptions): Promise<CommandResult> {
  const inspected: Inspected = [];
  for (const { name, open } of target.zones)
    inspected.push({ name, found: await withLease(open, (db) => inspectZone(db, target.owner)) });
  const { state, source } = await stateToWrite(target, inspected, options.force === true);
  const zones: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const { name, open } of target.zones) {
    const result = await withLease(open, (db) => repairZone(db, name, target.owner, state, source));
    zones[name] = { endpoint: result.endpoint, sent: result.sent, rebuilt: result.rebuilt };
    lines.push(
      `zone ${name} (${result.endpoint}): ${result.sent ? 'rebuilt' : 'state and ledger read fine, nothing rebuilt'}`,
      ...result.rebuilt.map((line) => `  ${line}`),
    );
  }
  return { document: { ok: true, owner: target.owner, zones }, text: lines.join('\n') };
}

export function registerRepair(program: Command): void {
  withFileOptions(
    program
      .command('repair')
      .description(
        "Rebuild this owner's lost or unreadable state and ledger in each zone's Northbound from what it holds",
      ),
  )
    .option('--force', 'keep a freshly planned state even when it differs from the rows it describes')
    .action((options: RepairOptions) => runFileCommand(options, () => repair(options)));
}
