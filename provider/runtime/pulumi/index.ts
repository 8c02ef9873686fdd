/** The dynamic-provider kinds, by the name each `__provider` text (provider/shim.ts) takes. */
import { ClusterAllocations } from './clusterKind';
import { ConnectRouter, NetworkRows, ZoneRows } from './kinds';
import { scopedKind } from './northboundScope';
import { ClusterPrediction } from './predictionKind';
import { UplinkState } from './uplinkKind';

const kinds = { ClusterAllocations, NetworkRows, ConnectRouter, ZoneRows, UplinkState, ClusterPrediction };
/** Each kind with its resources' own Northbound, when they name one (northboundScope.ts). */
export const pulumiKinds = Object.fromEntries(
  Object.entries(kinds).map(([name, kind]) => [name, scopedKind(kind)]),
) as typeof kinds;
export type PulumiKindName = keyof typeof pulumiKinds;
export { SCHEMA_VERSION, UNKNOWN, PartialApplyError, type ResourceKind } from './protocol';
export { SliceError, type PackedSlice } from './pack';
export { catalogRef, type CatalogRef } from './catalog';
export { stateValue, withNetworkSubnets } from './clusterInputs';
export type { ClusterSlices } from './slices';
export type { PredictionAudit, ZoneAuditSummary } from './predictionAudit';
export { outputsOf as pulumiOutputsOf } from './kind';
export {
  networksNaming,
  uplinkStateInputs,
  uplinkStateNodes,
  type UplinkStateInputs,
  type YamlObject,
} from './uplinkInput';
export { uplinkGatewayWarnings } from './uplinkWarnings';
export type { NorthboundInput } from './settings';
export { keyPathFailures, keyPathProblems } from './keyPaths';
export { DEFAULT_LAYOUT, type Layout } from '../../model/zones';
