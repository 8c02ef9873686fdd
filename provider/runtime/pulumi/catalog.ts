/**
 * The zone catalog by reference (issue 30 point 5). A per-node zone renders every network's
 * remote ports and routes, so what it renders from (ClusterAllocations' `slices.zone`) grows with
 * the nodes; carried by each of the N ZoneRows, the stack's state grew with N squared. Instead
 * ClusterAllocations publishes the packed catalog once per zone, beside its allocation state, in
 * `NB_Global.external_ids["ovnk.io/catalog/<owner>"]` (written in the same transaction as its
 * shared rows, removed by its delete), and each ZoneRows carries a reference: the catalog's
 * summary, its digest and the publishing owner. Diff compares digests as before; create, update
 * and read fetch the catalog from the zone's own Northbound and refuse one whose digest is not
 * the reference's. A ZoneRows state of the earlier shape (the packed slice with its data) is
 * rendered from that data, and its digest is the same, so such a stack previews no change.
 */
import { CATALOG_KEY_PREFIX } from '../../model/externalIds';
import { writeHomeKey, type KeyWrite } from '../../nb/homeKey';
import { NB_DATABASE } from '../connections';
import { selectGlobal } from '../state';
import { isPacked, type PackedSlice, SliceError, unpack } from './pack';
import { zoneDatabase } from './zoneDatabase';

/** What a ZoneRows carries of the zone catalog: no data, the publishing owner instead. */
export interface CatalogRef {
  summary: Record<string, unknown>;
  digest: string;
  /** ClusterAllocations' owner: the catalog is `ovnk.io/catalog/<owner>` in each zone's Northbound. */
  owner: string;
}

export const catalogKey = (owner: string): string => `${CATALOG_KEY_PREFIX}${owner}`;

/** The zone's published catalog is missing or not the referenced one: drift ClusterAllocations' next write repairs. */
export class CatalogError extends SliceError {
  override name = 'CatalogError';
}

export function isCatalogRef(value: unknown): value is CatalogRef {
  const v = value as Partial<CatalogRef> | null;
  return v !== null && typeof v === 'object' && typeof v.digest === 'string' && typeof v.owner === 'string';
}

/** The reference to a packed catalog published by `owner`. */
export function catalogRef(catalog: PackedSlice, owner: string): CatalogRef {
  return { summary: catalog.summary, digest: catalog.digest, owner };
}

/** Sets (text) or removes (undefined) the owner's catalog key, guarded as every home key (nb/homeKey.ts). */
export function catalogWrite(
  owner: string,
  before: string | undefined,
  text: string | undefined,
  hasGlobal: boolean,
): KeyWrite {
  return writeHomeKey({ table: 'NB_Global', column: 'external_ids' }, catalogKey(owner), before, text, hasGlobal);
}

/**
 * The slice `value` names: its own data (a packed slice), or the catalog its reference names,
 * read from `zone`'s Northbound and checked against the reference's digest.
 */
export async function sliceOf<T>(value: unknown, zone: string): Promise<T> {
  if (isPacked(value) || !isCatalogRef(value)) return unpack<T>(value);
  const key = catalogKey(value.owner);
  const [global] = await (await zoneDatabase(zone)).transact(NB_DATABASE, [selectGlobal()]);
  const data = ((global!.rows?.[0]?.external_ids ?? {}) as Record<string, string>)[key];
  const where = `NB_Global.external_ids["${key}"] of zone ${zone}`;
  // ClusterAllocations' read reports the same as drift, so the next update publishes it first
  const repair = 'ClusterAllocations publishes it on create and update (`pulumi refresh`, then `pulumi up`)';
  if (data === undefined) throw new CatalogError('slice', `${where} is missing: ${repair}`);
  try {
    return unpack<T>({ summary: value.summary, digest: value.digest, data });
  } catch (error) {
    throw new CatalogError('slice', `${where} is not the catalog this resource was planned with: ${repair}`);
  }
}
