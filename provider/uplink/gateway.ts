/**
 * `GatewayReady` of one UplinkState (upstream's node coordinator, uplink-upstream.md section
 * 3.5): from the phase of each active CUDN's gateway configuration on that node (here: its bridge
 * mapping), with upstream's reasons, precedence and message. Pure.
 */
import { compare } from '../model/cluster';
import { type Condition, condition } from './conditions';

export type GatewayPhase =
  { phase: 'ready' } | { phase: 'pending' } | { phase: 'failed'; reason: GatewayFailure; message: string };

export type GatewayFailure =
  | 'UplinkConfigurationConflict'
  | 'UplinkVRFAttachmentFailed'
  | 'UplinkBridgeMappingFailed'
  | 'UplinkGatewayProgrammingFailed';

const precedence = [
  'UplinkConfigurationConflict',
  'UplinkVRFAttachmentFailed',
  'UplinkBridgeMappingFailed',
  'UplinkGatewayProgrammingFailed',
  'GatewayConfigurationPending',
] as const;
const pendingMessage = 'gateway reconciliation is pending';

function reasonOf(state: GatewayPhase): string | undefined {
  if (state.phase === 'ready') return undefined;
  return state.phase === 'pending' ? 'GatewayConfigurationPending' : state.reason;
}

/** `networks`: OVN network name (`cluster_udn_<cudn>`) -> the phase of its configuration here. */
export function gatewayReady(networks: ReadonlyMap<string, GatewayPhase>): Condition {
  const total = networks.size;
  if (total === 0)
    return condition('GatewayReady', 'True', 'GatewayConfigured', 'No active CUDNs require Uplink gateway programming');
  const incomplete = [...networks.entries()].filter(([, s]) => s.phase !== 'ready').sort(([a], [b]) => compare(a, b));
  if (incomplete.length === 0)
    return condition(
      'GatewayReady',
      'True',
      'GatewayConfigured',
      `Uplink gateway programming succeeded for ${total} active CUDN(s)`,
    );
  const reasons = new Set(incomplete.map(([, s]) => reasonOf(s)));
  const reason = precedence.find((r) => reasons.has(r)) ?? 'UplinkGatewayProgrammingFailed';
  const examples = incomplete.slice(0, 3).map(([name, s]) => {
    const message = s.phase === 'failed' ? s.message : pendingMessage;
    return `${name}=${reasonOf(s)}${message ? `: ${message.slice(0, 160)}` : ''}`;
  });
  return condition(
    'GatewayReady',
    'False',
    reason,
    `${incomplete.length} of ${total} active CUDN(s) have incomplete Uplink gateway configuration; examples: ${examples.join(', ')}`,
  );
}
