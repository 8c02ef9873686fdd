/**
 * A Kubernetes structural schema -> the JSON schema ajv compiles. The API server prunes fields a
 * schema does not declare; we refuse them instead, so every object node that neither declares
 * `additionalProperties` nor sets `x-kubernetes-preserve-unknown-fields` gets
 * `additionalProperties: false` (not inside allOf/anyOf/oneOf/not, which only constrain values).
 * The root's `metadata` (a bare `type: object` in every CRD) becomes our ObjectMeta schema.
 */
import { dict, own } from '../dict';
import type { StructuralSchema } from './types';

type Json = Record<string, unknown>;
const junctors = ['allOf', 'anyOf', 'oneOf'] as const;

export function toAjvSchema(schema: StructuralSchema, metadata: Json): Json {
  const root = convert(schema, false);
  const properties = (root.properties ?? {}) as Json;
  return { ...root, properties: { ...properties, metadata } };
}

function convert(node: StructuralSchema, inJunctor: boolean): Json {
  const out: Json = { ...node };
  if (node.properties)
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, convert(v, inJunctor)]));
  if (node.items) out.items = convert(node.items, inJunctor);
  if (typeof node.additionalProperties === 'object')
    out.additionalProperties = convert(node.additionalProperties, inJunctor);
  for (const key of junctors) if (node[key]) out[key] = node[key]!.map((branch) => convert(branch, true));
  if (node.not) out.not = convert(node.not, true);
  const closed =
    !inJunctor &&
    node.type === 'object' &&
    node.additionalProperties === undefined &&
    !node['x-kubernetes-preserve-unknown-fields'];
  if (closed) out.additionalProperties = false;
  return out;
}

/**
 * The object as the API server validates it: a `null` where the schema does not say
 * `nullable: true` is dropped (pruned) first, so `layer2:` left empty reads as absent and the
 * CRD's own rule ("spec.layer2 is required when ...") explains it.
 */
export function withoutNulls(value: unknown, schema: StructuralSchema | undefined): unknown {
  if (schema === undefined || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutNulls(item, schema.items));
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const out = dict<unknown>();
  for (const [key, item] of Object.entries(value)) {
    const sub = own(schema.properties, key) ?? extra;
    if (item === null && sub !== undefined && !sub.nullable) continue;
    out[key] = withoutNulls(item, sub);
  }
  return out;
}
