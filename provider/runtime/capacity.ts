/**
 * The capacity forecast of a plan (provider/alloc/capacity.ts does the arithmetic): the plan's
 * networks in use and accepted connects, with the allocation they were planned with.
 */
import { type CapacityForecast, forecastCapacity } from '../alloc/capacity';
import type { TopologyPlan } from './topologyPlan';

export type { CapacityForecast, Growth, Limit } from '../alloc/capacity';

export function capacityOf(plan: Pick<TopologyPlan, 'cluster' | 'allocation'>): CapacityForecast {
  const { cluster, allocation } = plan;
  const networks = cluster.networks
    .filter((n) => allocation.networkIds[n.name] !== undefined)
    .map((n) => ({ name: n.name, ref: n.ref, topology: n.topology }));
  const connects = cluster.connects.flatMap((c) => {
    const state = allocation.state.connects[c.name];
    return allocation.connects[c.name]?.accepted && state ? [{ name: c.name, ref: c.ref, state }] : [];
  });
  return forecastCapacity({ allocation, networks, connects });
}
