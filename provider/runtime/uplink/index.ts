/** provider/runtime/uplink: Uplink discovery over SSH and the node's Open_vSwitch db, and bridge-mapping writes. */
export * from './hostFacts';
export * from './ovsFacts';
export * from './session';
export * from './run';
