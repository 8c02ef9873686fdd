/**
 * ClusterUserDefinedNetwork (k8s.ovn.org/v1): `spec.namespaceSelector` plus `spec.network`
 * (topology, layer3/layer2/localnet, transport). OVN network name `cluster_udn_<name>`.
 */
import { FieldReader } from './fields';
import type { LoadedDocument } from './load';
import { type Network, parseNetworkSpec } from './network';
import type { Problem } from './problem';

export function parseClusterUserDefinedNetwork(doc: LoadedDocument, problems: Problem[], mtu: number): Network | undefined {
  const r = new FieldReader(doc.ref, problems);
  const spec = r.record(doc.body.spec, 'spec') ?? r.missing('spec');
  if (!spec) return undefined;
  const namespaceSelector = r.selector(spec.namespaceSelector, 'spec.namespaceSelector') ?? r.missing('spec.namespaceSelector');
  const network = r.record(spec.network, 'spec.network') ?? r.missing('spec.network');
  if (!network || !namespaceSelector) return undefined;
  const identity = { kind: 'ClusterUserDefinedNetwork' as const, name: `cluster_udn_${doc.metadata.name}`, labels: doc.metadata.labels, namespaceSelector };
  return parseNetworkSpec(doc, r, network, 'spec.network.', identity, mtu);
}
