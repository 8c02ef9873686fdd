/**
 * The plan both sides of the oracle use: a topology file with lab-like nodes filled in
 * (nodes.ts), the per-node layout (upstream runs one zone per node) and a UID for every pod
 * without one (a Kubernetes pod always has one: upstream writes it as `iface-id-ver`), planned
 * from nothing.
 * `npm run oracle` feeds this plan's allocations to upstream; the CI test compares this plan's rows.
 */
import { createHash } from 'node:crypto';
import type { LoadedDocument } from '../provider/model/load';
import { loadDocuments, planTopology, type TopologyPlan } from '../provider/runtime/cli';
import { withLabLikeNodes } from './nodes';

export interface OraclePlan {
  documents: LoadedDocument[];
  plan: TopologyPlan;
}

/** Documents of `text` planned for the oracle; a string says why the file cannot be. */
export function oraclePlan(text: string): OraclePlan | string {
  const loaded = loadDocuments(text);
  if (loaded.problems.length > 0) return loaded.problems.map((p) => p.message).join('; ');
  const documents = withPodUids(perNode(withLabLikeNodes(loaded.documents)));
  const result = planTopology(documents);
  if (!result.ok) return result.problems.map((p) => p.message).join('; ');
  if (result.plan.problems.length > 0) return result.plan.problems.map((p) => p.message).join('; ');
  return { documents, plan: result.plan };
}

function perNode<D extends LoadedDocument>(documents: D[]): D[] {
  return documents.map((d) =>
    d.kind === 'Inventory'
      ? { ...d, body: { ...d.body, spec: { ...((d.body.spec ?? {}) as object), zones: 'per-node' } } }
      : d,
  );
}

/** A UID derived from the pod's namespace and name, in the form Kubernetes gives. */
export function podUid(namespace: string, name: string): string {
  const hex = createHash('sha256').update(`${namespace}/${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function withPodUids<D extends LoadedDocument>(documents: D[]): D[] {
  return documents.map((d) => {
    const spec = (d.body.spec ?? {}) as { pods?: { name?: string; namespace?: string; uid?: string }[] };
    if (d.kind !== 'Inventory' || !Array.isArray(spec.pods)) return d;
    const pods = spec.pods.map((p) => (p.uid ? p : { ...p, uid: podUid(String(p.namespace), String(p.name)) }));
    return { ...d, body: { ...d.body, spec: { ...spec, pods } } };
  });
}
