/**
 * Which rows are ours. A row is ours only when its external_ids carry `ovnk.io/owner=<owner>`;
 * a name, a look-alike or upstream's own ids never make a row ours (NB names are not unique, and
 * ACL/NAT/route rows have no natural key at all).
 * Row kinds (like ovn-kubernetes' db_object_ids): a (table, owner type, key list) triple that
 * builds the `ovnk.io/key` id of rows upstream gives no id, so two renderers never produce the
 * same id for different rows. Registering the same kind twice throws.
 */
import { OWNER_KEY, SHARED_OWNER } from '../model/externalIds';

// The keys are spelled once, in model/externalIds.ts (uplink's host plans use them and may not import nb).
export { KEY_KEY, OWNER_KEY, SHARED_OWNER, UPSTREAM_ID_KEY } from '../model/externalIds';

/** Owners already checked: withOwner runs once per row, the check once per owner. */
const checkedOwners = new Set<string>();

/** An owner: the stack or topology that wrote the row. Printable, no `=` or control characters. */
export function checkOwner(owner: string): string {
  if (owner === SHARED_OWNER)
    throw new OwnershipError(`nb: owner ${JSON.stringify(owner)} is reserved: it marks rows several owners share`);
  if (!/^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/.test(owner)) {
    throw new OwnershipError(
      `nb: owner ${JSON.stringify(owner)} is not a valid owner name (letters, digits and . _ : / @ -, starting with a letter or digit)`,
    );
  }
  checkedOwners.add(owner);
  return owner;
}

export class OwnershipError extends Error {
  override name = 'OwnershipError';
}

type ExternalIds = Record<string, unknown> | undefined;

/** True when the row's external_ids carry our marker for exactly this owner. */
export function isOwnedBy(externalIds: ExternalIds, owner: string): boolean {
  return externalIds !== undefined && externalIds[OWNER_KEY] === owner;
}

/** external_ids with our marker added (a copy; upstream's keys are kept for fidelity). */
export function withOwner(externalIds: ExternalIds, owner: string): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const key in externalIds) copy[key] = String(externalIds[key]);
  copy[OWNER_KEY] = checkedOwners.has(owner) ? owner : checkOwner(owner);
  return copy;
}

/** A kind of row and the ordered keys that identify one row of it. */
export interface RowKind {
  table: string;
  ownerType: string;
  keys: readonly string[];
}

export class RowKindRegistry {
  private readonly kinds = new Map<string, RowKind>();

  /** Registers a kind; the same (table, ownerType) twice is a programming error and throws. */
  register(kind: RowKind): RowKind {
    const id = `${kind.table}/${kind.ownerType}`;
    if (this.kinds.has(id)) throw new OwnershipError(`nb: row kind ${id} is registered twice`);
    if (kind.keys.length === 0) throw new OwnershipError(`nb: row kind ${id} has no keys`);
    const frozen = Object.freeze({ ...kind, keys: Object.freeze([...kind.keys]) });
    this.kinds.set(id, frozen);
    return frozen;
  }

  registered(): RowKind[] {
    return [...this.kinds.values()];
  }
}

/** The registry every renderer registers its kinds in, at module load. */
export const rowKinds = new RowKindRegistry();

/**
 * The `ovnk.io/key` value of one row of a kind: `<ownerType>:<v1>:<v2>...` in the kind's key
 * order. Every key must be given and non-empty. `%` and `:` inside values are escaped (`%25`,
 * `%3A`; IPv6 prefixes are common values) so distinct key tuples never give the same id.
 */
export function rowKey(kind: RowKind, values: Record<string, string>): string {
  const parts = kind.keys.map((key) => {
    const value = values[key];
    if (value === undefined || value === '') {
      throw new OwnershipError(`nb: ${kind.table}/${kind.ownerType} key [${key}] is missing`);
    }
    return value.replace(/%/g, '%25').replace(/:/g, '%3A');
  });
  const extra = Object.keys(values).filter((key) => !kind.keys.includes(key));
  if (extra.length > 0)
    throw new OwnershipError(`nb: ${kind.table}/${kind.ownerType} has no key(s) [${extra.join(', ')}]`);
  return [kind.ownerType, ...parts].join(':');
}
