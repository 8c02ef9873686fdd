/**
 * The OVSDB layer's public surface (RFC 7047 client, no OVN knowledge): import from here.
 */
export * from './client';
export * from './cluster';
export * from './codec';
export * from './endpoint';
export * from './errors';
export type { FollowOptions } from './followedMonitor';
export type { MonitorMethod, MonitorRequest, MonitorUpdate, RowUpdate, TableUpdates } from './monitor';
export * from './notation';
export * from './schema';
export type { TlsMaterial, OpenOptions } from './transport';
export type { RpcOptions } from './rpc';
