/**
 * What ClusterAllocations' inputs carry, kept small (issue 30 point 5): the engine sends its
 * inputs in every Check and Diff request and reply as a protobuf Struct, whose cost grows with
 * the number of values, and stores them twice (inputs and outputs). The host subnets of every
 * node were there three times (the summary, each network's entry of it, the allocation state),
 * and both layouts' slices were there in either layout. Now:
 * - the summary holds the host subnets once (`hostSubnets`); each network's entry has none (the
 *   Cluster component puts them back: withNetworkSubnets);
 * - the allocation state (what the next check allocates against) is packed: one compressed
 *   string (pack.ts), compared by the digest of its canonical JSON;
 * - the slices are the layout's only (central: networks and connects; per-node: the zone).
 * A stack written with the earlier shapes plans no change: diff compares what they hold, not
 * their shape (comparableAllocations, stateDigest, layoutSliceDigests).
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../model/canonical';
import { dict } from '../../model/dict';
import { DEFAULT_LAYOUT, type Layout } from '../../model/zones';
import type { RuntimeState } from '../state';
import { isPacked, pack, type PackedSlice, sliceDigest, unpack } from './pack';
import type { Props } from './protocol';
import type { ClusterSlices } from './slices';

type NetworkEntry = { name: string; hostSubnets?: Record<string, string[]> };
type Summary = { hostSubnets?: Record<string, unknown>; networks?: Record<string, NetworkEntry> };

/** The summary without each network's copy of its host subnets. */
export function comparableAllocations(allocations: unknown): unknown {
  const summary = allocations as Summary | undefined;
  if (!summary || typeof summary !== 'object' || !summary.networks) return allocations;
  const networks = dict(
    Object.entries(summary.networks).map(([ref, { hostSubnets: _copy, ...entry }]) => [ref, entry]),
  );
  return { ...summary, networks };
}

/** Each network's entry with its host subnets, from the summary's `hostSubnets` (when it has none). */
export function withNetworkSubnets<T>(allocations: T): T {
  const summary = allocations as Summary | undefined;
  if (!summary?.networks) return allocations;
  const all = (summary.hostSubnets ?? {}) as Record<string, Record<string, string[]>>;
  const networks = dict(
    Object.entries(summary.networks).map(([ref, entry]) => [
      ref,
      { ...entry, hostSubnets: entry.hostSubnets ?? all[entry.name] ?? {} },
    ]),
  );
  return { ...summary, networks } as T;
}

export function packState(state: RuntimeState): PackedSlice {
  return pack(state, { version: state.version });
}

/** The allocation state as stored: packed, or (a state of the earlier shape) the object itself. */
export function stateValue(stored: unknown): unknown {
  return isPacked(stored) ? unpack(stored, 'state') : stored;
}

/** What diff compares of the state: the digest of its canonical JSON, packed or not. */
export function stateDigest(stored: unknown): string | undefined {
  if (stored === undefined || stored === null) return undefined;
  return isPacked(stored) ? stored.digest : createHash('sha256').update(canonicalJson(stored)).digest('hex');
}

export function layoutOf(props: Props): Layout {
  return ((props.inventory as { spec?: { zones?: Layout } } | undefined)?.spec?.zones ?? DEFAULT_LAYOUT) as Layout;
}

/** The digests of the slices the layout uses: equal content is no change, whatever bytes brotli produced. */
export function layoutSliceDigests(slices: unknown, layout: Layout): unknown {
  const s = (slices ?? {}) as Partial<ClusterSlices>;
  if (layout === 'per-node') return { zone: sliceDigest(s.zone) };
  const digests = (r: Record<string, unknown> = {}) => dict(Object.entries(r).map(([k, v]) => [k, sliceDigest(v)]));
  return { networks: digests(s.networks), connects: digests(s.connects) };
}
