/**
 * The allocation state: versioned JSON holding everything the next plan needs to hand out the
 * same numbers again (ids, host subnets and connect subnets with their next-fit cursors, tunnel
 * keys with the round-robin cursor). Pulumi keeps it in the stack; the CLI in
 * NB_Global.external_ids or a `--previous` file.
 */
import { deeperThan, dict, plainData } from '../model/dict';
import { failure, type Outcome, success } from '../model/outcome';
import type { ConnectAllocatorState } from './connectSubnets';
import type { KeyState } from './datapathKeys';
import type { AllocatorState } from './subnetAllocator';

export const stateVersion = 1;

/** A plan document nests about ten levels; deeper input is refused before anything recurses. */
const maxStateDepth = 64;

export interface ConnectState extends ConnectAllocatorState {
  /** The connect subnets the allocator was built from (upstream: immutable). */
  connectSubnets: { cidr: string; networkPrefix: number }[];
}

export interface AllocationState {
  version: typeof stateVersion;
  networkIds: Record<string, number>;
  nodeIds: Record<string, number>;
  /** Per OVN network name: the host-subnet allocator, owners are node names. */
  hostSubnets: Record<string, AllocatorState>;
  tunnelKeys: KeyState;
  connects: Record<string, ConnectState>;
}

export function emptyState(): AllocationState {
  return {
    version: stateVersion,
    networkIds: dict(),
    nodeIds: dict(),
    hostSubnets: dict(),
    tunnelKeys: { next: 16715779, keys: dict() },
    connects: dict(),
  };
}

/**
 * Accept a state, or a whole plan document that has one under `state`. A failure says what is
 * wrong (the caller reports it as unusable input).
 */
export function readState(value: unknown): Outcome<AllocationState> {
  if (deeperThan(value, maxStateDepth)) return failure(`nests objects more than ${maxStateDepth} levels deep`);
  const plain = plainData(value);
  const candidate = isRecord(plain) && isRecord(plain.state) ? plain.state : plain;
  if (!isRecord(candidate))
    return failure('is not a JSON object (expected an `ovnk plan -o json` document or its "state")');
  if (candidate.version !== stateVersion)
    return failure(`has state version ${JSON.stringify(candidate.version)}; this ovnk reads version ${stateVersion}`);
  for (const key of ['networkIds', 'nodeIds', 'hostSubnets', 'tunnelKeys', 'connects']) {
    if (!isRecord(candidate[key])) return failure(`has no "${key}" object in its state`);
  }
  return success(candidate as unknown as AllocationState);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
