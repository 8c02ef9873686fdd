/**
 * `ovnk destroy -f FILE ...`: remove exactly this owner's rows (and its state key) from each
 * zone's Northbound, one transaction per zone, and unplug its pods in the lab. Rows without our
 * marker, even identical ones, are untouched.
 */
import type { Command } from 'commander';
import { destroyZone } from '../../provider/runtime';
import type { CommandResult } from '../contract';
import { type FileOptions, fileTarget, runFileCommand, syncLabPods, withFileOptions } from './apply';

export async function destroy(options: FileOptions): Promise<CommandResult> {
  const target = await fileTarget(options);
  const zones: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const { name, db } of target.zones) {
    const result = await destroyZone(db, name, target.owner);
    zones[name] = { endpoint: result.endpoint, sent: result.sent, operations: result.operations, summary: result.summary };
    lines.push(`zone ${name} (${result.endpoint}): ${result.sent ? `${result.operations} operations sent` : 'nothing of this owner found'}`, ...result.summary.map((s) => `  ${s}`));
  }
  const pods = target.lab ? await syncLabPods(target.lab, [], target.previous) : undefined;
  if (pods) lines.push(`pods: ${pods.unplugged.length} unplugged`);
  return { document: { ok: true, owner: target.owner, zones, ...(pods ? { pods } : {}) }, text: lines.join('\n') };
}

export function registerDestroy(program: Command): void {
  withFileOptions(program.command('destroy').description('Remove exactly this owner\'s rows and state from each zone\'s Northbound and unplug its pods'))
    .action((options: FileOptions) => runFileCommand(options, () => destroy(options)));
}
