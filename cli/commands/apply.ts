/**
 * `ovnk apply -f FILE [--lab [NAME] | --nb EP ...] [--zone NAME] [--owner NAME] [-o json|text]`:
 * load -> plan against the state stored in the target Northbound -> refuse (exit 1, nothing
 * sent) on problems -> per zone one transaction (rows + state) -> in the lab, plug the planned
 * pods and unplug this owner's pods no longer in the file. Also the target resolution shared by
 * `diff` and `destroy` (fileTarget): --lab fills the Inventory from the running lab, the file wins.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { addPod, checkLabName, DEFAULT_LAB_NAME, inventoryOf, type LabStatus, readState as readLab, removePod, statusOf } from '../../lab';
import { loadDocuments } from '../../provider/model/load';
import { SchemaAdaptationError } from '../../provider/nb/adapt';
import { checkOwner } from '../../provider/nb/ownership';
import { ReconcileError } from '../../provider/nb/reconcile';
import type { Problem } from '../../provider/model/problem';
import {
  applyZone, closeConnections, EndpointError, fillInventory, nbConnection, planTopology, readZoneState,
  type RuntimeState, StateError, TargetUnreachableError, type TopologyPlan, type ZonePlan,
} from '../../provider/runtime';
import type { OvsdbDatabase } from '../../provider/ovsdb/client';
import { buildTopology } from '../../provider/runtime/plan';
import { zonesOf } from '../../provider/topology/fromCluster';
import type { Cluster } from '../../provider/model/cluster';
import { CliError, type CommandResult, ExitCode, parseOutputFormat, runFormatted } from '../contract';
import { withUplinks } from './uplinks';

export interface FileOptions {
  file: string;
  lab?: string | boolean;
  nb?: string[];
  zone?: string;
  owner?: string;
  output?: string;
}

export interface FileTarget {
  file: string;
  owner: string;
  cluster: Cluster;
  lab?: LabStatus;
  zones: { name: string; db: OvsdbDatabase }[];
  /** The state stored in the first zone that has one. */
  previous?: RuntimeState;
}

export function withFileOptions(command: Command): Command {
  return command
    .requiredOption('-f, --file <file>', 'YAML or JSON file with Inventory and network objects')
    .option('--lab [name]', `target the running lab (default name "${DEFAULT_LAB_NAME}"); fills nodes and targets the file lacks`)
    .option('--nb <endpoint...>', 'Northbound endpoint for every zone (EP) or one zone (ZONE=EP)')
    .option('--zone <name>', 'only this zone (default: every zone)')
    .option('--owner <name>', 'the owner marker and state key (default: the Inventory\'s name)')
    .option('-o, --output <format>', 'json or text', 'text');
}

/** Run a file command under the contract, closing the Northbound connections afterwards. */
export async function runFileCommand(options: FileOptions, body: () => Promise<CommandResult>): Promise<void> {
  process.exitCode = await runFormatted(() => parseOutputFormat(options.output), async () => {
    try {
      return await body();
    } catch (error) {
      throw asCliError(error, options.file);
    } finally {
      await closeConnections();
    }
  });
}

function asCliError(error: unknown, file: string): unknown {
  if (error instanceof TargetUnreachableError) return new CliError(ExitCode.unreachable, error.message, { endpoint: error.endpoint });
  if (error instanceof EndpointError) return new CliError(ExitCode.badInput, error.message, { path: error.field, endpoint: error.endpoint });
  if (error instanceof StateError) return new CliError(ExitCode.badInput, error.message, { file });
  if (error instanceof SchemaAdaptationError || error instanceof ReconcileError) {
    return new CliError(ExitCode.refused, `refused, nothing was sent: ${error.message}`, { file, problems: error.problems });
  }
  return error;
}

function inputError(file: string, problems: Problem[]): CliError {
  const first = problems[0]!;
  return new CliError(ExitCode.badInput, `${file}: ${first.path}: ${first.message}`, { file, path: first.path, problems });
}

function labStatus(lab: string | boolean): LabStatus {
  const name = checkLabName(typeof lab === 'string' ? lab : DEFAULT_LAB_NAME);
  const state = readLab(name);
  if (!state || state.phase !== 'running') throw new CliError(ExitCode.unreachable, `lab "${name}" is not running: start it with "ovnk lab up --name ${name}"`, { lab: name });
  return statusOf(state, state.ovnRoot);
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(ExitCode.badInput, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file, path: '-f' });
  }
}

/** `EP` for every zone, or `ZONE=EP`; the last one given wins. */
function endpointOf(zone: string, cluster: Cluster, nb: string[] | undefined): string {
  for (const given of [...(nb ?? [])].reverse()) {
    const at = given.indexOf('=');
    if (at < 0) return given;
    if (given.slice(0, at) === zone) return given.slice(at + 1);
  }
  const endpoint = cluster.inventory.targets?.zones[zone]?.nb;
  if (endpoint === undefined) throw new CliError(ExitCode.badInput, `zone "${zone}" has no Northbound endpoint: give --nb, --lab, or spec.targets.zones.${zone}.nb`, { path: `spec.targets.zones.${zone}.nb` });
  return endpoint;
}

/** `--owner`, else the Inventory's name; checked before anything is read or written. */
function ownerOf(given: string | undefined, cluster: Cluster): string {
  const owner = given ?? cluster.inventory.name;
  try {
    return checkOwner(owner);
  } catch (error) {
    throw new CliError(ExitCode.badInput, (error as Error).message, { path: given === undefined ? `Inventory/${owner}: metadata.name` : '--owner' });
  }
}

/** Load, fill from the lab, build, connect to each zone's Northbound, read the stored state. */
export async function fileTarget(options: FileOptions): Promise<FileTarget> {
  const loaded = loadDocuments(readText(options.file));
  if (loaded.problems.length > 0) throw inputError(options.file, loaded.problems);
  const lab = options.lab === undefined || options.lab === false ? undefined : labStatus(options.lab);
  const documents = lab ? fillInventory(loaded.documents, inventoryOf(lab) as unknown as { spec: Record<string, unknown> }) : loaded.documents;
  const built = buildTopology(documents);
  if (!built.ok) throw inputError(options.file, built.inputProblems);
  const names = zonesOf(built.cluster).map((z) => z.name);
  if (options.zone !== undefined && !names.includes(options.zone)) {
    throw new CliError(ExitCode.badInput, `--zone "${options.zone}" is not a zone of this inventory (zones: ${names.join(', ') || 'none'})`, { path: '--zone' });
  }
  const zones = [];
  for (const name of names.filter((n) => options.zone === undefined || n === options.zone)) {
    const endpoint = endpointOf(name, built.cluster, options.nb);
    zones.push({ name, db: await nbConnection(endpoint, options.nb ? '--nb' : `spec.targets.zones.${name}.nb`) });
  }
  const owner = ownerOf(options.owner, built.cluster);
  let previous: RuntimeState | undefined;
  for (const zone of zones) previous ??= await readZoneState(zone.db, owner);
  return { file: options.file, owner, cluster: built.cluster, lab, zones, previous };
}

/** The plan for a target; input problems exit 3. */
export function planFor(target: FileTarget, zone?: string): TopologyPlan {
  const result = planTopology(target.cluster, target.previous, { zone });
  if (!result.ok) throw inputError(target.file, result.inputProblems);
  return result.plan;
}

export interface PodChanges {
  plugged: string[];
  unplugged: string[];
}

const samePlug = (record: Record<string, unknown>, plug: ZonePlan['pods'][number]) =>
  record.node === plug.node && record.ifaceId === plug.ifaceId && record.mac === plug.mac && JSON.stringify(record.addresses) === JSON.stringify(plug.addresses);

/** Refuses (before anything is sent) to replug a lab pod of the same name that another owner plugged. */
export function checkLabPods(lab: LabStatus, wanted: ZonePlan['pods'], owned: string[]): void {
  const ours = new Set(owned);
  const records = readLab(lab.name)?.pods ?? [];
  for (const plug of wanted) {
    const record = records.find((p) => p.namespace === plug.namespace && p.name === plug.name);
    const key = `${plug.namespace}/${plug.name}`;
    if (record && record.ifaceId !== plug.ifaceId && !ours.has(key)) {
      throw new CliError(ExitCode.refused, `pod ${key} is already plugged in lab "${lab.name}" on port ${String(record.ifaceId)}, not by this owner: nothing was changed`, { path: 'spec.pods' });
    }
  }
}

/** `namespace/name` of every pod a state gave addresses to. */
export function podKeysOf(state: RuntimeState | undefined): string[] {
  return Object.values(state?.pods ?? {}).flatMap((m) => Object.keys(m));
}

/** Make the lab's pods of this owner match the plan: plug new or changed ones, unplug the `owned` rest. */
export async function syncLabPods(lab: LabStatus, wanted: ZonePlan['pods'], owned: string[]): Promise<PodChanges> {
  const changes: PodChanges = { plugged: [], unplugged: [] };
  const keep = new Set(wanted.map((p) => `${p.namespace}/${p.name}`));
  const before = new Set(owned);
  for (const key of [...before].filter((k) => !keep.has(k)).sort()) {
    const [namespace, name] = key.split('/') as [string, string];
    if (readLab(lab.name)?.pods.some((p) => p.namespace === namespace && p.name === name)) changes.unplugged.push(key);
    await removePod(lab.name, namespace, name);
  }
  for (const plug of wanted) {
    const key = `${plug.namespace}/${plug.name}`;
    const record = readLab(lab.name)?.pods.find((p) => p.namespace === plug.namespace && p.name === plug.name);
    if (record && samePlug(record, plug)) continue;
    if (record) await removePod(lab.name, plug.namespace, plug.name);
    await addPod(lab.name, { namespace: plug.namespace, name: plug.name, node: plug.node, ifaceId: plug.ifaceId, mac: plug.mac, addresses: plug.addresses, gateways: plug.gateways, mtu: plug.mtu });
    changes.plugged.push(key);
  }
  return changes;
}

function refusal(file: string, plan: TopologyPlan): CliError {
  const problems = plan.problems.map(({ reason, message, path }) => ({ reason, message, path }));
  return new CliError(ExitCode.refused, `${file}: refused, nothing was changed: ${problems.map((p) => p.message).join('; ')}`, { file, problems });
}

export async function apply(options: FileOptions): Promise<CommandResult> {
  const target = await fileTarget(options);
  const plan = planFor(target, options.zone);
  if (plan.problems.length > 0) throw refusal(options.file, plan);
  if (target.lab) checkLabPods(target.lab, plan.zones.flatMap((z) => z.pods), podKeysOf(target.previous));
  const zones: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const zone of plan.zones) {
    const db = target.zones.find((z) => z.name === zone.name)!.db;
    const result = await applyZone(db, zone, target.owner, plan.state);
    zones[zone.name] = { endpoint: result.endpoint, sent: result.sent, operations: result.operations, summary: result.summary, notes: result.notes };
    lines.push(`zone ${zone.name} (${result.endpoint}): ${result.sent ? `${result.operations} operations sent` : 'up to date, nothing sent'}`, ...result.notes.map((n) => `  note: ${n}`), ...result.summary.map((s) => `  ${s}`));
  }
  const pods = target.lab ? await syncLabPods(target.lab, plan.zones.flatMap((z) => z.pods), podKeysOf(target.previous)) : undefined;
  if (pods) lines.push(`pods: ${pods.plugged.length} plugged, ${pods.unplugged.length} unplugged`);
  else if (plan.zones.some((z) => z.pods.length > 0)) lines.push('pods: not plugged (only --lab plugs pods)');
  return { document: { ok: true, owner: target.owner, zones, ...(pods ? { pods } : {}) }, text: lines.join('\n') };
}

export function registerApply(program: Command): void {
  withFileOptions(program.command('apply').description('Apply the file\'s networks to each zone\'s Northbound (one transaction per zone) and plug its pods in the lab'))
    .action((options: FileOptions) => runFileCommand(options, () => withUplinks('apply', options, () => apply(options)))); // uplinks: cli/commands/uplinks.ts
}
