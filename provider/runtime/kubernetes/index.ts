/** provider/runtime/kubernetes: Kubernetes mode's objects, predictions and divergence, and reading a cluster. */
export * from './objects';
export * from './divergence';
export * from './readCluster';
export { goJson, predictedAnnotations, type PredictedAnnotations } from '../../alloc/annotations';
export type { ClusterInventory } from '../../model/clusterInventory';
export { uplinkStateName } from '../../uplink/names';
