/**
 * CUDN `spec.uplinks` is immutable upstream (`uplinks is immutable`, a CEL transition rule): a
 * change means deleting and recreating the CUDN. We keep each CUDN's uplinks in the stored state
 * and report a change as a replacement instead of refusing it: the old Uplink's per-node artifacts
 * (bridge mapping, VRF membership) are released and the new one's made in the same apply, and the
 * network's rows follow (the localnet port's bridge). Adding or removing the field counts too:
 * upstream's schema does not block it, but its controllers rebuild the network for it. Pure.
 */
import { uplinksOf } from '../model/cudn';
import { dict, own } from '../model/dict';
import type { Network } from '../model/network';
import { uplinksReplaced } from './validate';

export interface UplinkReplacement {
  /** OVN network name. */
  network: string;
  from: string[];
  to: string[];
  message: string;
}

/** What the state keeps: every CUDN's uplinks (`[]` for none, so a later addition is seen), by OVN network name. */
export function uplinksState(networks: readonly Network[]): Record<string, string[]> {
  return dict(
    networks.filter((n) => n.kind === 'ClusterUserDefinedNetwork').map((n) => [n.name, [...(uplinksOf(n) ?? [])]]),
  );
}

/** CUDNs present before and now whose uplinks differ. A network new or gone is no replacement. */
export function uplinkReplacements(
  previous: Readonly<Record<string, string[]>> | undefined,
  networks: readonly Network[],
): UplinkReplacement[] {
  if (!previous) return [];
  return networks.flatMap((n) => {
    if (n.kind !== 'ClusterUserDefinedNetwork') return [];
    const before = own(previous, n.name);
    const now = uplinksOf(n) ?? [];
    if (before === undefined || !uplinksReplaced(before, now)) return [];
    const show = (list: readonly string[] | undefined) => (list && list.length > 0 ? `[${list.join(', ')}]` : 'none');
    const message = `${n.ref}: spec.uplinks changed from ${show(before)} to ${show(now)}; upstream refuses this update (uplinks is immutable) and needs the CUDN recreated, so this is a replacement: the old Uplink's bridge mappings and VRF memberships are released and the new ones made`;
    return [{ network: n.name, from: before ?? [], to: [...now], message }];
  });
}
