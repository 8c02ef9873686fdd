/**
 * Layer2 pod tunnel ids (upstream's cluster manager, kept in the pod annotation's `tunnel_id`):
 * per network, each pod gets an id in 1..32766 that every zone renders as the pod port's
 * `requested-tnl-key`, so the same pod has the same port key in every zone's Southbound and
 * cross-zone Layer2 packets are delivered. Deterministic and stable: a previous id still in range
 * and not taken is kept; new pods get the lowest free id in `namespace/name` order.
 */
import { dict, own } from '../model/dict';
import { TopologyInputError } from './errors';
import { podKey, type PodRef } from './pod-ips';

export const MIN_POD_TUNNEL_ID = 1;
export const MAX_POD_TUNNEL_ID = 32766;

/** Tunnel ids per OVN network name, then per `namespace/name`. */
export type PodTunnels = Record<string, Record<string, number>>;

const inRange = (id: unknown): id is number =>
  Number.isInteger(id) && (id as number) >= MIN_POD_TUNNEL_ID && (id as number) <= MAX_POD_TUNNEL_ID;

function keepPrevious(keys: string[], previous: Record<string, number>): Map<string, number> {
  const taken = new Set<number>();
  const kept = new Map<string, number>();
  for (const key of keys) {
    const id = own(previous, key);
    if (inRange(id) && !taken.has(id)) {
      taken.add(id);
      kept.set(key, id);
    }
  }
  return kept;
}

/**
 * Tunnel ids (`namespace/name` -> id) for the pods of one Layer2 network. Throws a
 * TopologyInputError naming the network when more pods than ids are asked for.
 */
export function assignPodTunnels(
  network: string,
  pods: PodRef[],
  previous: Record<string, number> = {},
): Record<string, number> {
  const keys = [...new Set(pods.map(podKey))].sort();
  const assigned = keepPrevious(keys, previous);
  const taken = new Set(assigned.values());
  let cursor = MIN_POD_TUNNEL_ID;
  for (const key of keys.filter((k) => !assigned.has(k))) {
    while (taken.has(cursor)) cursor += 1;
    if (cursor > MAX_POD_TUNNEL_ID) {
      throw new TopologyInputError(
        `networks.${network}.pods`,
        key,
        `cannot get a tunnel id: the ${MAX_POD_TUNNEL_ID} ids of network ${network} are all taken`,
      );
    }
    taken.add(cursor);
    assigned.set(key, cursor);
  }
  return dict(keys.map((k) => [k, assigned.get(k)!]));
}
