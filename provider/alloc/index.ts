/** provider/alloc: every cluster-wide allocation, stable given the previous state. */
export * from './subnetRange';
export * from './subnetAllocator';
export * from './ids';
export * from './hostSubnets';
export * from './datapathKeys';
export * from './connectSubnets';
export * from './p2p';
export * from './portChecks';
export * from './state';
export * from './connects';
export * from './cluster';
export * from './others';
export * from './capacity';
