/**
 * The backends of the plan's service load balancers (pure). The topology renderer writes each
 * primary network's ClusterIP load balancers in its `<P>clusterLBGroup` (topology/groups.ts), and
 * a ServiceNetwork connect's group references them; the Inventory lists no EndpointSlices, so a
 * service's endpoints are the pods of its namespace on the service's port (the lab's convention:
 * every pod of a namespace serves its services), so a network's ClusterIP, and ServiceNetwork,
 * carry traffic from the YAML alone. Backends of every zone's pods are used in every zone, as
 * upstream's load balancers hold every endpoint of the cluster.
 */
import type { DesiredRow } from '../nb/desired';
import type { PodPlug } from './pods';
import type { TopologyPlan } from './topologyPlan';
import { KIND_KEY, NETWORK_KEY, SERVICE_OWNER_KEY } from '../model/externalIds';

const bareAddress = (address: string): string => address.split('/')[0]!;

/** `ip:port` or `[ip]:port` -> the address and the port. */
export function parseVip(vip: string): { ip: string; port: string } | undefined {
  const match = /^\[([0-9a-fA-F:.]+)\]:(\d+)$/.exec(vip) ?? /^([0-9.]+):(\d+)$/.exec(vip);
  return match ? { ip: match[1]!, port: match[2]! } : undefined;
}

/** The backends of one VIP: the pods' addresses of the VIP's family, sorted, on the VIP's port. */
export function backendsOf(vip: string, pods: PodPlug[]): string {
  const parsed = parseVip(vip);
  if (!parsed) return '';
  const v6 = parsed.ip.includes(':');
  const ips = pods
    .flatMap((p) => p.addresses.map(bareAddress))
    .filter((ip) => ip.includes(':') === v6)
    .sort();
  return ips.map((ip) => (v6 ? `[${ip}]:${parsed.port}` : `${ip}:${parsed.port}`)).join(',');
}

function isServiceBalancer(row: DesiredRow): boolean {
  const ids = row.columns.external_ids as Record<string, string> | undefined;
  return row.table === 'Load_Balancer' && ids?.[KIND_KEY] === 'Service' && typeof ids[SERVICE_OWNER_KEY] === 'string';
}

/** A service load balancer with its VIPs pointing at `pods` of its namespace and network. */
export function withBackends(row: DesiredRow, pods: PodPlug[]): DesiredRow {
  if (!isServiceBalancer(row)) return row;
  const ids = row.columns.external_ids as Record<string, string>;
  const namespace = ids[SERVICE_OWNER_KEY]!.split('/')[0];
  const serving = pods.filter((p) => p.namespace === namespace && p.network === ids[NETWORK_KEY]);
  const vips = row.columns.vips as Record<string, string>;
  const filled = Object.fromEntries(Object.keys(vips).map((vip) => [vip, backendsOf(vip, serving)]));
  return { ...row, columns: { ...row.columns, vips: filled } };
}

/** The plan with every service load balancer given the plan's pods as backends. */
export function withServiceBackends(plan: TopologyPlan): TopologyPlan {
  const pods = plan.zones.flatMap((z) => z.pods);
  if (pods.length === 0) return plan;
  return { ...plan, zones: plan.zones.map((z) => ({ ...z, rows: z.rows.map((row) => withBackends(row, pods)) })) };
}
