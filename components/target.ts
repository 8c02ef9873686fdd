/**
 * Where a Cluster's topology goes. Northbound (the default): our dynamic resources write OVN
 * Northbound rows and node hosts. Kubernetes: the components register upstream's own objects as
 * @pulumi/kubernetes custom resources and ovnkube-controller does the writing; no Northbound and
 * no SSH is touched, and ClusterPrediction stands in front with the same validation and
 * allocation.
 */
import type * as pulumi from '@pulumi/pulumi';

export type ClusterTarget =
  | { kind: 'northbound' }
  | {
      kind: 'kubernetes';
      /** A `kubernetes.Provider` (its kubeconfig and context); none: the ambient kubeconfig, as `kubectl` uses it. */
      provider?: pulumi.ProviderResource;
    };

export const northbound: ClusterTarget = { kind: 'northbound' };

/** Kubernetes mode, through `provider` or the ambient kubeconfig. */
export function kubernetesTarget(provider?: pulumi.ProviderResource): ClusterTarget {
  return provider === undefined ? { kind: 'kubernetes' } : { kind: 'kubernetes', provider };
}
