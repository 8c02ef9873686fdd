/**
 * Filling an Inventory document from another one (the running lab's `ovnk lab inventory`), pure:
 * the file wins wherever it sets something. Nodes: the other's list when the file has none,
 * else each file node gets the fields it lacks from the other's node of the same name. Targets:
 * zones and nodes the file does not name come from the other. `zones` (the layout) likewise.
 */
import type { LoadedDocument } from '../model/load';

type Spec = Record<string, unknown>;
type NamedRecord = Record<string, unknown> & { name?: unknown };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function mergeNodes(file: unknown, other: unknown): unknown {
  if (!Array.isArray(other)) return file;
  if (!Array.isArray(file) || file.length === 0) return other;
  const byName = new Map((other as NamedRecord[]).map((n) => [n.name, n]));
  return file.map((node: unknown) =>
    isRecord(node) && byName.has(node.name) ? { ...byName.get(node.name), ...node } : node,
  );
}

function mergeTargets(file: unknown, other: unknown): unknown {
  if (!isRecord(other)) return file;
  if (!isRecord(file)) return other;
  const part = (key: string) => ({
    ...(isRecord(other[key]) ? other[key] : {}),
    ...(isRecord(file[key]) ? file[key] : {}),
  });
  return { ...file, zones: part('zones'), nodes: part('nodes') };
}

export function mergeInventorySpec(file: Spec, other: Spec): Spec {
  const merged: Spec = { ...other, ...file };
  merged.nodes = mergeNodes(file.nodes, other.nodes);
  merged.targets = mergeTargets(file.targets, other.targets);
  return merged;
}

/** The documents with the (first) Inventory's spec filled from `other`; other documents as they are. */
export function fillInventory<D extends LoadedDocument>(documents: D[], other: { spec: Spec }): D[] {
  let done = false;
  return documents.map((doc) => {
    if (done || doc.kind !== 'Inventory') return doc;
    done = true;
    const spec = isRecord(doc.body.spec) ? doc.body.spec : {};
    return { ...doc, body: { ...doc.body, spec: mergeInventorySpec(spec, other.spec) } };
  });
}
