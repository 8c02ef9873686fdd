/**
 * Address sets as upstream names them: HashForOVN of their `k8s.ovn.org/id` (address_set.go
 * buildAddressSet, with the `ip-family` key `v4` or `v6`). The external_ids themselves are
 * model/dbObjectIds.ts's.
 */
import type { Family } from '../model/cidr';
import { UPSTREAM_ID_KEY } from '../model/externalIds';
import { hashForOvn } from '../model/hash';
import { row, type DesiredRow } from './rows';

/** The `ip-family` value of address sets. */
export const addressSetFamily = (family: Family): 'v4' | 'v6' => (family === 4 ? 'v4' : 'v6');

/** An Address_Set row named, as upstream names it, by the hash of its id. */
export function addressSetRow(ids: Record<string, string>, addresses: string[]): DesiredRow {
  return row('Address_Set', { name: hashForOvn(ids[UPSTREAM_ID_KEY]!), addresses, external_ids: ids });
}

/** The `$name` an ACL or NAT match uses for an address set with these external_ids. */
export const addressSetRef = (ids: Record<string, string>): string => `$${hashForOvn(ids[UPSTREAM_ID_KEY]!)}`;
