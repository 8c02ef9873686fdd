/**
 * What an Uplink run found on the nodes, typed: a node it could not discover, a bridge mapping
 * that differs from what the plan implies, VRF membership that differs, gateway bridge flows
 * that differ, static FDB entries that differ, a mapping write, VRF step, flow or FDB write that
 * failed. Drift (`ovnk diff`'s exit 2, a Pulumi refresh's drift) is exactly the `mapping`, `vrf`,
 * `flows` and `fdb` findings; failures are
 * the others. `findingLine` words each one, for the
 * CLI's text and the providers' drift lines alike. Pure.
 */
import type { NodeFdbResult } from '../../uplink/fdbPlan';
import type { NodeFlowResult } from '../../uplink/flowPhase';
import { upstreamCookie } from '../../uplink/flows';
import type { NodeStep, UplinkPlan } from '../../uplink/plan';
import type { UplinkRunResult } from './run';

export type UplinkFinding =
  /** Discovery of the node failed (unreachable, host key, ...): nothing is known of it. */
  | { kind: 'notDiscovered'; node: string; reason: string; message: string }
  /**
   * `ovn-bridge-mappings` lacks `network:bridge` (present false) or still maps `network`, which no
   * CUDN of this owner uses.
   */
  | { kind: 'mapping'; node: string; network: string; bridge?: string; present: boolean }
  /** VRF membership differs: the step that would make it right. */
  | { kind: 'vrf'; node: string; step: string }
  /** Writing the node's bridge mappings failed. */
  | { kind: 'mappingNotWritten'; node: string; error: string }
  /** Planning or making the node's VRF membership failed. */
  | { kind: 'vrfFailed'; node: string; error: string }
  /** A gateway bridge's flows of ours differ from the plan: how many are missing and how many should not be there. */
  | { kind: 'flows'; node: string; bridge: string; missing: number; unexpected: number }
  /** The bridge's flows are ovnkube-node's: left to it, neither drift nor a failure. */
  | { kind: 'flowsLeft'; node: string; bridge: string }
  /** Reading or writing the node's (or one bridge's) flows failed. */
  | { kind: 'flowsFailed'; node: string; bridge?: string; error: string }
  /** A bridge's static FDB entries differ: ours missing (ovs-vswitchd restarted, an expiry), or to be gone. */
  | { kind: 'fdb'; node: string; bridge: string; missing: string[]; unexpected: string[] }
  /** Reading or making the node's (or one bridge's) static FDB entries failed. */
  | { kind: 'fdbFailed'; node: string; bridge?: string; error: string };

export type UplinkFindingKind = UplinkFinding['kind'];

export const isDrift = (f: UplinkFinding): boolean =>
  f.kind === 'mapping' || f.kind === 'vrf' || f.kind === 'flows' || f.kind === 'fdb';
export const isFailure = (f: UplinkFinding): boolean => !isDrift(f) && f.kind !== 'flowsLeft';

/** The steps that would change the node's membership; steps that only keep our records are no drift. */
function vrfDrift(step: NodeStep, changes: string[] | undefined): UplinkFinding[] {
  if ((step.vrf ?? []).length === 0 && !step.conflicts) return [];
  return (changes ?? []).map((s) => ({ kind: 'vrf', node: step.node, step: s }));
}

function mappingDrift(step: NodeStep): UplinkFinding[] {
  if (!step.change) return [];
  return [
    ...step.change.set.map((m) => ({
      kind: 'mapping' as const,
      node: step.node,
      network: m.network,
      bridge: m.bridge,
      present: false,
    })),
    ...step.change.removed.map((network) => ({ kind: 'mapping' as const, node: step.node, network, present: true })),
  ];
}

function flowDrift(node: string, result: NodeFlowResult | undefined): UplinkFinding[] {
  if (!result?.ok) return [];
  return result.bridges.flatMap((b): UplinkFinding[] => {
    if (b.managedBy) return b.networks.length > 0 ? [{ kind: 'flowsLeft', node, bridge: b.bridge }] : [];
    if (b.error !== undefined || b.missing + b.unexpected === 0) return [];
    return [{ kind: 'flows', node, bridge: b.bridge, missing: b.missing, unexpected: b.unexpected }];
  });
}

function fdbDrift(node: string, result: NodeFdbResult | undefined): UplinkFinding[] {
  if (!result?.ok) return [];
  return result.bridges.flatMap((b): UplinkFinding[] =>
    b.error === undefined && b.missing.length + b.unexpected.length > 0
      ? [{ kind: 'fdb', node, bridge: b.bridge, missing: b.missing, unexpected: b.unexpected }]
      : [],
  );
}

/** Drift (and nodes not discovered) of an observed plan, node by node in node order. */
export function driftFindings(
  result: UplinkPlan & Partial<Pick<UplinkRunResult, 'vrfChanges' | 'flows' | 'fdb'>>,
): UplinkFinding[] {
  return result.nodes.flatMap((step): UplinkFinding[] => {
    if (step.error) return [{ kind: 'notDiscovered', node: step.node, ...step.error }];
    return [
      ...vrfDrift(step, result.vrfChanges?.[step.node]),
      ...mappingDrift(step),
      ...flowDrift(step.node, result.flows?.[step.node]),
      ...fdbDrift(step.node, result.fdb?.[step.node]),
    ];
  });
}

/** A per-node, per-bridge result's failures (flows' and static FDB entries' alike) as findings of `kind`. */
function bridgeFailures(
  kind: 'flowsFailed' | 'fdbFailed',
  results: Record<string, NodeFlowResult | NodeFdbResult> | undefined,
): UplinkFinding[] {
  return Object.entries(results ?? {}).flatMap(([node, r]): UplinkFinding[] =>
    r.ok
      ? r.bridges.flatMap((b): UplinkFinding[] =>
          b.error !== undefined ? [{ kind, node, bridge: b.bridge, error: b.error }] : [],
        )
      : [{ kind, node, error: r.message }],
  );
}

/** What failed on the nodes of a run: discovery, mapping writes, VRF, flows, static FDB entries. */
export function failureFindings(result: UplinkPlan & Partial<UplinkRunResult>): UplinkFinding[] {
  const notDiscovered = result.nodes.flatMap((step): UplinkFinding[] =>
    step.error ? [{ kind: 'notDiscovered', node: step.node, ...step.error }] : [],
  );
  const writes = Object.entries(result.written ?? {}).flatMap(([node, w]): UplinkFinding[] =>
    'error' in w ? [{ kind: 'mappingNotWritten', node, error: w.error }] : [],
  );
  const vrf = Object.entries(result.vrf ?? {}).flatMap(([node, v]): UplinkFinding[] =>
    'error' in v ? [{ kind: 'vrfFailed', node, error: v.error }] : [],
  );
  return [
    ...notDiscovered,
    ...writes,
    ...vrf,
    ...bridgeFailures('flowsFailed', result.flows),
    ...bridgeFailures('fdbFailed', result.fdb),
  ];
}

/** A finding in words, as `ovnk diff` and a refresh's drift say it. */
export function findingLine(f: UplinkFinding): string {
  switch (f.kind) {
    case 'notDiscovered':
      return `node ${f.node}: not discovered (${f.reason}): ${f.message}`;
    case 'mapping':
      return f.present
        ? `node ${f.node}: ovn-bridge-mappings still maps ${f.network}, which no CUDN of this owner uses`
        : `node ${f.node}: ovn-bridge-mappings lacks ${f.network}:${f.bridge}`;
    case 'vrf':
      return `node ${f.node}: VRF membership differs: would ${f.step}`;
    case 'mappingNotWritten':
      return `node ${f.node}: bridge mappings not written: ${f.error}`;
    case 'vrfFailed':
      return `node ${f.node}: VRF not configured: ${f.error}`;
    case 'flows':
      return `node ${f.node}: bridge ${f.bridge}: ${f.missing} gateway flow(s) missing, ${f.unexpected} not planned`;
    case 'flowsLeft':
      return `node ${f.node}: bridge ${f.bridge}: gateway flows left to ovnkube-node (flows with its cookie ${upstreamCookie} are there; it replaces the bridge's flows every 15 s)`;
    case 'flowsFailed':
      return `node ${f.node}: ${f.bridge ? `bridge ${f.bridge}: ` : ''}gateway flows not in place: ${f.error}`;
    case 'fdb':
      return `node ${f.node}: bridge ${f.bridge}: ${[
        ...f.missing.map((e) => `static FDB entry ${e} missing`),
        ...f.unexpected.map((e) => `static FDB entry ${e} still there, no longer wanted`),
      ].join('; ')}`;
    case 'fdbFailed':
      return `node ${f.node}: static FDB entries not in place: ${f.error}`;
  }
}
