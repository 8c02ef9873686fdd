/**
 * ClusterNetworkConnect (k8s.ovn.org/v1): network selectors, connect subnets and connectivity,
 * plus upstream's two annotations that carry existing allocations. Parsing only checks types;
 * the CRD's enum, count and CEL rules are checked by provider/connect/validate.ts so that they
 * come back as the connect's problems (refused), not as unusable input.
 */
import { FieldReader, type Json } from './fields';
import type { LoadedDocument } from './load';
import type { Problem } from './problem';
import type { LabelSelector } from './selector';

export const connectSubnetAnnotation = 'k8s.ovn.org/network-connect-subnet';
export const connectTunnelKeyAnnotation = 'k8s.ovn.org/connect-router-tunnel-key';

export interface NetworkSelectorSpec {
  networkSelectionType?: string;
  /** `clusterUserDefinedNetworkSelector.networkSelector` (absent when the union member is). */
  clusterUserDefinedNetworkSelector?: { networkSelector?: LabelSelector };
  /** `primaryUserDefinedNetworkSelector.namespaceSelector`. */
  primaryUserDefinedNetworkSelector?: { namespaceSelector?: LabelSelector };
  /** Other union members present (secondary, NAD): their field names, for the union rule. */
  otherMembers: string[];
}

export interface ConnectSubnetSpec {
  cidr?: string;
  networkPrefix?: number;
}

export interface ClusterNetworkConnect {
  ref: string;
  name: string;
  /** Undefined when the field is absent (the CRD requires it). */
  networkSelectors?: NetworkSelectorSpec[];
  connectSubnets?: ConnectSubnetSpec[];
  connectivity?: string[];
  /** Upstream annotations to adopt, as found on the object. */
  subnetAnnotation?: string;
  tunnelKeyAnnotation?: string;
}

const otherSelectorFields = ['secondaryUserDefinedNetworkSelector', 'networkAttachmentDefinitionSelector'];

export function parseClusterNetworkConnect(doc: LoadedDocument, problems: Problem[]): ClusterNetworkConnect {
  const r = new FieldReader(doc.ref, problems);
  const spec = r.record(doc.body.spec, 'spec') ?? {};
  const selectors = r.list(spec.networkSelectors, 'spec.networkSelectors');
  const subnets = r.list(spec.connectSubnets, 'spec.connectSubnets');
  return {
    ref: doc.ref,
    name: doc.metadata.name,
    networkSelectors: selectors?.map((s, i) => parseSelector(r, s, `spec.networkSelectors[${i}]`)),
    connectSubnets: subnets?.map((s, i) => parseConnectSubnet(r, s, `spec.connectSubnets[${i}]`)),
    connectivity: r.strings(spec.connectivity, 'spec.connectivity'),
    subnetAnnotation: doc.metadata.annotations[connectSubnetAnnotation],
    tunnelKeyAnnotation: doc.metadata.annotations[connectTunnelKeyAnnotation],
  };
}

function parseSelector(r: FieldReader, value: Json, field: string): NetworkSelectorSpec {
  const map = r.record(value, field) ?? {};
  const cudn = r.record(map.clusterUserDefinedNetworkSelector, `${field}.clusterUserDefinedNetworkSelector`);
  const pudn = r.record(map.primaryUserDefinedNetworkSelector, `${field}.primaryUserDefinedNetworkSelector`);
  return {
    networkSelectionType: r.string(map.networkSelectionType, `${field}.networkSelectionType`),
    clusterUserDefinedNetworkSelector: cudn && {
      networkSelector: r.selector(cudn.networkSelector, `${field}.clusterUserDefinedNetworkSelector.networkSelector`),
    },
    primaryUserDefinedNetworkSelector: pudn && {
      namespaceSelector: r.selector(
        pudn.namespaceSelector,
        `${field}.primaryUserDefinedNetworkSelector.namespaceSelector`,
      ),
    },
    otherMembers: otherSelectorFields.filter((f) => map[f] !== undefined && map[f] !== null),
  };
}

function parseConnectSubnet(r: FieldReader, value: Json, field: string): ConnectSubnetSpec {
  const map = r.record(value, field) ?? {};
  return {
    cidr: r.string(map.cidr, `${field}.cidr`),
    networkPrefix: r.integer(map.networkPrefix, `${field}.networkPrefix`),
  };
}
