/**
 * `Open_vSwitch.external_ids:ovn-bridge-mappings` text (`physnet1:br1,physnet2:br2`): upstream's
 * merge of one entry (drop entries of the same physical network, keep every other entry verbatim
 * and in order, append), and our removal of entries we own (upstream never removes them). We
 * record the physical networks we wrote under `ovnk.io/bridge-mappings/<owner>` on the same row,
 * so only those are ever removed. Pure.
 */
import { BRIDGE_MAPPINGS_PREFIX } from '../model/externalIds';

export const bridgeMappingsKey = 'ovn-bridge-mappings';

/** The external_ids key that lists the physical networks `owner` mapped on a node. */
export function ownedMappingsKey(owner: string): string {
  return `${BRIDGE_MAPPINGS_PREFIX}${owner}`;
}

export interface BridgeMapping {
  network: string;
  bridge: string;
}

/** Physical network of one entry: the text before its first `:`. */
function entryNetwork(entry: string): string {
  const at = entry.indexOf(':');
  return at < 0 ? entry : entry.slice(0, at);
}

function entries(text: string | undefined): string[] {
  return text === undefined || text === '' ? [] : text.split(',');
}

/** Upstream's merge: every entry of `mapping.network` replaced by one at the end. */
export function mergeMapping(text: string | undefined, mapping: BridgeMapping): string {
  const kept = entries(text).filter((e) => entryNetwork(e) !== mapping.network);
  return [...kept, `${mapping.network}:${mapping.bridge}`].join(',');
}

/** Every entry of these physical networks removed; the rest verbatim, in order. */
export function removeMappings(text: string | undefined, networks: Iterable<string>): string {
  const drop = new Set(networks);
  return entries(text)
    .filter((e) => !drop.has(entryNetwork(e)))
    .join(',');
}

/** The bridge each physical network maps to (the first entry of a network wins, as in ovn-controller). */
export function parseMappings(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of entries(text)) {
    const network = entryNetwork(entry);
    if (!out.has(network) && entry.includes(':')) out.set(network, entry.slice(network.length + 1));
  }
  return out;
}

export function parseOwnedList(text: string | undefined): string[] {
  return entries(text).filter((e) => e !== '');
}

export interface MappingChange {
  /** The new ovn-bridge-mappings text (undefined: delete the key, nothing is left). */
  mappings: string | undefined;
  /** The new owned list text (undefined: delete the key). */
  owned: string | undefined;
  /** Entries added or changed, and physical networks removed, for summaries. */
  set: BridgeMapping[];
  removed: string[];
}

/**
 * What a node's two keys become when `owner` wants exactly `desired` of its mappings there.
 * Undefined when nothing changes.
 */
export function planMappings(
  current: string | undefined,
  ownedText: string | undefined,
  desired: BridgeMapping[],
): MappingChange | undefined {
  const existing = parseMappings(current);
  const wanted = new Set(desired.map((d) => d.network));
  const removed = parseOwnedList(ownedText).filter((n) => !wanted.has(n) && existing.has(n));
  const set = desired.filter(
    (d) =>
      existing.get(d.network) !== d.bridge || entries(current).filter((e) => entryNetwork(e) === d.network).length > 1,
  );
  const ownedNext = [...wanted].sort().join(',');
  if (set.length === 0 && removed.length === 0 && ownedNext === (ownedText ?? '')) return undefined;
  let text = removeMappings(current, removed);
  for (const mapping of set) text = mergeMapping(text, mapping);
  return { mappings: text === '' ? undefined : text, owned: ownedNext === '' ? undefined : ownedNext, set, removed };
}
