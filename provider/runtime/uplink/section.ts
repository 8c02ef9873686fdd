/**
 * The Uplink section of one cluster command (OKEP-6019), typed: upstream-shaped Uplink and
 * UplinkState objects, the CUDNs' UplinksReady, each node's step, the problems that refuse the
 * command, the replacements (a CUDN whose `spec.uplinks` changed since the stored state), what
 * was written, the VRF report, the gateway bridge flows and the static FDB entries, and the
 * findings (findings.ts). `mode` says how far it went: `offline` (selection and naming only;
 * conditions that need no node), `observed` (discovered, nothing written) or `written`. Pure:
 * the runtime's cluster entry fills it.
 */
import { dict } from '../../model/dict';
import type { Condition, UplinkState } from '../../uplink/conditions';
import type { NodeStep, UplinkObjectStatus, UplinkPlan } from '../../uplink/plan';
import type { UplinkProblem } from '../../uplink/problems';
import type { UplinkReplacement } from '../../uplink/replace';
import type { NodeVrfReport } from '../vrf/nodes';
import { driftFindings, failureFindings, type UplinkFinding } from './findings';
import type { UplinkRunResult } from './run';

export interface UplinkSection {
  mode: 'offline' | 'observed' | 'written';
  uplinks: UplinkObjectStatus[];
  uplinkStates: UplinkState[];
  /** OVN network name -> the CUDN's Uplinks and UplinksReady. */
  networks: Record<string, { uplinks: string[]; conditions: Condition[] }>;
  nodes: NodeStep[];
  problems: UplinkProblem[];
  replacements: UplinkReplacement[];
  /** Per node whose mappings were written (mode `written`): what, or why not. */
  written: UplinkRunResult['written'];
  /** Per node with VRF intents: the steps planned or run, or why not. */
  vrf: Record<string, NodeVrfReport>;
  /** Per discovered node, its gateway bridge flows (absent offline, or when the run did not know the network ids). */
  flows: UplinkRunResult['flows'];
  /** Per discovered node, the static FDB entries of its Uplink bridges (absent offline). */
  fdb: UplinkRunResult['fdb'];
  /** SSH round trips of the run (absent offline). */
  roundTrips?: number;
  /** Drift (observed) and failures (observed and written), node by node. */
  findings: UplinkFinding[];
}

function fromPlan(mode: UplinkSection['mode'], plan: UplinkPlan, replacements: UplinkReplacement[]) {
  const { uplinks, uplinkStates, networks, nodes, problems } = plan;
  return { mode, uplinks, uplinkStates, networks, nodes, problems, replacements };
}

export function offlineSection(plan: UplinkPlan, replacements: UplinkReplacement[]): UplinkSection {
  return {
    ...fromPlan('offline', plan, replacements),
    written: dict(),
    vrf: dict(),
    flows: dict(),
    fdb: dict(),
    findings: [],
  };
}

export function observedSection(result: UplinkRunResult, replacements: UplinkReplacement[]): UplinkSection {
  const { written, vrf, flows, fdb, roundTrips } = result;
  const drift = driftFindings(result);
  const failures = failureFindings(result).filter((f) => f.kind !== 'notDiscovered');
  return {
    ...fromPlan('observed', result, replacements),
    written,
    vrf,
    flows,
    fdb,
    roundTrips,
    findings: [...drift, ...failures],
  };
}

export function writtenSection(result: UplinkRunResult, replacements: UplinkReplacement[]): UplinkSection {
  const { written, vrf, flows, fdb, roundTrips } = result;
  const findings = failureFindings(result);
  return { ...fromPlan('written', result, replacements), written, vrf, flows, fdb, roundTrips, findings };
}
