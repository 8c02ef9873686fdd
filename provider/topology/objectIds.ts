/**
 * Upstream's DbObjectIDs (libovsdb/ops/db_object_ids.go): the external_ids of a row upstream
 * identifies by owner controller, owner type and its keys, and the `k8s.ovn.org/id` joining them
 * in the keys' declared order; an address set's name is HashForOVN of that id
 * (address_set.go buildAddressSet, with the `ip-family` key `v4` or `v6`).
 */
import type { Family } from '../model/cidr';
import { hashForOvn } from '../model/hash';
import { OWNER_CONTROLLER_KEY, OWNER_TYPE_KEY, UPSTREAM_ID_KEY } from '../model/externalIds';
import { row, type DesiredRow } from './rows';

/** Owner keys, the object's keys (in upstream's declared order), and the id joining them. */
export function objectIds(controller: string, ownerType: string, keys: [string, string][]): Record<string, string> {
  const ids: Record<string, string> = {
    [OWNER_CONTROLLER_KEY]: controller,
    [OWNER_TYPE_KEY]: ownerType,
  };
  for (const [key, value] of keys) ids[key] = value;
  ids[UPSTREAM_ID_KEY] = [controller, ownerType, ...keys.map(([, v]) => v)].join(':');
  return ids;
}

/** The `ip-family` value of address sets. */
export const addressSetFamily = (family: Family): 'v4' | 'v6' => (family === 4 ? 'v4' : 'v6');

/** An Address_Set row named, as upstream names it, by the hash of its id. */
export function addressSetRow(ids: Record<string, string>, addresses: string[]): DesiredRow {
  return row('Address_Set', { name: hashForOvn(ids[UPSTREAM_ID_KEY]!), addresses, external_ids: ids });
}

/** The `$name` an ACL or NAT match uses for an address set with these external_ids. */
export const addressSetRef = (ids: Record<string, string>): string => `$${hashForOvn(ids[UPSTREAM_ID_KEY]!)}`;
