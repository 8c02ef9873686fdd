/**
 * The Uplink section (OKEP-6019) of `ovnk plan|apply|diff|destroy`: each command's result gets
 * `uplinks` (Uplink objects with status), `uplinkStates` (upstream's shape) and the CUDNs'
 * UplinksReady under `networks`, plus per-node lines. Offline `plan` shows selection and naming;
 * with `--lab` (or the Inventory's node targets) plan and diff discover each node over SSH, apply
 * writes the bridge mappings, destroy removes this owner's. RouteAdvertisements in the same file
 * drive VRF membership (planned by plan/diff, made after the mappings by apply, released by
 * destroy), reported per node under `uplinkVrf`. A CUDN whose `spec.uplinks` differs from the
 * stored state is reported under `uplinkReplacements`. Uplink problems refuse before the command
 * changes anything. Hooked into each command by one marked line.
 */
import { checkLabName, DEFAULT_LAB_NAME, inventoryOf, readState as readLab, statusOf } from '../../lab';
import type { Cluster } from '../../provider/model/cluster';
import type { Problem } from '../../provider/model/problem';
import type { RouteAdvertisements } from '../../provider/model/routeAdvertisements';
import { planTopology } from '../../provider/runtime/plan';
import type { RuntimeState } from '../../provider/runtime/state';
import { fillInventory } from '../../provider/runtime/inventoryMerge';
import { attributed, buildInputs } from '../../provider/runtime/input';
import {
  applyUplinks,
  destroyUplinks,
  discoverUplinks,
  parseRouteAdvertisementsDocuments,
  planUplinks,
  uplinkDriftLines,
  type UplinkPlan,
  type UplinkReplacement,
  uplinkReplacements,
  type UplinkRunResult,
  uplinksOf,
  type UplinkVrfInput,
} from '../../provider/runtime/uplink';
import { CliError, type CommandResult, ExitCode } from '../contract';
import { fileTarget } from './fileTarget';
import { type FileArgs, inputError, inputLabel, inputOf, type LoadedInput } from './input';

export type UplinkCommand = 'plan' | 'apply' | 'diff' | 'destroy';

export interface UplinkOptions {
  file: FileArgs;
  lab?: string | boolean;
  owner?: string;
  nb?: string[];
  zone?: string;
}

interface Loaded {
  cluster: Cluster;
  routeAdvertisements: RouteAdvertisements[];
}

/** The inputs' cluster (filled from the lab with --lab) and RouteAdvertisements; undefined when the input is unusable (the command reports that). */
async function clusterOf(options: UplinkOptions): Promise<Loaded | undefined> {
  let input: LoadedInput;
  try {
    input = await inputOf(options);
  } catch {
    return undefined;
  }
  if (input.problems.length > 0) return undefined;
  let documents = input.documents;
  if (options.lab !== undefined && options.lab !== false) {
    const name = checkLabName(typeof options.lab === 'string' ? options.lab : DEFAULT_LAB_NAME);
    const state = readLab(name);
    if (!state)
      throw new CliError(
        ExitCode.unreachable,
        `lab "${name}" is not running: start it with "ovnk lab up --name ${name}"`,
        { lab: name },
      );
    documents = fillInventory(
      documents,
      inventoryOf(statusOf(state, state.ovnRoot)) as unknown as { spec: Record<string, unknown> },
    );
  }
  const built = buildInputs(documents);
  if (!built.ok) return undefined;
  const problems: Problem[] = [];
  const routeAdvertisements = parseRouteAdvertisementsDocuments(documents, problems);
  if (problems.length > 0) throw inputError(input.label, attributed(problems, documents));
  return { cluster: built.cluster, routeAdvertisements };
}

function hasUplinks(cluster: Cluster): boolean {
  return (cluster.uplinks?.length ?? 0) > 0 || cluster.networks.some((n) => uplinksOf(n) !== undefined);
}

/** Whether the command reaches a Northbound (plan may have node targets only). */
function hasZoneTargets(cluster: Cluster, options: UplinkOptions): boolean {
  return options.nb !== undefined || Object.keys(cluster.inventory.targets?.zones ?? {}).length > 0;
}

function hasTargets(cluster: Cluster): boolean {
  return (
    cluster.inventory.nodes.length > 0 &&
    cluster.inventory.nodes.every((n) => cluster.inventory.targets?.nodes[n.name] !== undefined)
  );
}

async function run(
  command: UplinkCommand,
  cluster: Cluster,
  owner: string,
  online: boolean,
  vrf: UplinkVrfInput,
): Promise<UplinkPlan & Partial<UplinkRunResult>> {
  if (command === 'apply') return applyUplinks(cluster, owner, { vrf });
  if (command === 'destroy') return destroyUplinks(cluster, owner);
  if (command === 'diff' || online) return discoverUplinks(cluster, owner, { vrf });
  return planUplinks({ cluster, owner });
}

/** The stored state of a command with a Northbound target (undefined offline). */
async function previousState(
  command: UplinkCommand,
  options: UplinkOptions,
  online: boolean,
): Promise<RuntimeState | undefined> {
  if (command === 'plan' && !online) return undefined;
  return (await fileTarget(options, true, command === 'destroy')).previous; // a zone that does not answer fails in the command itself
}

/** RouteAdvertisements and the network ids the topology allocates against the stored state. */
function vrfInput(loaded: Loaded, previous: RuntimeState | undefined): UplinkVrfInput {
  const planned = planTopology(loaded.cluster, previous);
  return {
    routeAdvertisements: loaded.routeAdvertisements,
    networkIds: planned.ok ? planned.plan.allocation.networkIds : {},
  };
}

export function uplinkLines(result: UplinkPlan & Partial<UplinkRunResult>): string[] {
  const lines = ['uplinks:'];
  for (const u of result.uplinks) {
    const selection = `selects ${u.status.selectedNodes.join(', ') || 'no node'}${u.status.overlappingNodes.length > 0 ? `; overlapping on ${u.status.overlappingNodes.join(', ')}` : ''}`;
    lines.push(
      `  ${u.metadata.name}: ${[selection, ...u.status.conditions.map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`)].join('; ')}`,
    );
  }
  for (const s of result.uplinkStates) {
    const conditions = s.status.conditions
      .map((c) => `${c.type}=${c.status}${c.status === 'True' ? '' : ` ${c.reason}: ${c.message}`}`)
      .join('; ');
    lines.push(
      `  state ${s.metadata.name}: ${s.status.hostInterfaceName ?? '-'}${s.status.ovsBridge ? ` on ${s.status.ovsBridge.name}` : ''}${s.status.vlanTag !== undefined ? ` vlan ${s.status.vlanTag}` : ''}${conditions ? `  ${conditions}` : ''}`,
    );
  }
  for (const step of result.nodes) {
    if (step.error) lines.push(`  node ${step.node}: ${step.error.reason}: ${step.error.message}`);
    else if (step.change)
      lines.push(`  node ${step.node}: would write ovn-bridge-mappings=${step.change.mappings ?? '(none)'}`);
  }
  for (const [node, w] of Object.entries(result.written ?? {})) {
    lines.push(
      `  node ${node}: ${'error' in w ? `bridge mappings not written: ${w.error}` : `bridge mappings written (set ${w.set.join(', ') || 'none'}; removed ${w.removed.join(', ') || 'none'})`}`,
    );
  }
  for (const [network, n] of Object.entries(result.networks))
    lines.push(...n.conditions.map((c) => `  network ${network}: ${c.type}=${c.status} ${c.reason}: ${c.message}`));
  for (const [node, v] of Object.entries(result.vrf ?? {})) lines.push(...vrfLines(node, v));
  for (const p of result.problems) lines.push(`  problem ${p.reason} ${p.path}: ${p.message}`);
  return lines;
}

function vrfLines(node: string, report: NonNullable<UplinkRunResult['vrf']>[string]): string[] {
  if ('error' in report) return [`  node ${node}: VRF not configured: ${report.error}`];
  const outcomes = report.outcomes.map((o) => `${o.cudn}=${o.state}${o.reason ? ` ${o.reason}: ${o.message}` : ''}`);
  const done =
    report.ran.length > 0
      ? `ran: ${report.ran.join('; ')}`
      : report.steps.length > 0
        ? `would: ${report.steps.join('; ')}`
        : 'nothing to change';
  return [`  node ${node}: VRF ${outcomes.join(', ') || 'no Uplink CUDN'}; ${done}`];
}

function merge(
  command: UplinkCommand,
  inner: CommandResult,
  result: UplinkPlan & Partial<UplinkRunResult>,
  exitCode: ExitCode | undefined,
  replacements: UplinkReplacement[],
): CommandResult {
  const document = (inner.document ?? {}) as Record<string, unknown>;
  const networks = { ...((document.networks as Record<string, unknown>) ?? {}) };
  for (const [name, n] of Object.entries(result.networks))
    networks[name] = { ...((networks[name] as object) ?? {}), uplinks: n.uplinks, conditions: n.conditions };
  const drift = command === 'diff' ? uplinkDriftLines(result) : [];
  const refused = command === 'plan' && result.problems.length > 0;
  return {
    exitCode,
    text: [
      inner.text ?? '',
      ...uplinkLines(result),
      ...replacements.map((r) => `  replace ${r.network}: ${r.message}`),
      ...drift.map((l) => `  drift: ${l}`),
    ]
      .filter((l) => l !== '')
      .join('\n'),
    document: {
      ...document,
      ...(refused ? { ok: false, problems: [...((document.problems as unknown[]) ?? []), ...result.problems] } : {}),
      uplinks: result.uplinks,
      uplinkStates: result.uplinkStates,
      networks,
      uplinkNodes: result.nodes,
      uplinkProblems: result.problems,
      uplinkReplacements: replacements,
      ...(result.vrf ? { uplinkVrf: result.vrf } : {}),
      ...(command === 'diff' ? { uplinkDrift: drift } : {}),
      ...(result.roundTrips !== undefined ? { uplinkRoundTrips: result.roundTrips } : {}),
    },
  };
}

/** Run `inner` (the command) with the Uplink section around it. */
export async function withUplinks(
  command: UplinkCommand,
  options: UplinkOptions,
  inner: () => CommandResult | Promise<CommandResult>,
): Promise<CommandResult> {
  const loaded = await clusterOf(options);
  if (!loaded || !hasUplinks(loaded.cluster)) return inner();
  const { cluster } = loaded;
  const owner = options.owner ?? cluster.inventory.name;
  const offline = planUplinks({ cluster, owner });
  if (offline.problems.length > 0 && command !== 'plan' && command !== 'destroy') {
    throw new CliError(
      ExitCode.refused,
      `${inputLabel(options.file)}: refused, nothing was changed: ${offline.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      { file: inputLabel(options.file), problems: offline.problems },
    );
  }
  const online = command !== 'plan' || (options.lab !== undefined && options.lab !== false) || hasTargets(cluster);
  const previous = await previousState(command, options, online && hasZoneTargets(cluster, options));
  const replacements = command === 'destroy' ? [] : uplinkReplacements(previous?.uplinks, cluster.networks);
  const result = await inner();
  const uplinks = await run(command, cluster, owner, online, vrfInput(loaded, previous));
  return merge(command, result, uplinks, exitCodeOf(command, result.exitCode, uplinks), replacements);
}

function exitCodeOf(command: UplinkCommand, inner: ExitCode | undefined, result: UplinkPlan): ExitCode | undefined {
  if (inner === ExitCode.unreachable) return inner; // a zone that failed outranks drift
  if (command === 'plan' && result.problems.length > 0) return ExitCode.refused;
  if (command === 'diff' && uplinkDriftLines(result).some((l) => !l.includes('not discovered'))) return ExitCode.drift;
  if (
    result.nodes.some((n) => n.error) ||
    Object.values((result as Partial<UplinkRunResult>).vrf ?? {}).some((v) => 'error' in v)
  )
    return ExitCode.unreachable;
  return inner;
}
