/**
 * The objects Kubernetes mode sends to the API server: upstream's own kinds (ClusterUserDefinedNetwork,
 * UserDefinedNetwork, ClusterNetworkConnect, Uplink, RouteAdvertisements) as a user would
 * `kubectl apply` them: apiVersion, kind, metadata (name, namespace, labels, annotations) and
 * spec. Never status, and never an annotation upstream's controllers write (network ids and
 * tunnel keys live on the NADs, connect allocations on the CNC under their field managers): ours
 * would fight their server-side apply, and our predictions adopt them through the Inventory
 * instead. Each object is checked against the pinned upstream CRD, CEL rules included.
 */
import { networkNameAnnotation } from './clusterInventory';
import { connectSubnetAnnotation, connectTunnelKeyAnnotation } from './cnc';
import { validateObject } from './crd';
import { tunnelKeysAnnotation } from './network';
import { networkIdAnnotation } from './network';
import type { Problem } from './problem';

/** The annotations upstream's controllers write; our emitted objects never carry them. */
export const upstreamWrittenAnnotations: readonly string[] = [
  networkIdAnnotation,
  networkNameAnnotation,
  tunnelKeysAnnotation,
  connectSubnetAnnotation,
  connectTunnelKeyAnnotation,
];

/** The kinds Kubernetes mode registers (UplinkStates are ovnkube-node's, NADs the UDN controller's). */
export const emittedKinds: readonly string[] = [
  'ClusterUserDefinedNetwork',
  'UserDefinedNetwork',
  'ClusterNetworkConnect',
  'Uplink',
  'RouteAdvertisements',
];

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
}

type Body = Record<string, unknown>;

/** The object as the API server gets it, from the object as the user wrote it. */
export function kubernetesObject(body: Body): KubernetesObject {
  const meta = (body.metadata ?? {}) as Body;
  const annotations = Object.fromEntries(
    Object.entries((meta.annotations ?? {}) as Record<string, string>).filter(
      ([key]) => !upstreamWrittenAnnotations.includes(key),
    ),
  );
  const metadata: KubernetesObject['metadata'] = { name: String(meta.name) };
  if (typeof meta.namespace === 'string') metadata.namespace = meta.namespace;
  if (meta.labels !== undefined && Object.keys(meta.labels as object).length > 0)
    metadata.labels = { ...(meta.labels as Record<string, string>) };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  return { apiVersion: String(body.apiVersion), kind: String(body.kind), metadata, spec: (body.spec ?? {}) as Body };
}

/**
 * Every problem the API server would find in the objects (schema and CEL rules), and any object
 * of a kind Kubernetes mode does not send. Empty when all of them can be applied.
 */
export function kubernetesObjectProblems(objects: readonly KubernetesObject[]): Problem[] {
  return objects.flatMap((object) => validateObject(object));
}
