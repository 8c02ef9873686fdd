/**
 * An Inventory's `spec.allocations`: what upstream already allocated in the cluster, as
 * `ovnk inventory` reads it from the NADs (`k8s.ovn.org/network-id`, `k8s.ovn.org/tunnel-keys`,
 * keyed by `k8s.ovn.org/network-name`) and the CNCs (their two annotations, verbatim). Plans take
 * these as previous state (alloc/adopt.ts), so a prediction starts from the cluster's real
 * numbers. Node ids and host subnets need no section: they are the nodes' `id` and `hostSubnets`.
 */
import { dict } from './dict';
import type { FieldReader, Json } from './fields';

export interface AdoptedNetwork {
  /** The OVN network name (`cluster_udn_blue-network`, `ns_name`). */
  name: string;
  id?: number;
  /** `[switch key, transit router key]` of a primary Layer2 network. */
  tunnelKeys?: number[];
}

export interface AdoptedAllocations {
  networks: AdoptedNetwork[];
  /** By CNC name: its upstream annotations, verbatim. */
  connects: Record<string, Record<string, string>>;
}

export function parseAdopted(r: FieldReader, value: Json): AdoptedAllocations {
  const map = r.record(value, 'spec.allocations') ?? {};
  const networks = (r.list(map.networks, 'spec.allocations.networks') ?? []).flatMap((n, i) =>
    parseNetwork(r, n, `spec.allocations.networks[${i}]`),
  );
  const connects: AdoptedAllocations['connects'] = dict();
  (r.list(map.connects, 'spec.allocations.connects') ?? []).forEach((c, i) => {
    const field = `spec.allocations.connects[${i}]`;
    const entry = r.record(c, field);
    const name = entry && (r.string(entry.name, `${field}.name`) ?? r.missing(`${field}.name`));
    if (entry && name !== undefined) connects[name] = r.labels(entry.annotations, `${field}.annotations`);
  });
  return { networks, connects };
}

function parseNetwork(r: FieldReader, value: Json, field: string): AdoptedNetwork[] {
  const map = r.record(value, field);
  const name = map && (r.string(map.name, `${field}.name`) ?? r.missing(`${field}.name`));
  if (!map || name === undefined) return [];
  const id = r.integer(map.id, `${field}.id`);
  const keys = map.tunnelKeys === undefined ? undefined : r.list(map.tunnelKeys, `${field}.tunnelKeys`);
  const tunnelKeys = keys?.flatMap((k, i) => r.integer(k, `${field}.tunnelKeys[${i}]`) ?? []);
  return [{ name, ...(id !== undefined ? { id } : {}), ...(tunnelKeys ? { tunnelKeys } : {}) }];
}
