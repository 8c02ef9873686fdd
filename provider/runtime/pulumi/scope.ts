/**
 * Which rows of a planned topology one resource owns (ARCHITECTURE's granularity rule): the
 * cluster's shared rows (Copp, meters) per zone; in the central layout the rows of one network or
 * of one connect; in the per-node layout every row of one zone except the shared ones. Never one
 * resource per port, route or ACL.
 */
import { loadBalancerRows } from '../../connect/services';
import { renderConnect } from '../../connect/render';
import { prepareZones, uniqueRows } from '../../connect/zones';
import type { DesiredRow } from '../../nb/desired';
import { topologyInputs } from '../../topology/fromCluster';
import { renderNetwork } from '../../topology/render';
import { identityOf } from '../../topology/rows';
import { renderSharedRows } from '../../topology/shared';
import type { TopologyPlan } from '../plan';

export type Scope =
  | { kind: 'shared' }
  | { kind: 'zone' }
  /** `ref` is the network object's reference, e.g. `ClusterUserDefinedNetwork/blue-network`. */
  | { kind: 'network'; ref: string }
  | { kind: 'connect'; name: string };

/** The scope cannot be rendered (no such zone, network or accepted connect). */
export class ScopeError extends Error {
  override name = 'ScopeError';
  constructor(readonly property: string, message: string) {
    super(message);
  }
}

export function scopeRows(plan: TopologyPlan, zone: string, scope: Scope): DesiredRow[] {
  const zonePlan = plan.zones.find((z) => z.name === zone);
  if (!zonePlan) throw new ScopeError('zone', `zone "${zone}" is not a zone of this inventory (zones: ${plan.zones.map((z) => z.name).join(', ') || 'none'})`);
  switch (scope.kind) {
    case 'shared':
      return renderSharedRows();
    case 'zone':
      return withoutShared(zonePlan.rows);
    case 'network':
      return networkRows(plan, zone, scope.ref);
    case 'connect':
      return connectRows(plan, zone, scope.name);
  }
}

function withoutShared(rows: DesiredRow[]): DesiredRow[] {
  const shared = new Set(renderSharedRows().map((r) => `${r.table}/${identityOf(r)}`));
  return rows.filter((r) => !shared.has(`${r.table}/${identityOf(r)}`));
}

function networkRows(plan: TopologyPlan, zone: string, ref: string): DesiredRow[] {
  const network = plan.cluster.networks.find((n) => n.ref === ref);
  if (!network) throw new ScopeError('network', `network ${ref} is not among the topology's networks`);
  const inputs = topologyInputs(plan.cluster, plan.allocation, plan.state.pods, zone).zones[0]?.inputs ?? [];
  const input = inputs.find((i) => i.network.name === network.name);
  if (!input) throw new ScopeError('network', `network ${ref} renders no rows: it serves no namespace of the inventory or is not a primary Layer3/Layer2 network`);
  return renderNetwork(input);
}

function connectRows(plan: TopologyPlan, zone: string, name: string): DesiredRow[] {
  const prepared = prepareZones(plan.cluster, plan.allocation);
  const input = prepared.connects.find((c) => c.name === name);
  if (!input) throw new ScopeError('connect', `connect ${name} is not an accepted ClusterNetworkConnect of the topology`);
  const spec = prepared.zones.find((z) => z.name === zone)!;
  const rows = renderConnect(input, prepared.nodes, spec).rows;
  if (!input.serviceNetwork) return rows;
  const byName = new Map(plan.cluster.networks.map((n) => [n.name, n]));
  const balancers = input.networks.flatMap((n) => loadBalancerRows(n.name, byName.get(n.name)?.namespaces ?? [], plan.cluster.inventory.services));
  return uniqueRows([...rows, ...balancers]);
}
