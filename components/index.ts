/**
 * `ovnk-pulumi`: what a Pulumi program uses. The Cluster (token `ovnk:cluster:Cluster`) and its
 * args, the object types, the targets, topology files, and the types of what a Cluster hands
 * back. The network, connect and Uplink components are exported as types only: the Cluster makes
 * them (read them from `cluster.networks`, `.connects`, `.uplinks`), and made on their own they
 * throw. The dynamic resources the components own and their helpers are `ovnk-pulumi/internal`.
 */
export type {
  ClusterNetworkConnectObject,
  ClusterUserDefinedNetworkObject,
  InventoryObject,
  Layout,
  NetworkObject,
  ObjectMeta,
  RouteAdvertisementsObject,
  UplinkObject,
  UserDefinedNetworkObject,
} from './objects';
export { networkKey, objectRef } from './objects';
export type {
  AllocationsOutput,
  DriftSummary,
  PredictedAnnotationsOutput,
  UplinkStateObject,
  UplinkVrfReport,
} from './resources';
export { Cluster, type ClusterArgs, type NorthboundArgs } from './cluster';
export type {
  ClusterNetworkConnectArgs,
  ClusterUserDefinedNetworkArgs,
  DeepInput,
  InputFields,
  NetworkArgsObject,
  UserDefinedNetworkArgs,
} from './inputs';
export type { Layer2Network, Layer3Network, LocalnetNetwork } from './network';
export type { NetworkConnect } from './networkConnect';
export type { Uplink } from './uplink';
export * from './topologyFile';
export * from './target';
export type { KubernetesChild } from './kubernetes';
export type { KubernetesCluster } from './clusterKubernetes';
export type { PredictionAudit, ZoneAuditSummary } from '../provider/runtime/pulumi';
