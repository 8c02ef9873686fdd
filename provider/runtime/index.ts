/**
 * provider/runtime: what the CLI and the Pulumi providers run. Plain async functions over plain
 * data and pooled Northbound connections: plan (pure), then per zone apply, diff or destroy.
 */
export * from './commit';
export { ForeignRowClash } from '../nb/clash';
export * from './compat';
export * from './connections';
export * from './plan';
export * from './pods';
export * from './state';
export * from './zone';
export * from './inventoryMerge';
export * from './pulumi';
