/**
 * The pure topology renderer for primary Layer3 and Layer2 user-defined networks: names, MAC
 * and address derivation, transit subnets, pod addresses, and the NB rows of a network in a zone.
 */
export * from './addresses';
export * from './errors';
export * from './input';
export * from './mac';
export * from './names';
export { assignPodIPs, podKey, type PodPool, type PodRef } from './pod-ips';
export { PER_LAYOUT_COLUMNS, renderNetwork } from './render';
export { identityOf, KINDS, type DesiredRow } from './rows';
export { COPP_PROTOCOLS, meterName, renderSharedRows } from './shared';
export { DEFAULT_TRANSIT_SWITCH_SUBNETS, layer2TransitSubnets, shiftPastOverlaps, type TransitAvoid } from './transit';
export { BASE_TRANSIT_SWITCH_TUNNEL_KEY } from './layer3-ic';
export { TRANSIT_ROUTER_PORT_FIRST_KEY } from './layer2';
