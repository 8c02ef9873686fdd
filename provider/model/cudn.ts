/**
 * ClusterUserDefinedNetwork (k8s.ovn.org/v1): `spec.namespaceSelector` plus `spec.network`
 * (topology, layer3/layer2/localnet, transport). OVN network name `cluster_udn_<name>`.
 */
import { FieldReader } from './fields';
import type { LoadedDocument } from './load';
import { type Network, parseNetworkSpec } from './network';
import type { Problem } from './problem';

/** A CUDN's network with `spec.uplinks` (OKEP-6019), when the object sets it. */
export type ClusterNetwork = Network & { uplinks?: string[] };

/** The Uplinks a network names (`spec.uplinks` of a CUDN); undefined when none. */
export function uplinksOf(network: Network): string[] | undefined {
  return (network as ClusterNetwork).uplinks;
}

export function parseClusterUserDefinedNetwork(
  doc: LoadedDocument,
  problems: Problem[],
  mtu: number,
): ClusterNetwork | undefined {
  const r = new FieldReader(doc.ref, problems);
  const spec = r.record(doc.body.spec, 'spec') ?? r.missing('spec');
  if (!spec) return undefined;
  const namespaceSelector =
    r.selector(spec.namespaceSelector, 'spec.namespaceSelector') ?? r.missing('spec.namespaceSelector');
  const network = r.record(spec.network, 'spec.network') ?? r.missing('spec.network');
  if (!network || !namespaceSelector) return undefined;
  const identity = {
    kind: 'ClusterUserDefinedNetwork' as const,
    name: `cluster_udn_${doc.metadata.name}`,
    labels: doc.metadata.labels,
    namespaceSelector,
  };
  const parsed = parseNetworkSpec(doc, r, network, 'spec.network.', identity, mtu);
  const uplinks = r.strings(spec.uplinks, 'spec.uplinks');
  return parsed && uplinks !== undefined ? { ...parsed, uplinks } : parsed;
}
