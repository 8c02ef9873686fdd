/**
 * `ovnk destroy -f FILE ...`: remove exactly this owner's rows (and its state key) from each
 * zone's Northbound, every zone at once, one transaction per zone (a zone that fails fails alone:
 * zoneRuns.ts), and with Uplinks this owner's bridge mappings and VRF membership on every node
 * (the runtime's cluster destroy); unplug its pods in the lab. Rows without our marker, even
 * identical ones, are untouched. It needs only the owner markers: an unreadable state is not
 * read, and a lost or unreadable ledger is rebuilt from the marked rows. `runDestroy` returns the
 * typed report; `destroy` renders it.
 */
import type { Command } from 'commander';
import { destroyCluster, dict, type UplinkSection, type ZoneResult } from '../../provider/runtime/cli';
import type { CommandResult } from '../contract';
import { type FileOptions, type FileTarget, fileTarget, planFor, runFileCommand, withFileOptions } from './fileTarget';
import { type PodChanges, podKeysOf, podsOfZones, syncLabPods } from './labPods';
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

const removedText = (r: ZoneResult) => (r.sent ? `${r.operations} operations sent` : 'nothing of this owner found');

/** What one destroy did, typed: every zone's outcome with its notes, the lab's pods, the Uplink section. */
export interface DestroyReport {
  owner: string;
  zones: ZoneRun<ZoneResult>[];
  /** Per zone: its state could not be read (not needed to destroy). */
  unreadableState: { zone: string; problem: string }[];
  pods?: PodChanges;
  uplinks?: UplinkSection;
}

export async function runDestroy(options: FileOptions): Promise<DestroyReport> {
  // destroy works from the owner markers alone: an unreadable state is a note, not a refusal
  const target = await fileTarget(options, true, true);
  const input = { cluster: target.cluster, owner: target.owner, hosts: true };
  const targets = zoneTargets(target, 'destroy', target.names, removedText);
  const result = await destroyCluster(input, targets).finally(() => releaseZones(target));
  const zones = zoneRunsOf(target, target.names, result.zones);
  const failures = zones.flatMap((r) => (r.ok ? [] : [r]));
  const pods = target.lab ? await unplugPods(target, failures) : undefined;
  return { owner: target.owner, zones, unreadableState: target.unreadableState, pods, uplinks: result.uplinks };
}

export function renderDestroy(report: DestroyReport): CommandResult {
  const zones = dict<unknown>();
  const lines: string[] = [];
  for (const run of report.zones) {
    if (!run.ok) {
      zones[run.zone] = failureEntry(run);
      lines.push(failureLine(run));
      continue;
    }
    const { endpoint, sent, operations, summary } = run.value;
    const notes = [
      ...report.unreadableState.filter((u) => u.zone === run.zone).map((u) => `${u.problem}: not needed to destroy`),
      ...run.value.notes,
    ];
    zones[run.zone] = { endpoint, sent, operations, summary, notes };
    lines.push(
      `zone ${run.zone} (${endpoint}): ${removedText(run.value)}`,
      ...notes.map((n) => `  note: ${n}`),
      ...summary.map((s) => `  ${s}`),
    );
  }
  const failures = report.zones.flatMap((r) => (r.ok ? [] : [r]));
  const { pods, uplinks } = report;
  if (pods) lines.push(`pods: ${pods.unplugged.length} unplugged`);
  const document = {
    owner: report.owner,
    zones,
    ...(pods ? { pods } : {}),
  };
  return zonesResultWithUplinks('destroy', document, lines, failures, uplinks);
}

export async function destroy(options: FileOptions): Promise<CommandResult> {
  return renderDestroy(await runDestroy(options));
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
      .description(
        "Remove exactly this owner's rows and state from each zone's Northbound, its Uplink state from the nodes, and unplug its pods",
      ),
  ).action((options: FileOptions) => runFileCommand(options, () => destroy(options)));
}
