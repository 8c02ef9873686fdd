/**
 * The external_ids keys, spelled once: ours (`ovnk.io/...`: the owner marker and the keys and
 * prefixes the engine keeps beside it) and upstream's (`k8s.ovn.org/...`, ovn-kubernetes'
 * db_object_ids and the keys its controllers put on switches, routers, ports and load balancers).
 * In the model because every layer that writes or reads them may import it: nb (ownership,
 * ledger, shared rows), the renderers, uplink's host plans (which may not import nb) and the
 * runtime. Pure constants.
 */

/** Our owner marker: a row is ours only when its external_ids carry `ovnk.io/owner=<owner>` (nb/ownership.ts). */
export const OWNER_KEY = 'ovnk.io/owner';
/** Our own id, used only for rows upstream has no `k8s.ovn.org/id` for (nb/ownership.ts rowKey). */
export const KEY_KEY = 'ovnk.io/key';
/** The owner marker of rows several owners share (nb/shared.ts): no owner may take this name. */
export const SHARED_OWNER = 'ovnk.io/shared';
/** `ovnk.io/user/<owner>`: one per owner using a shared row (nb/shared.ts). */
export const USER_PREFIX = 'ovnk.io/user/';
/** `ovnk.io/part/<owner>` on a shared row: the values that owner adds to its set column (nb/sharedParts.ts). */
export const PART_PREFIX = 'ovnk.io/part/';
/** `ovnk.io/owned/<owner>` on NB_Global: the ledger of rows without external_ids (nb/ledger.ts). */
export const LEDGER_PREFIX = 'ovnk.io/owned/';
/** `ovnk.io/hung/<owner>` on NB_Global: the crowded tables where rows of ours hang from others' rows (nb/hung.ts). */
export const HUNG_PREFIX = 'ovnk.io/hung/';
/** `ovnk.io/state/<owner>` on NB_Global: the CLI's allocation state (runtime/state.ts). */
export const STATE_KEY_PREFIX = 'ovnk.io/state/';
/** `ovnk.io/catalog/<owner>` on NB_Global: the zone catalog a stack's ZoneRows render (runtime/pulumi/catalog.ts). */
export const CATALOG_KEY_PREFIX = 'ovnk.io/catalog/';
/** `ovnk.io/txn/<owner>` on NB_Global: the commit marker of the last transaction (runtime/commit.ts). */
export const MARKER_PREFIX = 'ovnk.io/txn/';
/** `ovnk.io/bridge-mappings/<owner>` on Open_vSwitch: the physical networks we mapped (uplink/mappings.ts). */
export const BRIDGE_MAPPINGS_PREFIX = 'ovnk.io/bridge-mappings/';
/** `ovnk.io/static-fdb/<owner>` on Open_vSwitch: the static FDB entries we pinned (uplink/staticFdb.ts). */
export const STATIC_FDB_PREFIX = 'ovnk.io/static-fdb/';

/** Upstream's id (db_object_ids): the identity of rows without a name. */
export const UPSTREAM_ID_KEY = 'k8s.ovn.org/id';
export const OWNER_CONTROLLER_KEY = 'k8s.ovn.org/owner-controller';
export const OWNER_TYPE_KEY = 'k8s.ovn.org/owner-type';
export const NAME_KEY = 'k8s.ovn.org/name';
/** The network a row belongs to (upstream's `k8s.ovn.org/network` on switches, routers, ports, load balancers). */
export const NETWORK_KEY = 'k8s.ovn.org/network';
export const TOPOLOGY_KEY = 'k8s.ovn.org/topology';
export const ROLE_KEY = 'k8s.ovn.org/role';
export const NODE_KEY = 'k8s.ovn.org/node';
export const NAD_KEY = 'k8s.ovn.org/nad';
/** A service load balancer's kind (`Service`) and owner (`<namespace>/<name>`). */
export const KIND_KEY = 'k8s.ovn.org/kind';
export const SERVICE_OWNER_KEY = 'k8s.ovn.org/owner';
