/**
 * `ovnk destroy -f FILE ...`: remove exactly this owner's rows (and its state key) from each
 * zone's Northbound, every zone at once, one transaction per zone (a zone that fails fails alone:
 * zoneRuns.ts), and unplug its pods in the lab. Rows without our marker, even identical ones, are
 * untouched. It needs only the owner markers: an unreadable state is not read, and a lost or
 * unreadable ledger is rebuilt from the marked rows.
 */
import type { Command } from 'commander';
import { destroyZone, dict, type ZoneResult } from '../../provider/runtime';
import type { CommandResult } from '../contract';
import { withUplinks } from './uplinks';
import { type FileOptions, type FileTarget, fileTarget, planFor, runFileCommand, withFileOptions } from './fileTarget';
import { podKeysOf, podsOfZones, syncLabPods } from './labPods';
import { failureEntry, failureLine, runZones, type ZoneFailure, zonesResult } from './zoneRuns';

const removedText = (r: ZoneResult) => (r.sent ? `${r.operations} operations sent` : 'nothing of this owner found');

export async function destroy(options: FileOptions): Promise<CommandResult> {
  // destroy works from the owner markers alone: an unreadable state is a note, not a refusal
  const target = await fileTarget(options, true, true);
  const runs = await runZones(
    target,
    'destroy',
    target.names,
    (zone) => destroyZone(zone.db, zone.name, target.owner),
    removedText,
  );
  const zones = dict<unknown>();
  const lines: string[] = [];
  for (const run of runs) {
    if (!run.ok) {
      zones[run.zone] = failureEntry(run.failure);
      lines.push(failureLine(run.failure));
      continue;
    }
    const { endpoint, sent, operations, summary } = run.value;
    const notes = [
      ...target.unreadableState.filter((u) => u.zone === run.zone).map((u) => `${u.problem}: not needed to destroy`),
      ...run.value.notes,
    ];
    zones[run.zone] = { endpoint, sent, operations, summary, notes };
    lines.push(
      `zone ${run.zone} (${endpoint}): ${removedText(run.value)}`,
      ...notes.map((n) => `  note: ${n}`),
      ...summary.map((s) => `  ${s}`),
    );
  }
  const failures = runs.flatMap((r) => (r.ok ? [] : [r.failure]));
  const pods = target.lab ? await unplugPods(target, failures) : undefined;
  if (pods) lines.push(`pods: ${pods.unplugged.length} unplugged`);
  return zonesResult({ owner: target.owner, zones, ...(pods ? { pods } : {}) }, lines, failures);
}

/**
 * The stored state's pods and the file's (destroy after a lost state still unplugs the file's
 * pods), but for those of zones that failed: their rows are still there.
 */
function unplugPods(target: FileTarget, failures: ZoneFailure[]) {
  const planned = planFor(target);
  const untouched = podsOfZones(
    planned.zones,
    failures.map((f) => f.zone),
  );
  const owned = [...podKeysOf(target.previous), ...podKeysOf(planned.state)].filter((key) => !untouched.has(key));
  return syncLabPods(target.lab!, [], owned);
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
