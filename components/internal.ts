/**
 * `ovnk-pulumi/internal`: the parts of the components a program does not use, for tests and for
 * tooling that inspects a Cluster's children: the dynamic resources a Cluster owns (their
 * `__provider` texts are provider/shim.ts), the component classes as values (the Cluster constructs them; on their
 * own their constructors throw), their args, and the optional @pulumi/kubernetes loader. No
 * compatibility promise: names here may change between versions.
 */
export * from './resources';
export type { ClusterContext } from './context';
export * from './network';
export * from './networkConnect';
export * from './uplink';
export { loadKubernetes, type KubernetesModule } from './kubernetes';
