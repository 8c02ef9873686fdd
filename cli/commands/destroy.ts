/**
 * `ovnk destroy -f FILE ...`: remove exactly this owner's rows (and its state key) from each
 * zone's Northbound, one transaction per zone, and unplug its pods in the lab. Rows without our
 * marker, even identical ones, are untouched.
 */
import type { Command } from 'commander';
import { destroyZone } from '../../provider/runtime';
import type { CommandResult } from '../contract';
import { progressFor } from '../progress';
import { withUplinks } from './uplinks';
import { type FileOptions, fileTarget, planFor, runFileCommand, withFileOptions } from './fileTarget';
import { podKeysOf, syncLabPods } from './labPods';

export async function destroy(options: FileOptions): Promise<CommandResult> {
  const target = await fileTarget(options);
  const zones: Record<string, unknown> = {};
  const lines: string[] = [];
  const progress = progressFor('destroy', target.zones.length);
  for (const { name, db } of target.zones) {
    const done = progress.zone(name);
    const result = await destroyZone(db, name, target.owner);
    done(result.sent ? `${result.operations} operations sent` : 'nothing of this owner found');
    zones[name] = {
      endpoint: result.endpoint,
      sent: result.sent,
      operations: result.operations,
      summary: result.summary,
    };
    lines.push(
      `zone ${name} (${result.endpoint}): ${result.sent ? `${result.operations} operations sent` : 'nothing of this owner found'}`,
      ...result.summary.map((s) => `  ${s}`),
    );
  }
  // the stored state's pods and the file's: destroy after a lost state still unplugs the file's pods
  const owned = target.lab ? [...podKeysOf(target.previous), ...podKeysOf(planFor(target).state)] : [];
  const pods = target.lab ? await syncLabPods(target.lab, [], owned) : undefined;
  if (pods) lines.push(`pods: ${pods.unplugged.length} unplugged`);
  return { document: { ok: true, owner: target.owner, zones, ...(pods ? { pods } : {}) }, text: lines.join('\n') };
}

export function registerDestroy(program: Command): void {
  withFileOptions(
    program
      .command('destroy')
      .description("Remove exactly this owner's rows and state from each zone's Northbound and unplug its pods"),
  ).action((options: FileOptions) =>
    runFileCommand(options, () => withUplinks('destroy', options, () => destroy(options))),
  ); // uplinks: cli/commands/uplinks.ts
}
