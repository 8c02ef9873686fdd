/** The optional QEMU guest lab nodes (a real kernel for VRF): what the CLI and the vm tests use. */
export { vmDown, vmStatus, vmStatusOf, vmTarget, vmUp, vmNodeName } from './lab';
export type { VmLabStatus, VmNodeStatus, VmUpOptions } from './lab';
export { checkVmLabName, checkVmNodeCount, DEFAULT_VM_LAB, readVmState } from './state';
export type { VmLabState, VmNodeRecord } from './state';
export { ensureImage, vmCacheDir } from './image';
