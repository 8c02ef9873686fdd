/**
 * Problem: the one shape every finding takes, from a wrong field type to an exhausted connect
 * subnet. `reason` is an OKEP reason (ConnectSubnetConflict, ...) or one of the input reasons
 * below; `path` names the object and field, e.g.
 * `ClusterNetworkConnect/colored-enterprise: spec.connectSubnets[0].cidr`.
 */

/** Reasons the OKEP defines for ClusterNetworkConnect (section "Invalid Scenarios"). */
export type ConnectReason =
  | 'ConnectSubnetExhausted'
  | 'OverlappingNetworkSubnets'
  | 'ConnectSubnetConflict'
  | 'ConnectSubnetOverlap'
  | 'IPFamilyMismatch'
  | 'InsufficientNetworks'
  | 'UnsupportedNetworkType'
  /** The CRD's schema and CEL rules, which the apiserver would have refused. */
  | 'InvalidSpec';

/** Reasons for input that cannot be used at all (the CLI's exit 3). */
export type InputReason = 'InvalidField' | 'UnknownKind' | 'DuplicateObject' | 'MissingInventory' | 'InvalidDocument';

/** Cluster-wide allocations that cannot be made (the CLI's exit 1, like connect problems). */
export type AllocationReason =
  | 'IdsExhausted'
  | 'HostSubnetsExhausted'
  | 'HostSubnetConflict'
  | 'TunnelKeysExhausted'
  /** A pinned value another owner of the same Northbound holds (alloc/others.ts). */
  | 'OwnerConflict'
  /** A network's masquerade addresses outside the Inventory's masquerade subnets (topology/masqueradeFit.ts). */
  | 'MasqueradeSubnetTooSmall'
  /** A primary network's join subnet without an address for some node's id (topology/joinFit.ts). */
  | 'JoinSubnetTooSmall';

export type Reason = ConnectReason | InputReason | AllocationReason;

export interface Problem {
  reason: Reason;
  /** One sentence that names the value and says why it is refused. */
  message: string;
  /** `<Kind>/<name>: <field path>`; the field path is empty for whole-object findings. */
  path: string;
  /** The object the problem belongs to, as `<Kind>/<name>` (or `<Kind>/<namespace>/<name>`). */
  object?: string;
}

/** Build a path string from an object reference and a field path. */
export function fieldPath(object: string, field: string): string {
  return field === '' ? object : `${object}: ${field}`;
}

export function problem(reason: Reason, object: string, field: string, message: string): Problem {
  return { reason, message, path: fieldPath(object, field), object };
}
