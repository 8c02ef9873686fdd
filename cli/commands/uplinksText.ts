/**
 * The Uplink section (OKEP-6019) of `ovnk plan|apply|diff|destroy`, for people and for `-o json`:
 * from the runtime's typed UplinkSection, the lines (Uplinks with their selection and Ready,
 * UplinkStates, per-node writes and VRF, CUDN conditions, problems, replacements, drift) and the
 * document's fields (`uplinks`, `uplinkStates` in upstream's shape, the CUDNs' UplinksReady
 * under `networks`, `uplinkNodes`, `uplinkProblems`, `uplinkReplacements`, `uplinkFindings`,
 * `uplinkVrf`, `uplinkFlows`, `uplinkFdb`, `uplinkDrift` for diff, `uplinkRoundTrips`), and the exit code it implies.
 */
import {
  findingLine,
  isDrift,
  isFailure,
  type NodeVrfReport,
  type UplinkSection,
  upstreamUplink,
  upstreamUplinkState,
} from '../../provider/runtime/cli';
import { type CommandResult, ExitCode } from '../contract';
import { type NodeFailure, type ZoneFailure, zonesResult } from './zoneRuns';

type Section = UplinkSection;

function uplinkObjectLines(section: Section): string[] {
  return section.uplinks.map((u) => {
    const overlap =
      u.status.overlappingNodes.length > 0 ? `; overlapping on ${u.status.overlappingNodes.join(', ')}` : '';
    const selection = `selects ${u.status.selectedNodes.join(', ') || 'no node'}${overlap}`;
    const conditions = u.status.conditions.map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`);
    return `  ${u.metadata.name}: ${[selection, ...conditions].join('; ')}`;
  });
}

function stateLines(section: Section): string[] {
  return section.uplinkStates.map((s) => {
    const conditions = s.status.conditions
      .map((c) => `${c.type}=${c.status}${c.status === 'True' ? '' : ` ${c.reason}: ${c.message}`}`)
      .join('; ');
    const bridge = s.status.ovsBridge ? ` on ${s.status.ovsBridge.name}` : '';
    const vlan = s.status.vlanTag !== undefined ? ` vlan ${s.status.vlanTag}` : '';
    return `  state ${s.metadata.name}: ${s.status.hostInterfaceName ?? '-'}${bridge}${vlan}${conditions ? `  ${conditions}` : ''}`;
  });
}

function nodeLines(section: Section): string[] {
  const planned = section.nodes.flatMap((step) => {
    if (step.error) return [`  node ${step.node}: ${step.error.reason}: ${step.error.message}`];
    if (step.change)
      return [`  node ${step.node}: would write ovn-bridge-mappings=${step.change.mappings ?? '(none)'}`];
    return [];
  });
  const written = Object.entries(section.written).map(([node, w]) =>
    'error' in w
      ? `  node ${node}: bridge mappings not written: ${w.error}`
      : `  node ${node}: bridge mappings written (set ${w.set.join(', ') || 'none'}; removed ${w.removed.join(', ') || 'none'})`,
  );
  return [...planned, ...written];
}

/** Per node, its gateway bridges that carry networks or changed: written, in place, or why not. */
function flowLines(section: Section): string[] {
  return Object.entries(section.flows).flatMap(([node, result]) => {
    if (!result.ok) return [`  node ${node}: gateway flows not read: ${result.message}`];
    return result.bridges
      .filter((b) => b.networks.length > 0 || b.written || b.unexpected > 0)
      .map((b) => {
        const what = b.networks.length > 0 ? `flows for ${b.networks.join(', ')}` : 'no flows of ours';
        const state =
          b.error ??
          (b.managedBy
            ? `left to ${b.managedBy}`
            : b.written
              ? 'written'
              : b.missing + b.unexpected === 0
                ? 'in place'
                : 'differ');
        return `  node ${node}: ${b.bridge}: ${what}: ${state}`;
      });
  });
}

/** Per node, its Uplink bridges' static FDB entries: pinned, in place, missing, removed, or why not. */
function fdbLines(section: Section): string[] {
  return Object.entries(section.fdb).flatMap(([node, result]) => {
    if (!result.ok) return [`  node ${node}: static FDB entries not read: ${result.message}`];
    return result.bridges.flatMap((b) => {
      const wanted =
        b.wanted.length > 0
          ? (b.error ?? (b.added.length > 0 ? 'pinned' : b.missing.length > 0 ? 'missing' : 'in place'))
          : undefined;
      const lines = [
        ...(wanted === undefined ? [] : [`static FDB ${b.wanted.join(', ')}: ${wanted}`]),
        ...b.removed.map((e) => `static FDB ${e}: removed`),
        ...b.unexpected.map((e) => `static FDB ${e}: still there, no longer wanted`),
        ...(b.error !== undefined && wanted === undefined ? [`static FDB: ${b.error}`] : []),
      ];
      return lines.map((l) => `  node ${node}: ${b.bridge}: ${l}`);
    });
  });
}

function vrfLine(node: string, report: NodeVrfReport): string {
  if ('error' in report) return `  node ${node}: VRF not configured: ${report.error}`;
  const outcomes = report.outcomes.map((o) => `${o.cudn}=${o.state}${o.reason ? ` ${o.reason}: ${o.message}` : ''}`);
  const done =
    report.ran.length > 0
      ? `ran: ${report.ran.join('; ')}`
      : report.steps.length > 0
        ? `would: ${report.steps.join('; ')}`
        : 'nothing to change';
  return `  node ${node}: VRF ${outcomes.join(', ') || 'no Uplink CUDN'}; ${done}`;
}

/**
 * `ovnk diff`'s drift lines of the section (what is not discovered or left to ovnkube-node is said,
 * but is no drift).
 */
export function uplinkDrift(section: Section): string[] {
  return section.findings
    .filter((f) => isDrift(f) || f.kind === 'notDiscovered' || f.kind === 'flowsLeft')
    .map(findingLine);
}

/** The section's lines for people. */
export function uplinkLines(section: Section, command: string): string[] {
  return [
    'uplinks:',
    ...uplinkObjectLines(section),
    ...stateLines(section),
    ...nodeLines(section),
    ...Object.entries(section.networks).flatMap(([network, n]) =>
      n.conditions.map((c) => `  network ${network}: ${c.type}=${c.status} ${c.reason}: ${c.message}`),
    ),
    ...Object.entries(section.vrf).map(([node, v]) => vrfLine(node, v)),
    ...flowLines(section),
    ...fdbLines(section),
    ...section.problems.map((p) => `  problem ${p.reason} ${p.path}: ${p.message}`),
    ...section.replacements.map((r) => `  replace ${r.network}: ${r.message}`),
    ...(command === 'diff' ? uplinkDrift(section).map((l) => `  drift: ${l}`) : []),
  ];
}

/** The section's fields of the command's document; the CUDNs' Uplink conditions join `networks`. */
export function uplinkFields(section: Section, command: string, networks: Record<string, unknown> = {}) {
  const merged = { ...networks };
  for (const [name, n] of Object.entries(section.networks))
    merged[name] = { ...((merged[name] as object) ?? {}), uplinks: n.uplinks, conditions: n.conditions };
  return {
    uplinks: section.uplinks.map(upstreamUplink),
    uplinkStates: section.uplinkStates.map(upstreamUplinkState),
    networks: merged,
    uplinkNodes: section.nodes,
    uplinkProblems: section.problems,
    uplinkReplacements: section.replacements,
    uplinkFindings: section.findings,
    ...(section.mode === 'offline'
      ? {}
      : { uplinkVrf: section.vrf, uplinkFlows: section.flows, uplinkFdb: section.fdb }),
    ...(command === 'diff' ? { uplinkDrift: uplinkDrift(section) } : {}),
    ...(section.roundTrips !== undefined ? { uplinkRoundTrips: section.roundTrips } : {}),
  };
}

/**
 * The exit code with the section: a zone that failed outranks everything; a plan refused for an
 * Uplink problem is 1; drift is 2 (diff); a node that could not be discovered or written is 4.
 */
export function withUplinkExit(command: string, zones: ExitCode | undefined, section: Section): ExitCode | undefined {
  if (zones === ExitCode.unreachable || zones === ExitCode.badInput) return zones;
  if (command === 'plan' && section.problems.length > 0) return ExitCode.refused;
  if (command === 'diff' && section.findings.some(isDrift)) return ExitCode.drift;
  if (section.findings.some(isFailure)) return ExitCode.unreachable;
  return zones;
}

/** The nodes whose host work failed, each with what failed: the findings that make the exit code 4. */
export function nodeFailures(section: Section): NodeFailure[] {
  return section.findings
    .filter(isFailure)
    .map((f) => ({ node: f.node, error: findingLine(f).replace(/^node \S+: /, '') }));
}

/**
 * A zone command's result (zoneRuns.ts's zonesResult) with its Uplink section, when it has one:
 * the section's fields after the document's, its lines after the zones', its failed nodes named
 * beside the failed zones, and its exit code.
 */
export function zonesResultWithUplinks(
  command: string,
  document: Record<string, unknown>,
  lines: string[],
  failures: ZoneFailure[],
  uplinks: Section | undefined,
  exitCode?: ExitCode,
): CommandResult {
  if (!uplinks) return zonesResult(document, lines, failures, exitCode);
  const withSection = { ...document, ...uplinkFields(uplinks, command) };
  const allLines = [...lines, ...uplinkLines(uplinks, command)];
  const result = zonesResult(withSection, allLines, failures, exitCode, nodeFailures(uplinks));
  return { ...result, exitCode: withUplinkExit(command, result.exitCode, uplinks) };
}
