/**
 * UserDefinedNetwork (k8s.ovn.org/v1, namespaced): `spec` holds topology and
 * layer3/layer2 directly. OVN network name `<namespace>_<name>`; it serves its own namespace.
 */
import { FieldReader } from './fields';
import type { LoadedDocument } from './load';
import { type Network, parseNetworkSpec } from './network';
import type { Problem } from './problem';

export function parseUserDefinedNetwork(doc: LoadedDocument, problems: Problem[], mtu: number): Network | undefined {
  const r = new FieldReader(doc.ref, problems);
  const namespace = doc.metadata.namespace ?? r.missing('metadata.namespace');
  const spec = r.record(doc.body.spec, 'spec') ?? r.missing('spec');
  if (!spec || namespace === undefined) return undefined;
  const identity = {
    kind: 'UserDefinedNetwork' as const,
    name: `${namespace}_${doc.metadata.name}`,
    namespace,
    labels: doc.metadata.labels,
  };
  return parseNetworkSpec(doc, r, spec, 'spec.', identity, mtu);
}
