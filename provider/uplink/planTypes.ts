/**
 * What the Uplink plan (plan.ts) takes and gives: each node's discovery, the plan's input, each
 * node's host step, and the Uplink objects' and CUDNs' statuses. Types only.
 */
import type { Cluster } from '../model/cluster';
import type { Outcome, Refusal } from '../model/outcome';
import type { Uplink } from '../model/uplink';
import type { Condition, UplinkState } from './conditions';
import type { NodeFacts } from './facts';
import type { NodeFdbResult } from './fdbPlan';
import type { NodeFlowResult } from './flowPhase';
import type { BridgeMapping, MappingChange } from './mappings';
import type { UplinkProblem } from './problems';
import type { NodeVrfResult, UplinkVrfInput } from './vrfIntents';
import type { VrfIntent } from './vrfPlan';

/** A node's facts, or why it could not be discovered (its reason: HostUnreachable, HostKeyRejected, ...). */
export type NodeDiscovery = Outcome<NodeFacts, Refusal<string>>;

export interface UplinkPlanInput {
  cluster: Cluster;
  owner: string;
  /** Per node; absent = offline (selection and naming only). */
  discovery?: ReadonlyMap<string, NodeDiscovery>;
  /** Nodes whose mapping write failed in this apply, with the error text. */
  mappingFailures?: ReadonlyMap<string, string>;
  /** RouteAdvertisements and network ids: plan VRF membership too (absent: mappings only). */
  vrf?: UplinkVrfInput;
  /** Per node, what the runtime's VRF observation or apply gave. */
  vrfResults?: ReadonlyMap<string, NodeVrfResult>;
  /** Per node, what the runtime found or made of its gateway bridge flows (absent: flows not looked at). */
  flowResults?: ReadonlyMap<string, NodeFlowResult>;
  /** Per node, what the runtime found or made of its static FDB entries (absent: not looked at). */
  fdbResults?: ReadonlyMap<string, NodeFdbResult>;
}

export interface NodeStep {
  node: string;
  /** The mappings this owner wants on the node. */
  desired: BridgeMapping[];
  /** What to write (undefined: up to date, or offline, or unreachable). */
  change?: MappingChange;
  /** Why the node could not be discovered. */
  error?: { reason: string; message: string };
  /** VRF membership wanted here (when the plan had `vrf`), one per active resolved CUDN. */
  vrf?: VrfIntent[];
  /** CUDN name -> the bridge conflict it is in on this node. */
  conflicts?: Record<string, string>;
}

export interface UplinkObjectStatus {
  apiVersion: 'k8s.ovn.org/v1alpha1';
  kind: 'Uplink';
  metadata: { name: string };
  spec: { nodeConfigs: Uplink['nodeConfigs'] };
  status: { conditions: Condition[]; selectedNodes: string[]; overlappingNodes: string[] };
}

export interface UplinkPlan {
  problems: UplinkProblem[];
  uplinks: UplinkObjectStatus[];
  uplinkStates: UplinkState[];
  /** OVN network name -> the CUDN's uplink conditions. */
  networks: Record<string, { uplinks: string[]; conditions: Condition[] }>;
  nodes: NodeStep[];
}
