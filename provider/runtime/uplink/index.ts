/**
 * provider/runtime/uplink: Uplink discovery over SSH and the node's Open_vSwitch db, bridge-mapping
 * writes, typed results.
 */
export * from './hostFacts';
export * from './ovsFacts';
export * from './session';
export * from './run';
export * from './findings';
export * from './section';
export * from './staticFdb';
