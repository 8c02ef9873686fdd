/**
 * What the `ovnk` CLI (and the bench, the oracle and the tests) run: plain async functions over
 * plain data and pooled Northbound connections (plan, pure; then per zone apply, diff or destroy),
 * and the shapes of the layers below that the CLI handles as they are. Not a package export: the
 * package's `ovnk-pulumi/runtime` (index.ts) is the dynamic providers' entry only.
 */
export * from './commit';
export { ForeignRowClash } from '../nb/clash';
export { LedgerError } from '../nb/ledger';
export * from './compat';
export * from './connections';
export * from './eachZone';
export { parseSshEndpoint, type SshCredentials, type SshEndpoint } from './tunnel';
export * from './owners';
export * from './plan';
export * from './warnings';
export * from './capacity';
export * from './diagram';
export * from './repair';
export * from './pods';
export * from './state';
export * from './zone';
export * from './inventoryMerge';
export * from './input';
export * from './pulumi';
export * from './kubernetes';
export { MissingPackageError } from './optionalPackage';
export { UpstreamRowsError } from './adoptUpstream';
export * from './readable';
export * from './refusals';
export { dict, own } from '../model/dict';
export { thrown } from '../model/outcome';
export { naturalCompare } from '../model/naturalOrder';
// for the oracle (oracle/), which reaches the pure layers only through the runtime
export { networkPrefix } from '../topology/names';
export { legacyGatewayTunnelId } from '../topology/legacyChecks';
export { advertisesCudnPodNetwork } from '../model/routeAdvertisements';
export { isActiveOn } from '../model/active';
export { clusterWarnings, type Warning } from '../model/warnings';
export * from './cluster';
export * from './audit';
export { findingLine, isDrift, isFailure, type UplinkFinding } from './uplink/findings';
export type { UplinkSection } from './uplink/section';
export { upstreamUplink, upstreamUplinkState } from '../uplink/upstreamShape';
export type { NodeVrfReport } from './vrf/nodes';

// Shapes and checks of the layers below that the runtime's callers (the CLI) handle as they are.
export type { ClusterAllocation } from '../alloc/cluster';
export type { AllocationState } from '../alloc/state';
export type { OtherOwners } from '../alloc/others';
export type { DesiredRow } from '../nb/desired';
export { checkOwner } from '../nb/ownership';
export type { OvsdbDatabase } from '../ovsdb/client';
