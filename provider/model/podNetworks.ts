/**
 * A pod's secondary networks: each entry of `spec.pods[].networks` names a NetworkAttachmentDefinition
 * as upstream's `k8s.v1.cni.cncf.io/networks` annotation does (`<name>` in the pod's namespace, or
 * `<namespace>/<name>`). The NADs are the ones upstream's UDN controller writes: a
 * UserDefinedNetwork's in its own namespace, a ClusterUserDefinedNetwork's in every namespace it
 * selects, each named after the object. Pure.
 */
import { isActiveOn } from './active';
import type { Cluster } from './clusterShape';
import type { InventoryPod } from './inventory';
import type { Network } from './network';

export interface PodAttachment {
  network: Network;
  /** `<namespace>/<name>`: the port's `k8s.ovn.org/nad` and its name prefix. */
  nadKey: string;
}

/** One entry the pod's networks cannot take, with why. */
export interface AttachmentProblem {
  index: number;
  reason: 'InvalidField' | 'DuplicateObject';
  message: string;
}

/** The network whose NAD `<namespace>/<name>` is, if one is. */
export function networkOfNad(cluster: Cluster, namespace: string, name: string): Network | undefined {
  return cluster.networks.find(
    (n) =>
      n.objectName === name &&
      n.namespaces.includes(namespace) &&
      (n.kind === 'ClusterUserDefinedNetwork' || n.namespace === namespace),
  );
}

function why(cluster: Cluster, pod: InventoryPod, network: Network | undefined, nadKey: string): string | undefined {
  if (!network)
    return `names no NetworkAttachmentDefinition: no UserDefinedNetwork or ClusterUserDefinedNetwork named ${nadKey.split('/')[1]} serves namespace ${nadKey.split('/')[0]}`;
  if (network.role === 'Primary')
    return `is primary network ${network.name}, which a pod joins through its namespace, not through its networks`;
  if (network.subnets.length === 0)
    return `is network ${network.name}, which has no subnets: upstream gives its pods a random MAC (allocatePodAnnotationWithRollback), which ovnk cannot predict`;
  const node = cluster.inventory.nodes.find((n) => n.name === pod.node);
  if (node && !isActiveOn(node, network))
    return `is network ${network.name}, which is not active on node ${pod.node} (spec.nodes[].networks)`;
  return undefined;
}

/** The pod's secondary attachments, in its order, and the entries refused. */
export function podAttachments(
  cluster: Cluster,
  pod: InventoryPod,
): { attachments: PodAttachment[]; problems: AttachmentProblem[] } {
  const attachments: PodAttachment[] = [];
  const problems: AttachmentProblem[] = [];
  (pod.networks ?? []).forEach((ref, index) => {
    const [namespace, name] = ref.includes('/') ? (ref.split('/', 2) as [string, string]) : [pod.namespace, ref];
    const nadKey = `${namespace}/${name}`;
    const network = networkOfNad(cluster, namespace, name);
    const refused = why(cluster, pod, network, nadKey);
    if (refused) problems.push({ index, reason: 'InvalidField', message: refused });
    else if (attachments.some((a) => a.network.name === network!.name))
      problems.push({ index, reason: 'DuplicateObject', message: `attaches network ${network!.name} a second time` });
    else attachments.push({ network: network!, nadKey });
  });
  return { attachments, problems };
}

/** The pods attached to a secondary network, each with the NAD it attaches through. */
export function podsAttachedTo(cluster: Cluster, network: Network): { pod: InventoryPod; nadKey: string }[] {
  return cluster.inventory.pods.flatMap((pod) => {
    const found = podAttachments(cluster, pod).attachments.find((a) => a.network.name === network.name);
    return found ? [{ pod, nadKey: found.nadKey }] : [];
  });
}
