/**
 * provider/runtime/cluster: the cluster-level entry of the CLI and the providers: Northbound rows
 * and host state together.
 */
export * from './plan';
export * from './run';
export * from './zones';
