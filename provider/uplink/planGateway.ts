/**
 * The GatewayReady condition of each discovered UplinkState: for every CUDN on its Uplink that is
 * active on the node, whether the node is resolved, free of bridge conflicts, mapped, with its
 * bridge's static FDB entry pinned, in its VRF, and its gateway bridge's flows are in place
 * (plan.ts puts it on the states). Pure.
 */
import type { Network } from '../model/network';
import { isActiveOn } from './active';
import { findCondition, type UplinkState } from './conditions';
import { fdbPhase } from './fdbPlan';
import { flowPhase } from './flowPhase';
import { type GatewayPhase, gatewayReady } from './gateway';
import { bridgeMappingsKey, parseMappings } from './mappings';
import type { NodeStep, UplinkPlanInput } from './planTypes';
import { vrfPhase } from './vrfIntents';

/** GatewayReady of each discovered state: every CUDN on its Uplink is active on every node. */
export function withGateway(
  input: UplinkPlanInput,
  states: UplinkState[],
  users: { network: Network; uplink: string }[],
  steps: NodeStep[],
): UplinkState[] {
  if (!input.discovery) return states;
  return states.map((state) => {
    const { uplinkName, nodeName } = state.spec;
    const step = steps.find((s) => s.node === nodeName);
    const node = input.cluster.inventory.nodes.find((n) => n.name === nodeName)!;
    const phases = new Map<string, GatewayPhase>();
    for (const { network } of users.filter((u) => u.uplink === uplinkName && isActiveOn(node, u.network)))
      phases.set(network.name, gatewayPhase(input, state, step, network));
    return { ...state, status: { ...state.status, conditions: [...state.status.conditions, gatewayReady(phases)] } };
  });
}

function gatewayPhase(
  input: UplinkPlanInput,
  state: UplinkState,
  step: NodeStep | undefined,
  cudn: Network,
): GatewayPhase {
  const network = cudn.name;
  const { uplinkName, nodeName } = state.spec;
  if (findCondition(state.status.conditions, 'Resolved')?.status !== 'True') {
    return {
      phase: 'failed',
      reason: 'UplinkGatewayProgrammingFailed',
      message: `uplink "${uplinkName}" on node "${nodeName}" is not resolved`,
    };
  }
  const conflict = step?.conflicts?.[cudn.objectName];
  if (conflict !== undefined) return { phase: 'failed', reason: 'UplinkConfigurationConflict', message: conflict };
  const failure = input.mappingFailures?.get(nodeName);
  if (failure !== undefined) return { phase: 'failed', reason: 'UplinkBridgeMappingFailed', message: failure };
  const fdb = fdbPhase(input.fdbResults?.get(nodeName), state.status.ovsBridge?.name);
  if (fdb?.phase === 'failed') return fdb;
  const intent = step?.vrf?.find((i) => i.cudn === cudn.objectName);
  const vrf = vrfPhase(input.vrfResults?.get(nodeName), cudn.objectName, intent?.domain.kind === 'vrf');
  if (vrf?.phase === 'failed') return vrf;
  const found = input.discovery?.get(nodeName);
  const live = found?.ok ? parseMappings(found.value.ovs.externalIds[bridgeMappingsKey]).get(network) : undefined;
  const pendingChange = step?.change?.set.some((m) => m.network === network);
  if (live !== state.status.ovsBridge?.name || pendingChange || fdb?.phase === 'pending') return { phase: 'pending' };
  const flows = flowPhase(input.flowResults?.get(nodeName), network);
  if (flows && flows.phase !== 'ready') return flows;
  return vrf ?? { phase: 'ready' };
}
