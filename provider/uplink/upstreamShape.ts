/**
 * The Uplink and UplinkState objects as upstream's CRDs accept them (k8s.ovn.org/v1alpha1, the
 * schemas validated by provider/model/crd): our extensions leave `status` (whose
 * schema has no room for them) for `metadata.annotations`: an UplinkState's VLAN tag and path MTU,
 * an Uplink's selected and overlapping nodes. What the CLI prints with `-o json` and the Pulumi
 * outputs carry. Pure.
 */
import type { UplinkState } from './conditions';
import type { UplinkObjectStatus } from './plan';

export const EXTENSION_ANNOTATIONS = {
  vlanTag: 'ovnk.io/vlan-tag',
  pathMtu: 'ovnk.io/path-mtu',
  selectedNodes: 'ovnk.io/selected-nodes',
  overlappingNodes: 'ovnk.io/overlapping-nodes',
} as const;

type Annotations = Record<string, string>;

const withAnnotations = <M extends { name: string }>(metadata: M, annotations: Annotations) =>
  Object.keys(annotations).length > 0 ? { ...metadata, annotations } : metadata;

export function upstreamUplinkState(state: UplinkState) {
  const { vlanTag, pathMtu, ...status } = state.status;
  const annotations: Annotations = {};
  if (vlanTag !== undefined) annotations[EXTENSION_ANNOTATIONS.vlanTag] = String(vlanTag);
  if (pathMtu !== undefined) annotations[EXTENSION_ANNOTATIONS.pathMtu] = String(pathMtu);
  return { ...state, metadata: withAnnotations(state.metadata, annotations), status };
}

export function upstreamUplink(uplink: UplinkObjectStatus) {
  const { selectedNodes, overlappingNodes, ...status } = uplink.status;
  const annotations: Annotations = { [EXTENSION_ANNOTATIONS.selectedNodes]: selectedNodes.join(',') };
  if (overlappingNodes.length > 0) annotations[EXTENSION_ANNOTATIONS.overlappingNodes] = overlappingNodes.join(',');
  return { ...uplink, metadata: withAnnotations(uplink.metadata, annotations), status };
}
