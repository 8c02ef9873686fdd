/**
 * ovnk-pulumi components: Cluster, Layer3Network, Layer2Network, LocalnetNetwork, NetworkConnect, Uplink (tokens
 * `ovnk:<module>:<Type>`) and the dynamic resources they own (`pulumi-nodejs:dynamic/ovnk:<Type>`).
 */
export * from './objects';
export * from './resources';
export type { ClusterContext } from './context';
export * from './cluster';
export * from './network';
export * from './networkConnect';
export * from './uplink';
export * from './topologyFile';
export * from './target';
export { loadKubernetes, type KubernetesChild, type KubernetesModule } from './kubernetes';
export type { KubernetesCluster } from './clusterKubernetes';
