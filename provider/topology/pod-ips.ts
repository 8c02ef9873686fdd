/**
 * Pod address assignment: from the node's host subnet(s) (Layer3) or the network subnet(s)
 * (Layer2, Localnet), skipping the network address, the gateway (.1) and the management address
 * (.2) where the network has them, excluded subnets, and the IPv4 broadcast address. Deterministic
 * (pods taken in namespace/name order) and stable:
 * a previous assignment that is still valid is kept, so the runtime keeps assignments in state.
 */
import { cidrSize, containsAddress, formatAddress, parseAddress, type Cidr } from '../model/cidr';
import { dict, own } from '../model/dict';
import { parseNetwork } from './addresses';
import { TopologyInputError } from './errors';

export interface PodRef {
  namespace: string;
  name: string;
}

/** `namespace/name`, the key of the assignment maps. */
export const podKey = (pod: PodRef): string => `${pod.namespace}/${pod.name}`;

export interface PodPool {
  /** The pods drawing from this pool (one node's host subnets, or a Layer2 network's subnets). */
  pods: PodRef[];
  /** One subnet per family; a pod gets one address from each. */
  subnets: string[];
  /** The first offset pods may get; default 3 (after the gateway .1 and the management .2). */
  firstOffset?: number;
  /** Subnets no pod gets an address from (a Localnet network's excludeSubnets). */
  exclude?: string[];
}

/** Which addresses of one subnet pods may get. */
interface Range {
  subnet: Cidr;
  first: bigint;
  exclude: Cidr[];
}

function usable(range: Range, value: bigint): boolean {
  const { subnet } = range;
  const offset = value - subnet.base;
  if (offset < range.first || offset >= cidrSize(subnet)) return false;
  if (range.exclude.some((x) => x.family === subnet.family && containsAddress(x, x.family, value))) return false;
  return !(subnet.family === 4 && offset === cidrSize(subnet) - 1n);
}

function valueIn(range: Range, ip: string | undefined): bigint | undefined {
  const parsed = ip === undefined ? undefined : parseAddress(ip);
  if (!parsed || parsed.family !== range.subnet.family || !usable(range, parsed.value)) return undefined;
  return parsed.value;
}

function assignFamily(range: Range, pods: PodRef[], previous: Record<string, string[]>): Map<string, string> {
  const { subnet } = range;
  const taken = new Map<bigint, string>();
  const result = new Map<string, string>();
  for (const pod of pods) {
    const kept = (own(previous, podKey(pod)) ?? []).map((ip) => valueIn(range, ip)).find((v) => v !== undefined);
    if (kept !== undefined && !taken.has(kept)) {
      taken.set(kept, podKey(pod));
      result.set(podKey(pod), formatAddress(subnet.family, kept));
    }
  }
  let cursor = subnet.base + range.first;
  for (const pod of pods.filter((p) => !result.has(podKey(p)))) {
    while (taken.has(cursor) || !usable(range, cursor)) {
      if (cursor - subnet.base >= cidrSize(subnet)) {
        throw new TopologyInputError(
          'pods',
          podKey(pod),
          `cannot get an address: subnet ${formatAddress(subnet.family, subnet.base)}/${subnet.prefix} is full`,
        );
      }
      cursor += 1n;
    }
    taken.set(cursor, podKey(pod));
    result.set(podKey(pod), formatAddress(subnet.family, cursor));
  }
  return result;
}

/**
 * Addresses per pod (`namespace/name` -> bare IPs, IPv4 first) for one pool. `previous` holds
 * the last assignments; those still inside the pool and not reserved are kept.
 */
export function assignPodIPs(pool: PodPool, previous: Record<string, string[]> = {}): Record<string, string[]> {
  const subnets = pool.subnets.map((s, i) => parseNetwork(s, `subnets[${i}]`)).sort((a, b) => a.family - b.family);
  const pods = [...pool.pods].sort((a, b) => (podKey(a) < podKey(b) ? -1 : podKey(a) > podKey(b) ? 1 : 0));
  const exclude = (pool.exclude ?? []).map((s, i) => parseNetwork(s, `exclude[${i}]`));
  const first = BigInt(pool.firstOffset ?? 3);
  const perFamily = subnets.map((subnet) => assignFamily({ subnet, first, exclude }, pods, previous));
  const out = dict<string[]>();
  for (const pod of pods) out[podKey(pod)] = perFamily.map((m) => m.get(podKey(pod)) as string);
  return out;
}
