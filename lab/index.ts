/** The embedded OVN lab: what the CLI, the tests' global setup and the benchmarks use. */
export { DEFAULT_LAB_NAME, DEFAULT_OVN, down, labAlive, labStatus, up } from './lab';
export type { DownResult, UpOptions, UpResult } from './lab';
export { LabError } from './errors';
export type { LabErrorKind } from './errors';
export { checkLabName, checkNodeCount, checkOvnFlavor, chassisIdOf, nodeName, OVN_FLAVORS } from './layout';
export type { OvnFlavor } from './layout';
export { labsRoot, listLabNames, readState, updateState } from './state';
export type { LabState, PodRecord } from './state';
export { statusOf } from './status';
export type { LabNodeStatus, LabSshSettings, LabStatus } from './status';
export { CENTRAL_ZONE, inventoryOf } from './inventory';
export type { LabInventoryDocument } from './inventory';
export { addPod, removePod } from './pods';
export type { PodSpec } from './pods';
