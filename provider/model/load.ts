/**
 * Multi-document YAML (or JSON) text -> documents with their kind, name and a reference used in
 * every problem path (`ClusterNetworkConnect/colored-enterprise`, `UserDefinedNetwork/blue/net`).
 * Syntax errors and documents without kind or name become problems; so does every document that
 * its kind's schema refuses (upstream's CRD with its CEL rules, or our Inventory's: crd/), with
 * the field path. Callers stop at any problem: nothing later runs on an invalid object. Nothing
 * throws.
 */
import { validateObject } from './crd/validate';
import { deeperThan, dict } from './dict';
import { FieldReader, type Json } from './fields';
import { problem, type Problem } from './problem';
import { maxDepth, parseYaml, tooDeepText } from './yamlInput';

export interface Metadata {
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface LoadedDocument {
  /** Position in the file, from 0 (JSON arrays count each element). */
  index: number;
  apiVersion: string;
  kind: string;
  metadata: Metadata;
  /** `<Kind>/<name>` or `<Kind>/<namespace>/<name>`: the object part of problem paths. */
  ref: string;
  /** The whole parsed object. */
  body: Record<string, Json>;
}

export interface Loaded {
  documents: LoadedDocument[];
  problems: Problem[];
}

export function loadDocuments(text: string): Loaded {
  const { values, problems } = parseYaml(text);
  const bodies = values.flatMap(({ value, where }) =>
    (Array.isArray(value) ? value : [value]).map((item) => ({ value: item, where })),
  );
  const documents = bodies.flatMap(({ value, where }, index) => {
    const loaded = readDocument(value, index, where, problems);
    return loaded ? [loaded] : [];
  });
  return { documents, problems };
}

/**
 * Objects already parsed (a Pulumi program's inputs: the objects a YAML file holds) -> documents,
 * read as loadDocuments reads the elements of one JSON array (`document[0]`), with the same
 * checks and problems and no text in between.
 */
export function loadObjects(objects: readonly unknown[]): Loaded {
  const where = 'document[0]';
  if (deeperThan(objects, maxDepth))
    return { documents: [], problems: [problem('InvalidDocument', where, '', `${where} ${tooDeepText}`)] };
  const problems: Problem[] = [];
  const documents = objects.flatMap((object, index) => {
    const loaded = readDocument(jsonData(object), index, where, problems);
    return loaded ? [loaded] : [];
  });
  return { documents, problems };
}

/** `value` as JSON would carry it: objects without prototype and undefined members, undefined items null. */
function jsonData(value: unknown): Json {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(jsonData);
  if (typeof value !== 'object' || value === null) return value as Json;
  return dict(
    Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => [key, jsonData(item)] as const),
  ) as Json;
}

function readDocument(value: Json, index: number, where: string, problems: Problem[]): LoadedDocument | undefined {
  const reader = new FieldReader(where, problems);
  const body = reader.record(value, '');
  if (!body)
    return value === undefined ? undefined : reader.wrong('', value, 'a mapping with apiVersion, kind and metadata');
  const kind = reader.string(body.kind, 'kind') ?? reader.missing('kind');
  const apiVersion = reader.string(body.apiVersion, 'apiVersion') ?? reader.missing('apiVersion');
  const meta = reader.record(body.metadata, 'metadata') ?? {};
  const name = reader.string(meta.name, 'metadata.name') ?? reader.missing('metadata.name');
  const namespace = reader.string(meta.namespace, 'metadata.namespace');
  if (kind === undefined || apiVersion === undefined || name === undefined) return undefined;
  const ref = namespace === undefined ? `${kind}/${name}` : `${kind}/${namespace}/${name}`;
  const objectReader = new FieldReader(ref, problems);
  const metadata: Metadata = {
    name,
    namespace,
    labels: objectReader.labels(meta.labels, 'metadata.labels'),
    annotations: objectReader.labels(meta.annotations, 'metadata.annotations'),
  };
  problems.push(...validateObject(body, { ref }));
  return { index, apiVersion, kind, metadata, ref, body };
}
