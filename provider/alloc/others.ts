/**
 * Other owners of the same Northbound (two stacks, or a stack and an `ovnk apply` file): each
 * allocates its own networks, but network ids (and with them masquerade IPs, management ports and
 * transit switch keys) and datapath tunnel keys are one space per Northbound, as they are one per
 * cluster upstream. Their allocation states (stored beside ours) make those values taken: ours
 * skip them, a value of ours from before that another owner holds is allocated afresh, and a
 * pinned value another owner holds is refused with that owner named. Pure.
 */
import { connectTunnelKeyAnnotation } from '../model/cnc';
import { dict, own } from '../model/dict';
import { networkIdAnnotation, tunnelKeysAnnotation } from '../model/network';
import { dynamicKeyStart, transitSwitchKey } from './datapathKeys';
import type { AllocationState } from './state';

/** Owner -> its allocation state, as stored in the Northbound (ours excluded). */
export type OtherOwners = Readonly<Record<string, AllocationState>>;

/** Values other owners hold, each with who holds it in words (`owner "b" (network "red")`). */
export interface Taken {
  networkIds: ReadonlyMap<number, string>;
  tunnelKeys: ReadonlyMap<number, string>;
}

export const nothingTaken: Taken = { networkIds: new Map(), tunnelKeys: new Map() };

export function takenByOthers(others: OtherOwners = {}): Taken {
  const networkIds = new Map<number, string>();
  const tunnelKeys = new Map<number, string>();
  for (const owner of Object.keys(others).sort()) {
    const state = others[owner]!;
    for (const [network, id] of Object.entries(state.networkIds ?? {}))
      if (!networkIds.has(id)) networkIds.set(id, `owner "${owner}" (network "${network}")`);
    for (const [holder, key] of Object.entries(state.tunnelKeys?.keys ?? {}))
      if (!tunnelKeys.has(key)) tunnelKeys.set(key, `owner "${owner}" (${holder})`);
  }
  return { networkIds, tunnelKeys };
}

/**
 * The values of `ours` another owner also holds, in words: what a writer that allocated without
 * seeing the others (a Pulumi stack's check) must refuse before writing.
 */
export function conflictsWithOthers(ours: AllocationState, others: OtherOwners): string[] {
  const taken = takenByOthers(others);
  const conflicts: string[] = [];
  for (const [network, id] of Object.entries(ours.networkIds)) {
    const holder = taken.networkIds.get(id);
    if (holder) conflicts.push(`network id ${id} of network "${network}" is also held by ${holder}`);
  }
  for (const [holder, key] of Object.entries(ours.tunnelKeys.keys)) {
    const other = taken.tunnelKeys.get(key);
    if (other) conflicts.push(`tunnel key ${key} of ${holder} is also held by ${other}`);
  }
  return conflicts;
}

/**
 * Pins, per network or connect, that give every network id and tunnel key of `ours` a value no
 * other owner holds: a held value replaced by a free one, the rest kept. All of them, not only
 * the held ones: a plan that cannot see the others (a stack's check) hands the lowest free id to
 * an unpinned network, and that may be the one just given up.
 */
export function freePins(ours: AllocationState, others: OtherOwners): string[] {
  const taken = takenByOthers(others);
  const free = freeValues(ours, taken);
  const pins = new Map<string, string[]>();
  const add = (name: string, annotation: string, value: string) =>
    pins.set(name, [...(pins.get(name) ?? []), `metadata.annotations["${annotation}"]: ${JSON.stringify(value)}`]);
  const ids = dict<number>();
  for (const [network, id] of Object.entries(ours.networkIds)) {
    ids[network] = taken.networkIds.has(id) ? free.networkId() : id;
    add(network, networkIdAnnotation, String(ids[network]));
  }
  for (const [holder, held] of Object.entries(ours.tunnelKeys.keys)) {
    const key = taken.tunnelKeys.has(held) ? free.tunnelKey() : held;
    const [kind, name] = [holder.slice(0, holder.indexOf('/')), holder.slice(holder.indexOf('/') + 1)];
    const id = own(ids, name);
    if (kind === 'transit-router' && id !== undefined)
      add(name, tunnelKeysAnnotation, JSON.stringify([transitSwitchKey(id), key]));
    if (kind === 'connect-router') add(name, connectTunnelKeyAnnotation, String(key));
  }
  return [...pins].map(([name, list]) => `on ${name} ${list.join(' and ')}`);
}

/** The lowest network ids and tunnel keys no owner holds, each handed out once. */
function freeValues(ours: AllocationState, taken: Taken): { networkId(): number; tunnelKey(): number } {
  const ids = new Set([...Object.values(ours.networkIds), ...taken.networkIds.keys()]);
  const keys = new Set([...Object.values(ours.tunnelKeys.keys), ...taken.tunnelKeys.keys()]);
  const next = (used: Set<number>, from: number) => {
    let value = from;
    while (used.has(value)) value++;
    used.add(value);
    return value;
  };
  return { networkId: () => next(ids, 1), tunnelKey: () => next(keys, dynamicKeyStart) };
}
