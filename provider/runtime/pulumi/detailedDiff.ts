/**
 * Preview diffs in words: which network, connect, node or zone a change touches, and whether it
 * replaces the resource, as the engine's `detailedDiff` (keys `networks[blue-network]`,
 * `connects[colored]`, `nodes[node-3]`, `zones[node-3]`). Objects are matched by name, so a
 * reordered list is no change; values compare as canonical JSON (model/canonical.ts). A slice is
 * unpacked only when its digest differs, and compared part by part.
 */
import { createHash } from 'node:crypto';
import { canonicalJson, sameJson } from '../../model/canonical';
import { dict } from '../../model/dict';
import { isPacked, sliceDigest, unpack } from './pack';
import { containsUnknown, type DetailedDiff, type PropertyDiff, type PropertyDiffKind, type Props } from './protocol';

const entry = (kind: 'add' | 'delete' | 'update', replace: boolean): PropertyDiff => ({
  kind: replace ? (`${kind}Replace` as PropertyDiffKind) : kind,
  inputDiff: true,
});

/** `prefix[name]` per name added, deleted or changed between two name-keyed records. */
export function keyedDiff(
  prefix: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  replace = false,
): DetailedDiff {
  const out: DetailedDiff = dict();
  for (const name of new Set([...Object.keys(olds), ...Object.keys(news)])) {
    const [a, b] = [olds[name], news[name]];
    if (a === undefined) out[`${prefix}[${name}]`] = entry('add', replace);
    else if (b === undefined) out[`${prefix}[${name}]`] = entry('delete', replace);
    else if (!sameJson(a, b)) out[`${prefix}[${name}]`] = entry('update', replace);
  }
  return out;
}

/** A list of objects keyed by `keyOf` (a list that is not one counts as empty). */
export function byName<T>(list: unknown, keyOf: (item: T) => string): Record<string, T> {
  return dict((Array.isArray(list) ? (list as T[]) : []).map((item) => [keyOf(item), item]));
}

/** A top-level input that changed, as one entry (`replace` when it replaces the resource). */
export function fieldDiff(olds: Props, news: Props, key: string, replace = false): DetailedDiff {
  if (news[key] === undefined) return {};
  if (!containsUnknown(news[key]) && sameJson(olds[key], news[key])) return {};
  return { [key]: entry(olds[key] === undefined ? 'add' : 'update', replace) };
}

/** A slice's named parts as digests: what a catalog reference carries (catalog.ts); `whole` prefixes as one digest. */
export type PartDigests = Record<string, string | Record<string, string>>;

const shortDigest = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16);

export function partDigests(parts: Record<string, Record<string, unknown>>, whole: string[] = []): PartDigests {
  return dict(
    Object.entries(parts).map(([prefix, named]) => [
      prefix,
      whole.includes(prefix)
        ? shortDigest(named)
        : dict(Object.entries(named).map(([name, value]) => [name, shortDigest(value)])),
    ]),
  );
}

const digestsOf = (value: unknown): PartDigests | undefined =>
  ((value as { summary?: { parts?: PartDigests } } | null)?.summary?.parts ?? undefined) as PartDigests | undefined;

/** The parts of two slices: unpacked when both hold their data, else the digests both carry; undefined when neither. */
function partsOfBoth(
  a: unknown,
  b: unknown,
  key: string,
  parts: (slice: Record<string, unknown>) => Record<string, Record<string, unknown>>,
):
  | [PartDigests | Record<string, Record<string, unknown>>, PartDigests | Record<string, Record<string, unknown>>]
  | undefined {
  const [da, db] = [digestsOf(a), digestsOf(b)];
  if (!isPacked(a) || !isPacked(b)) return da && db ? [da, db] : undefined;
  try {
    return [parts(unpack(a, key)), parts(unpack(b, key))];
  } catch {
    return undefined;
  }
}

/**
 * A slice's parts that changed, named by `parts` (slice -> prefix -> name-keyed record) or by the
 * part digests both sides carry; the slice as one entry when either side cannot be read or the
 * new one is not known yet.
 */
export function sliceDiff(
  olds: Props,
  news: Props,
  key: string,
  parts: (slice: Record<string, unknown>) => Record<string, Record<string, unknown>>,
): DetailedDiff {
  const [a, b] = [olds[key], news[key]];
  if (containsUnknown(b)) return { [key]: entry('update', false) };
  if (sliceDigest(a) !== undefined && sliceDigest(a) === sliceDigest(b)) return {};
  const both = partsOfBoth(a, b, key, parts);
  if (!both) return isPacked(a) && isPacked(b) ? { [key]: entry('update', false) } : fieldDiff(olds, news, key);
  const [before, after] = both;
  const out: DetailedDiff = dict();
  for (const prefix of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [x, y] = [before[prefix], after[prefix]];
    if (typeof x === 'string' || typeof y === 'string') {
      if (x !== y) out[prefix] = entry(x === undefined ? 'add' : 'update', false);
    } else Object.assign(out, keyedDiff(prefix, x ?? {}, y ?? {}));
  }
  // what differs but no named part holds (a digest of the same parts, another field): the slice itself
  return Object.keys(out).length > 0 ? out : { [key]: entry('update', false) };
}

type Named = { name: string };
type Meta = { kind?: string; metadata?: { name?: string; namespace?: string } };
const nameOf = (n: Named) => n.name;

/** A network's key as the components key it (networkKey): a CUDN's name, a UDN's `namespace/name`. */
const networkKeyOf = (o: Meta) =>
  o.kind === 'UserDefinedNetwork' ? `${o.metadata?.namespace}/${o.metadata?.name}` : String(o.metadata?.name);

/** A list input compared object by object (`networks[blue-network]`); unknown at preview: the list as one entry. */
function listDiff<T>(olds: Props, news: Props, key: string, keyOf: (item: T) => string): DetailedDiff {
  if (news[key] === undefined) return {};
  if (containsUnknown(news[key])) return { [key]: entry('update', false) };
  return keyedDiff(key, byName(olds[key], keyOf), byName(news[key], keyOf));
}

/** The Inventory's nodes one by one (`nodes[node-3]`), the rest of it as `inventory`. */
function inventoryDiff(olds: Props, news: Props): DetailedDiff {
  if (news.inventory === undefined) return {};
  if (containsUnknown(news.inventory)) return { inventory: entry('update', false) };
  const split = (inventory: unknown) => {
    const { spec, ...rest } = (inventory ?? {}) as { spec?: { nodes?: unknown } };
    const { nodes, ...others } = spec ?? {};
    return { nodes: byName<Meta & Named>(nodes, nameOf), rest: { ...rest, spec: others } };
  };
  const [a, b] = [split(olds.inventory), split(news.inventory)];
  return {
    ...keyedDiff('nodes', a.nodes, b.nodes),
    ...(sameJson(a.rest, b.rest) ? {} : { inventory: entry('update', false) }),
  };
}

/** The zones of the per-node layout that come and go (`zones[node-3]`: a node's Northbound). */
function zonesDiff(olds: Props, news: Props): DetailedDiff {
  const zones = (props: Props) => (props.allocations as { zones?: unknown } | undefined)?.zones;
  const [a, b] = [zones(olds), zones(news)];
  if (!Array.isArray(a) || !Array.isArray(b)) return {};
  const set = (list: unknown[]) => dict(list.map((z) => [String(z), true]));
  return keyedDiff('zones', set(a), set(b));
}

/** ClusterAllocations' and ClusterPrediction's diff in words: the objects, the nodes, the zones. */
export function topologyDiff(olds: Props, news: Props): DetailedDiff {
  return {
    ...fieldDiff(olds, news, 'owner', true),
    ...listDiff(olds, news, 'networks', networkKeyOf),
    ...listDiff<Meta>(olds, news, 'connects', (c) => String(c.metadata?.name)),
    ...listDiff<Meta>(olds, news, 'routeAdvertisements', (r) => String(r.metadata?.name)),
    ...inventoryDiff(olds, news),
    ...zonesDiff(olds, news),
  };
}

type Slice = Record<string, unknown>;
const nodesOf = (slice: Slice, ...lists: string[]) => {
  const named = lists.map((l) => byName<Named>(slice[l], nameOf));
  const names = new Set(named.flatMap((n) => Object.keys(n)));
  return dict([...names].map((n) => [n, named.map((x) => x[n])]));
};

/** The named parts of each kind's slice (runtime/pulumi/slices.ts). */
export const sliceParts = {
  network: (s: Slice) => ({
    networks: dict([[String((s.network as Named).name), { network: s.network, pods: s.pods, sources: s.sources }]]),
    nodes: nodesOf(s, 'nodes'),
    cluster: { settings: s.cluster },
  }),
  connect: (s: Slice) => ({
    connects: dict([[String((s.connect as Named).name), s.connect]]),
    nodes: nodesOf(s, 'nodes'),
  }),
  zone: (s: Slice) => ({
    networks: byName<{ network: Named }>(s.networks, (p) => p.network.name),
    connects: byName<Named>(s.connects, nameOf),
    nodes: nodesOf(s, 'nodes', 'connectNodes'),
    cluster: { settings: s.cluster, services: s.sources },
  }),
};

/** Every entry as a replacement when the resource is replaced (what the preview must say of each). */
export function asReplacement(diff: DetailedDiff, replaced: boolean): DetailedDiff {
  if (!replaced) return diff;
  const kinds = { add: 'addReplace', delete: 'deleteReplace', update: 'updateReplace' } as const;
  return dict(
    Object.entries(diff).map(([k, d]) => [
      k,
      { ...d, kind: (kinds as Record<string, PropertyDiffKind>)[d.kind] ?? d.kind },
    ]),
  );
}

/** The drift found by the last refresh and a state written by an older runtime: rewritten by the update. */
export function upkeepDiff(olds: Props, driftCount: number, schemaVersion: number): DetailedDiff {
  return {
    ...(driftCount > 0 ? { drift: entry('update', false) } : {}),
    ...(olds.schemaVersion !== schemaVersion ? { schemaVersion: entry('update', false) } : {}),
  };
}
