/**
 * Shared rows: rows several owners need and none owns alone (OVN_Northbound's Copp
 * `ovnkube-default` and its meters, which every network's routers and ACLs name; the cluster's
 * address sets, port group and ACL of advertised networks, topology/advertised.ts). A desired row
 * with `shared: true` is written with `ovnk.io/owner=ovnk.io/shared` and one key
 * `ovnk.io/user/<owner>=true` per owner that wants it. An owner claims the row by adding its key
 * (creating the row when there is none), releases it by removing its key when it no longer wants
 * it, and deletes it only when no other owner's key is left. Every change rewrites external_ids
 * under a `wait` on the value read, so a claim and a deletion racing each other cannot both
 * commit. Shared rows live only in the tables the database lists here, so a destroy (no desired
 * rows) knows where to look. A set column several owners add to keeps each one's part
 * (sharedParts.ts). Pure.
 */
import { USER_PREFIX } from '../model/externalIds';
import { OWNER_KEY, SHARED_OWNER } from './ownership';
import { partKey } from './sharedParts';

export { SHARED_OWNER };

const SHARED_TABLES: Readonly<Record<string, readonly string[]>> = {
  OVN_Northbound: ['Copp', 'Meter', 'Meter_Band', 'Address_Set', 'Port_Group', 'ACL'],
};

/** The tables of `database` that may hold shared rows. */
export function sharedTables(database: string): readonly string[] {
  return SHARED_TABLES[database] ?? [];
}

export const userKey = (owner: string): string => `${USER_PREFIX}${owner}`;

type ExternalIds = Record<string, unknown> | undefined;

export function isSharedRow(externalIds: ExternalIds): boolean {
  return externalIds !== undefined && externalIds[OWNER_KEY] === SHARED_OWNER;
}

/** The owners whose keys a shared row carries, sorted. */
export function usersOf(externalIds: ExternalIds): string[] {
  return Object.keys(externalIds ?? {})
    .filter((key) => key.startsWith(USER_PREFIX))
    .map((key) => key.slice(USER_PREFIX.length))
    .sort();
}

/** A shared row of `owner`'s: it carries the shared marker and the owner's key. */
export function isUsedBy(externalIds: ExternalIds, owner: string): boolean {
  return isSharedRow(externalIds) && externalIds![userKey(owner)] === 'true';
}

/**
 * The external_ids a shared row should have when `owner` wants it: the desired keys, every other
 * user's key as observed, the shared marker and the owner's key. (A row observed with the owner's
 * own plain marker, written before rows were shared, becomes shared this way.)
 */
export function claimedIds(desired: ExternalIds, observed: ExternalIds, owner: string): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const key in desired) ids[key] = String(desired[key]);
  if (isSharedRow(observed))
    for (const user of usersOf(observed)) {
      ids[userKey(user)] = 'true';
      const part = observed![partKey(user)];
      if (part !== undefined) ids[partKey(user)] = String(part);
    }
  ids[OWNER_KEY] = SHARED_OWNER;
  ids[userKey(owner)] = 'true';
  return ids;
}

/** The external_ids of a shared row `owner` no longer wants, or undefined when no user is left (delete it). */
export function releasedIds(observed: ExternalIds, owner: string): Record<string, string> | undefined {
  if (!isSharedRow(observed) || usersOf(observed).every((user) => user === owner)) return undefined;
  const ids: Record<string, string> = {};
  for (const key in observed) if (key !== userKey(owner) && key !== partKey(owner)) ids[key] = String(observed[key]);
  return ids;
}
