/** VRF membership of Uplink host interfaces on a node, through its HostRunner. */
export { applyVrf, planVrfOnHost } from './apply';
export type { VrfApplyResult } from './apply';
export { managementInterface, observeVrfHost } from './observe';
export { VrfHostError } from './errors';
export { vrfOnNodes } from './nodes';
export type { NodeVrfReport, VrfRun } from './nodes';
