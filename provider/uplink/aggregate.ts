/**
 * The aggregates of cluster-manager (uplink-upstream.md sections 2.2 and 5): an Uplink's `Ready`
 * from its selection and UplinkStates, and a CUDN's `UplinksReady` from its Uplink on every
 * active node (Resolved, then GatewayReady), with upstream's reasons, precedence and messages.
 * Pure.
 */
import { compare } from '../model/cluster';
import type { Uplink, UplinkNodeConfig } from '../model/uplink';
import { type Condition, condition, findCondition, type UplinkState } from './conditions';
import { uplinkStateName } from './names';
import { selectForNode, type UplinkSelection } from './select';

/** Upstream's "not resolved detail" of a state against its config; undefined when resolved. */
export function notResolvedDetail(state: UplinkState, config: UplinkNodeConfig): string | undefined {
  const resolved = findCondition(state.status.conditions, 'Resolved');
  if (!resolved) return 'ResolvedConditionMissing';
  if (resolved.status !== 'True') return resolved.reason || 'UplinkStateNotResolved';
  if (state.status.type !== config.type || state.status.hostInterfaceName !== config.hostInterfaceName)
    return 'NodeConfigMismatch';
  return undefined;
}

const readyPrecedence = [
  'NodeSelectorOverlap',
  'MissingUplinkState',
  'UplinkStateNotResolved',
  'UplinkStateIdentityError',
];

/** Examples `<a>, <b>, <c>`: sorted as whole strings, at most three. */
function examples(items: string[]): string {
  return [...items].sort(compare).slice(0, 3).join(', ');
}

/** `states`: UplinkState objects by name (what discovery published). */
export function uplinkReady(
  uplink: Uplink,
  selection: UplinkSelection,
  states: ReadonlyMap<string, UplinkState>,
  specProblem?: string,
): Condition {
  if (specProblem !== undefined)
    return condition('Ready', 'False', 'InvalidSpec', 'Uplink is not ready because its spec is not accepted');
  const total = selection.selected.size + selection.conflicts.length;
  if (total === 0) return condition('Ready', 'False', 'NoMatchingNodes', 'no nodes match any Uplink nodeConfig');
  const failures: { reason: string; example: string }[] = selection.conflicts.map((node) => ({
    reason: 'NodeSelectorOverlap',
    example: `${node}=NodeSelectorOverlap`,
  }));
  for (const node of [...selection.selected.keys()].sort(compare)) {
    const state = states.get(uplinkStateName(uplink.name, node));
    const detail = stateFailure(state, uplink.name, node, selection.selected.get(node)!);
    if (detail) failures.push({ reason: detail.reason, example: `${node}=${detail.detail}` });
  }
  if (failures.length === 0) return condition('Ready', 'True', 'Ready', `all ${total} selected node(s) are resolved`);
  const reason = readyPrecedence.find((r) => failures.some((f) => f.reason === r))!;
  return condition(
    'Ready',
    'False',
    reason,
    `${failures.length} of ${total} selected node(s) have readiness failures; examples: ${examples(failures.map((f) => f.example))}`,
  );
}

function stateFailure(
  state: UplinkState | undefined,
  uplink: string,
  node: string,
  config: UplinkNodeConfig,
): { reason: string; detail: string } | undefined {
  if (!state) return { reason: 'MissingUplinkState', detail: 'MissingUplinkState' };
  if (state.spec.uplinkName !== uplink)
    return {
      reason: 'UplinkStateIdentityError',
      detail: `UplinkStateIdentityError: uplinkName="${state.spec.uplinkName}"`,
    };
  if (state.spec.nodeName !== node)
    return {
      reason: 'UplinkStateIdentityError',
      detail: `UplinkStateIdentityError: nodeName="${state.spec.nodeName}"`,
    };
  const detail = notResolvedDetail(state, config);
  return detail === undefined ? undefined : { reason: 'UplinkStateNotResolved', detail };
}

export interface CudnUplinkInput {
  cudn: string;
  uplinks: readonly string[];
  gatewayMode: string;
  transport: string;
  /** Active nodes of the CUDN with their labels (every node unless narrowed), any order. */
  activeNodes: readonly { name: string; labels: Readonly<Record<string, string>> }[];
  uplinkObjects: ReadonlyMap<string, Uplink>;
  /** Uplinks whose nodeConfigs upstream cannot convert. */
  invalidUplinks: ReadonlyMap<string, string>;
  states: ReadonlyMap<string, UplinkState>;
}

const gatewayReasons = new Set([
  'GatewayConfigurationPending',
  'UplinkVRFAttachmentFailed',
  'UplinkBridgeMappingFailed',
  'UplinkGatewayProgrammingFailed',
  'UplinkConfigurationConflict',
]);

/** The CUDN's `UplinksReady` (section 5): no precedence - one shared reason, else UplinksNotReady. */
export function uplinksReady(input: CudnUplinkInput): Condition {
  const c = (status: 'True' | 'False', reason: string, message: string) =>
    condition('UplinksReady', status, reason, message);
  if (input.uplinks.length === 0) return c('True', 'UplinksReady', 'CUDN does not reference an Uplink');
  if (input.gatewayMode !== 'shared')
    return c('False', 'UplinkUnsupportedGatewayMode', `Uplink requires shared gateway mode, got ${input.gatewayMode}`);
  if (input.transport === 'EVPN')
    return c('False', 'UplinkUnsupportedTransport', 'Uplink is not supported with EVPN transport');
  const failures: { reason: string; example: string }[] = [];
  for (const name of input.uplinks) {
    const uplink = input.uplinkObjects.get(name);
    if (!uplink) return c('False', 'UplinkNotFound', `Uplink ${name} is missing`);
    const invalid = input.invalidUplinks.get(name);
    if (invalid !== undefined)
      return c('False', 'UplinkNotResolvedForNode', `Uplink ${name} has invalid nodeConfigs: ${invalid}`);
    for (const node of [...input.activeNodes].sort((a, b) => compare(a.name, b.name))) {
      const reason = nodeFailure(uplink, node, input.states);
      if (reason) failures.push({ reason, example: `${name}/${node.name}=${reason}` });
    }
  }
  if (failures.length === 0) return c('True', 'UplinksReady', 'Uplinks are ready for all active CUDN nodes');
  const reasons = new Set(failures.map((f) => f.reason));
  const reason = reasons.size === 1 ? failures[0]!.reason : 'UplinksNotReady';
  return c(
    'False',
    reason,
    `${failures.length} active node/uplink readiness check(s) failed; examples: ${examples(failures.map((f) => f.example))}`,
  );
}

function nodeFailure(
  uplink: Uplink,
  node: { name: string; labels: Readonly<Record<string, string>> },
  states: ReadonlyMap<string, UplinkState>,
): string | undefined {
  const choice = selectForNode(uplink, node.labels);
  if (choice.overlapping) return 'UplinkOverlapOnNode';
  if (!choice.config) return 'UplinkNotFoundForNode';
  const state = states.get(uplinkStateName(uplink.name, node.name));
  if (!state || state.spec.uplinkName !== uplink.name || state.spec.nodeName !== node.name)
    return 'UplinkNotResolvedForNode';
  if (notResolvedDetail(state, choice.config) !== undefined) return 'UplinkNotResolvedForNode';
  const gateway = findCondition(state.status.conditions, 'GatewayReady');
  if (!gateway) return 'UplinksNotReady';
  if (gateway.status !== 'True') return gatewayReasons.has(gateway.reason) ? gateway.reason : 'UplinksNotReady';
  return undefined;
}
