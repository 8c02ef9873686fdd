/** The embedded OVN lab: what the CLI, the tests' global setup and the benchmarks use. */
export { DEFAULT_LAB_NAME, DEFAULT_OVN, DEFAULT_ZONES, down, labAlive, labStatus, up } from './lab';
export type { DownResult, UpOptions, UpResult } from './lab';
export { LabError } from './errors';
export type { LabErrorKind } from './errors';
export {
  checkLabName,
  checkNodeCount,
  checkOvnFlavor,
  checkZoneLayout,
  chassisIdOf,
  nodeName,
  OVN_FLAVORS,
} from './layout';
export type { OvnFlavor, ZoneLayout } from './layout';
export { labsRoot, listLabNames, readState, updateState } from './state';
export type { LabState, PodRecord } from './state';
export { CENTRAL_ZONE, statusOf } from './status';
export type { CentralLabStatus, LabNodeStatus, LabSshSettings, LabStatus, LabZoneStatus } from './status';
export { inventoryOf } from './inventory';
export { checkNbMembers, MAX_NB_MEMBERS } from './nbCluster';
export { daemonHealth, restartDead } from './restart';
export type { DaemonHealth, RestartResult } from './restart';
export type { LabInventoryDocument } from './inventory';
export { addPod, movePod, removePod } from './pods';
export type { PodSpec } from './pods';
export { nbctl, ovnTool, sbctl } from './ovnTools';
export type { OvnToolsTarget } from './ovnTools';
export { pingOnce, pingWithRetries } from './ping';
export { labActivity, labOfNamespace, nbctlWhileLabWorks, syncChassis } from './settle';
export type { PingRetries } from './ping';
