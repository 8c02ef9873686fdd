/**
 * What the runtime found (or made) of a node's gateway bridge flows, and how that turns into the
 * phase of each CUDN's gateway configuration there: a bridge whose flows could not be written is
 * `UplinkGatewayProgrammingFailed` (upstream's reason when its flow sync fails), flows that differ
 * from the plan (or a patch port ovn-controller has not made yet) are pending; a bridge left to
 * ovnkube-node (issue 26 point 12) does not decide the phase. Pure.
 */
import type { GatewayPhase } from './gateway';

export interface BridgeFlowReport {
  bridge: string;
  /** OVN network names whose flows this bridge carries (empty: ours are to go). */
  networks: string[];
  /** Flows of ours the plan wants that the bridge lacks, and ours it has that the plan does not want. */
  missing: number;
  unexpected: number;
  /** Flows were replaced in this run (apply). */
  written: boolean;
  /** Why the flows are not as planned and could not be made so (a patch port never came, a write failed). */
  error?: string;
  /** The bridge's flows are ovnkube-node's (flows with upstream's cookie are there): left to it, not compared. */
  managedBy?: 'ovnkube-node';
}

export type NodeFlowResult = { ok: true; bridges: BridgeFlowReport[] } | { ok: false; message: string };

export const flowsInSync = (b: BridgeFlowReport): boolean => b.error === undefined && b.missing + b.unexpected === 0;

/** The phase of `network`'s flows on the node; undefined when the run did not look at flows. */
export function flowPhase(result: NodeFlowResult | undefined, network: string): GatewayPhase | undefined {
  if (!result) return undefined;
  if (!result.ok) return { phase: 'failed', reason: 'UplinkGatewayProgrammingFailed', message: result.message };
  const bridge = result.bridges.find((b) => b.networks.includes(network));
  if (!bridge) return { phase: 'pending' };
  if (bridge.managedBy) return undefined; // ovnkube-node's flows: upstream's own GatewayReady judges them
  if (bridge.error !== undefined)
    return { phase: 'failed', reason: 'UplinkGatewayProgrammingFailed', message: bridge.error };
  return flowsInSync(bridge) ? { phase: 'ready' } : { phase: 'pending' };
}
