/**
 * `ovnk audit -f FILE (--nb EP ... | --lab) [--zone Z] [-o json]`: whether each zone's Northbound
 * holds what the file implies, whoever wrote it (ovn-kubernetes itself, a person, ovnk), compared
 * by upstream's identities, row by row: rows missing, rows that differ (columns, expected and
 * found), rows of the audited networks nobody expects. Read-only and marker-free; allocations the
 * rows show are adopted where the file pins none. Exit 2 when anything differs, 0 when nothing
 * does; a zone that cannot be read fails alone (exit 4 naming it, zoneRuns.ts). Each zone's rows
 * are read with its state, planned with every zone's, then compared: its connection is held for
 * each of the two reads, never between (zoneRuns.ts), so at most --parallel at once.
 */
import type { Command } from 'commander';
import {
  AuditInputError,
  auditReadZones,
  auditScope,
  type AuditResult,
  type Comparison,
  dict,
  problemLine,
  readAuditZone,
  type RowDifference,
  type RowOutline,
  type ZoneAudit,
} from '../../provider/runtime/cli';
import { type CommandResult, ExitCode } from '../contract';
import { type FileOptions, fileTarget, runFileCommand, withFileOptions } from './fileTarget';
import { inputError } from './input';
import { failureEntry, failureLine, releaseZones, zoneRunsOf, zonesResult } from './zoneRuns';

const count = (c: Comparison) => c.missing.length + c.differing.length + c.unexpected.length;
const rowName = (table: string, key: string) => `${table} ${JSON.stringify(key)}`;
const value = (v: unknown) => (v === undefined ? '(default)' : JSON.stringify(v));

const missingLine = (r: RowOutline) => `missing ${rowName(r.table, r.key)}`;
const unexpectedLine = (r: RowOutline) => `unexpected ${rowName(r.table, r.key)}: ${JSON.stringify(r.columns)}`;
function differenceLine(d: RowDifference): string {
  const found = d.foundKey === undefined ? '' : ` (found as ${JSON.stringify(d.foundKey)})`;
  const columns = d.columns.map((c) => `${c.column} expected ${value(c.expected)}, found ${value(c.found)}`);
  return `differs ${rowName(d.table, d.key)}${found}: ${columns.join('; ')}`;
}

/** One zone in words: a headline, then one line per difference. */
export function zoneLines(zone: string, audit: ZoneAudit): string[] {
  const c = audit.comparison;
  const n = count(c);
  const headline = `zone ${zone} (${audit.endpoint}): ${n === 0 ? 'agrees' : `${n} differences`} (${audit.expected} rows expected, ${audit.read} read with ${audit.selects} selects)`;
  const lines = [
    ...c.missing.map(missingLine),
    ...c.differing.map(differenceLine),
    ...c.unexpected.map(unexpectedLine),
  ];
  return [headline, ...audit.notes.map((n) => `  note: ${n}`), ...lines.map((l) => `  ${l}`)];
}

export async function runAudit(options: FileOptions) {
  // each zone's rows of the audited networks are read on the connection of its state read
  const target = await fileTarget(options, true, true, (cluster) => {
    const scope = auditScope(cluster);
    return (db) => readAuditZone(db, scope);
  });
  const names = target.names.filter((n) => options.zone === undefined || n === options.zone);
  let result: AuditResult;
  try {
    const reads = target.zones.map((z) => ({ name: z.name, first: z.read }));
    const targets = { zones: target.zones, parallel: target.parallel };
    result = await auditReadZones(target.cluster, reads, targets, { zone: options.zone, previous: target.previous });
  } catch (error) {
    if (error instanceof AuditInputError) throw inputError(target.file, error.problems);
    throw error;
  } finally {
    await releaseZones(target);
  }
  return { result, runs: zoneRunsOf(target, names, result.zones) };
}

export async function audit(options: FileOptions): Promise<CommandResult> {
  const { result, runs } = await runAudit(options);
  const zones = dict<unknown>();
  const lines: string[] = [];
  for (const run of runs) {
    if (!run.ok) {
      zones[run.zone] = failureEntry(run);
      lines.push(failureLine(run));
      continue;
    }
    const { comparison, ...rest } = run.value;
    zones[run.zone] = { ...rest, ...comparison };
    lines.push(...zoneLines(run.zone, run.value));
  }
  const differs = runs.some((r) => r.ok && count(r.value.comparison) > 0);
  const problems = result.problems.map((p) => ({ reason: p.reason, path: p.path, message: p.message }));
  lines.push(...result.problems.map((p) => `refused by the plan: ${problemLine(p)}`));
  const failures = runs.flatMap((r) => (r.ok ? [] : [r]));
  const document = { differs, adopted: result.adopted, ...(problems.length > 0 ? { problems } : {}), zones };
  return zonesResult(document, lines, failures, differs ? ExitCode.drift : ExitCode.ok);
}

export function registerAudit(program: Command): void {
  withFileOptions(
    program
      .command('audit')
      .description(
        "Compare each zone's Northbound, whoever wrote it, with the file by upstream's identities, read-only (exit 2 when they differ)",
      ),
  ).action((options: FileOptions) => runFileCommand(options, () => audit(options)));
}
