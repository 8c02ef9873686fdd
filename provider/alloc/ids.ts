/**
 * Network ids (1..4095) and node ids (2..5000). Pins win (the `k8s.ovn.org/network-id`
 * annotation, the inventory's node `id`), then ids from the previous state, then the lowest free
 * id in name order: upstream assigns in arrival order, we assign deterministically. Network ids
 * other owners of the Northbound hold are taken (others.ts).
 */
import { compare } from '../model/cluster';
import { dict, own } from '../model/dict';
import { maxNodeId, minNodeId } from '../model/inventoryNode';
import { networkIdAnnotation } from '../model/network';
import { type Problem, problem } from '../model/problem';

export const maxNetworkId = 4095;

export interface IdRequest {
  name: string;
  pinned?: number;
  /** For problem paths. */
  ref: string;
}

/** Ids other owners hold (others.ts): who holds each, and the field a pin of one is refused at. */
export interface TakenIds {
  ids: ReadonlyMap<number, string>;
  pinField: string;
}

/**
 * Assign ids in [min, max]; previous ids are kept unless a pin now holds them. Ids in `others`
 * are never handed out: a previous one is replaced, a pinned one refused naming its holder.
 */
export function assignIds(
  requests: IdRequest[],
  previous: Record<string, number>,
  min: number,
  max: number,
  what: string,
  others: TakenIds = { ids: new Map(), pinField: '' },
): { ids: Record<string, number>; problems: Problem[] } {
  const ids = dict<number>();
  const taken = new Set<number>(others.ids.keys());
  const problems: Problem[] = [];
  const sorted = [...requests].sort((a, b) => compare(a.name, b.name));
  for (const r of sorted) {
    if (r.pinned === undefined) continue;
    const holder = others.ids.get(r.pinned);
    if (holder === undefined) take(r.name, r.pinned);
    else
      problems.push(
        problem(
          'OwnerConflict',
          r.ref,
          others.pinField,
          `${what} id ${r.pinned} is pinned for ${r.name} but ${holder} holds it in this Northbound: pin another one`,
        ),
      );
  }
  for (const r of sorted) {
    const old = own(previous, r.name);
    if (ids[r.name] === undefined && old !== undefined && !taken.has(old) && old >= min && old <= max)
      take(r.name, old);
  }
  let candidate = min;
  for (const r of sorted) {
    if (ids[r.name] !== undefined) continue;
    while (taken.has(candidate)) candidate++;
    if (candidate > max)
      problems.push(
        problem('IdsExhausted', r.ref, '', `no ${what} id is left for ${r.name}: all of ${min}..${max} are in use`),
      );
    else take(r.name, candidate);
  }
  return { ids: sortedRecord(ids), problems };

  function take(name: string, id: number): void {
    ids[name] = id;
    taken.add(id);
  }
}

export function assignNetworkIds(
  requests: IdRequest[],
  previous: Record<string, number>,
  others: ReadonlyMap<number, string> = new Map(),
) {
  return assignIds(requests, previous, 1, maxNetworkId, 'network', {
    ids: others,
    pinField: `metadata.annotations["${networkIdAnnotation}"]`,
  });
}

export function assignNodeIds(requests: IdRequest[], previous: Record<string, number>) {
  return assignIds(requests, previous, minNodeId, maxNodeId, 'node');
}

export function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  const out = dict<T>();
  for (const key of Object.keys(record).sort(compare)) out[key] = record[key]!;
  return out;
}
