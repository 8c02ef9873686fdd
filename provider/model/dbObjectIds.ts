/**
 * Upstream's DbObjectIDs (libovsdb/ops/db_object_ids.go): the external_ids of a row upstream
 * identifies by owner controller, owner type and the keys its type declares, and the
 * `k8s.ovn.org/id` joining them (`<controller>:<owner type>:<values in declared order>`). Every
 * renderer builds them here (networks, connects, management ports, address sets), so the keys
 * always come in one order: owner controller, owner type, the object's keys, the id.
 */
import { OWNER_CONTROLLER_KEY, OWNER_TYPE_KEY, UPSTREAM_ID_KEY } from './externalIds';

/** The owner keys and the object's keys, without the id (rows whose name is their identity). */
export function ownerIds(
  controller: string,
  ownerType: string,
  keys: readonly [string, string][],
): Record<string, string> {
  const ids: Record<string, string> = { [OWNER_CONTROLLER_KEY]: controller, [OWNER_TYPE_KEY]: ownerType };
  for (const [key, value] of keys) ids[key] = value;
  return ids;
}

/**
 * Owner keys, the object's keys (in upstream's declared order), and the id joining them.
 * `idSuffix` is our one naming extension (ARCHITECTURE): `:<node>` on an id with no node in it
 * when the central layout renders that row once per node.
 */
export function objectIds(
  controller: string,
  ownerType: string,
  keys: readonly [string, string][],
  idSuffix?: string,
): Record<string, string> {
  const ids = ownerIds(controller, ownerType, keys);
  // join gives one flat string; `+=` would keep a rope of its parts alive in every row (twice the heap)
  const parts = [controller, ownerType, ...keys.map(([, value]) => value)];
  if (idSuffix !== undefined) parts.push(idSuffix);
  ids[UPSTREAM_ID_KEY] = parts.join(':');
  return ids;
}
