/**
 * The desired-row format: THE contract between the renderers (topology, connect, uplink) and the
 * reconcile engine. Renderers are pure and produce `DesiredRow[]` for one owner; reconcile.ts
 * turns them and the observed rows into one transaction.
 *
 * A desired row names its table and the columns it manages, in plain values (provider/ovsdb/codec.ts):
 *   - atoms as JS strings, numbers and booleans; an optional column (min 0, max 1) as its atom or
 *     `undefined`; a set as an array (order does not matter); a map as a plain object;
 *   - a reference to another row as that row's IDENTITY STRING (below), or an array of them.
 *     It resolves to a row of this desired set, or else to an observed foreign row (the Copp
 *     "ovnkube-default", a load balancer someone else made); unresolved references are errors.
 * Only the columns a row names are managed: columns it leaves out (northd's `up`, `status`...) are
 * never touched. external_ids always gets our `ovnk.io/owner` marker added.
 * Reference-set columns (ports, policies, static_routes, acls, load_balancer...) are changed with
 * `mutate` insert/delete of our own rows only, never overwritten, because they may hold others' rows.
 *
 * Identity (unique per table within one owner's desired set):
 *   0. for a table in INDEX_IDENTITY (tables without external_ids, owned through the ledger,
 *      ledger.ts): its unique index's columns joined with `/` (Static_MAC_Binding:
 *      `<logical_port>/<ip>`); Load_Balancer_Group's index is [name], so rule 1 serves it;
 *   1. the `name` column, when the table has one and it is non-empty (Logical_Router_Port, ...);
 *   2. else external_ids["k8s.ovn.org/id"] (upstream's db_object_ids id: ACLs, policies, ...);
 *   3. else external_ids["ovnk.io/key"] (renderers add it only where upstream has no id; build it
 *      with ownership.ts `rowKey` so kinds never collide).
 * Names are identity only among OUR rows: a foreign row with the same name is never ours.
 *
 * Non-root rows (ports, routes, policies, ACLs, NAT) are garbage-collected by the server unless a
 * row references them in the same transaction, so each needs a parent: either a desired row that
 * lists it in a reference column, or `parents`, naming rows (desired or of other owners) whose
 * column should hold it. One row may have several parents (a shared ACL on three switches, a
 * load-balancer group on every local switch: weak references use the same mechanism). A parent
 * in the desired set gets the row written into its column; a foreign parent gets a guarded
 * `mutate`, and a foreign row that held it and is no longer a parent gets it removed.
 */
import { KEY_KEY, UPSTREAM_ID_KEY } from './ownership';

/** A row (by table and identity) whose reference-set `column` should hold the child. */
export interface ParentRef {
  table: string;
  identity: string;
  column: string;
}

export interface DesiredRow {
  /** NB (or Open_vSwitch) table name. */
  table: string;
  /** Managed columns by name; references as identity strings (see the header). */
  columns: Record<string, unknown>;
  /** Rows whose reference column should hold this one (see the header). */
  parents?: ParentRef[];
  /** A row several owners use (shared.ts): claimed and released by each, deleted with its last user. */
  shared?: boolean;
}

/** Identity rule 0: tables without external_ids, identified by their unique index's columns. */
export const INDEX_IDENTITY: Readonly<Record<string, readonly string[]>> = {
  Static_MAC_Binding: ['logical_port', 'ip'],
};

/** A row as observed on the server, decoded to plain values (references are `{ uuid }`). */
export interface ObservedRow {
  table: string;
  uuid: string;
  columns: Record<string, unknown>;
}

/** The identity of a row (see the header), or undefined when it has none. */
export function rowIdentity(table: string, columns: Record<string, unknown>): string | undefined {
  const index = INDEX_IDENTITY[table];
  if (index !== undefined) {
    const parts = index.map((column) => columns[column]);
    return parts.every((part) => typeof part === 'string' && part !== '') ? parts.join('/') : undefined;
  }
  const name = columns.name;
  if (typeof name === 'string' && name !== '') return name;
  const externalIds = columns.external_ids;
  if (externalIds !== null && typeof externalIds === 'object' && !Array.isArray(externalIds)) {
    const ids = externalIds as Record<string, unknown>;
    for (const key of [UPSTREAM_ID_KEY, KEY_KEY]) {
      const id = ids[key];
      if (typeof id === 'string' && id !== '') return id;
    }
  }
  return undefined;
}

const desiredIdentities = new WeakMap<DesiredRow, string | undefined>();

/**
 * A desired row's identity, computed once per row object: the zones of a per-node plan share
 * most of their rows (topology/remoteRows.ts), and a zone asks each row's identity several times.
 * Desired rows are never changed after rendering (topology/renderMemo.ts).
 */
export function desiredIdentity(row: DesiredRow): string | undefined {
  if (desiredIdentities.has(row)) return desiredIdentities.get(row);
  const identity = rowIdentity(row.table, row.columns);
  desiredIdentities.set(row, identity);
  return identity;
}

/** `Logical_Router "cr-blue"`: how rows are named in errors and summaries. */
export function describeRow(table: string, identity: string | undefined): string {
  return identity === undefined ? table : `${table} ${JSON.stringify(identity)}`;
}
