/**
 * The kinds the validator knows: upstream's CRDs (generated/, pinned at crdSourceCommit) and our
 * Inventory (schemas/inventory.json), each with its scope, the name format its objects need, and
 * an ajv validator compiled on first use. Every kind's name is a DNS-1123 subdomain, as the API
 * server checks custom resources; an Uplink's too (issue 26 point 3): upstream's Uplink CRD adds
 * no rule of its own, a CUDN's `spec.uplinks` pattern (dot-free, up to 253) refuses on the CUDN
 * the names it cannot reference, and an UplinkState name longer than 253 is hashed
 * (uplink/names.ts, upstream's pkg/uplink/names.go StateName). The validators are ajv's,
 * precompiled by `npm run generate` (compiling these schemas at run time costs far more than
 * checking a file) and loaded on first use of their kind.
 */
import type { ValidateFunction } from 'ajv';
import { upstreamCrds } from './generated';
import { validators } from './generated/validators';
import inventorySchema from './schemas/inventory.json';
import objectMetaSchema from './schemas/objectMeta.json';
import { toAjvSchema } from './structural';
import type { CrdDefinition, StructuralSchema } from './types';

export interface KnownKind {
  apiVersion: string;
  kind: string;
  scope: 'Cluster' | 'Namespaced';
  schema: StructuralSchema;
  nameFormat: 'dns1123-subdomain' | 'dns1123-label';
  /** Where the schema comes from, for messages. */
  source: 'upstream CRD' | 'ovnk';
}

/** The kinds of CRDs (each served version) and our Inventory. */
export function kindsFrom(crds: readonly CrdDefinition[]): KnownKind[] {
  return [inventoryKind, ...crds.flatMap(crdKinds)];
}

function crdKinds(crd: CrdDefinition): KnownKind[] {
  return crd.versions
    .filter((v) => v.served)
    .map((v) => ({
      apiVersion: `${crd.group}/${v.name}`,
      kind: crd.kind,
      scope: crd.scope,
      schema: v.schema,
      nameFormat: 'dns1123-subdomain' as const,
      source: 'upstream CRD' as const,
    }));
}

const inventoryKind: KnownKind = {
  apiVersion: 'ovnk/v1alpha1',
  kind: 'Inventory',
  scope: 'Cluster',
  schema: inventorySchema as StructuralSchema,
  nameFormat: 'dns1123-subdomain',
  source: 'ovnk',
};

export const knownKinds: readonly KnownKind[] = kindsFrom(upstreamCrds);

export function findKind(apiVersion: string, kind: string): KnownKind | undefined {
  return knownKinds.find((k) => k.kind === kind && k.apiVersion === apiVersion);
}

/** The generated validator's file name (generated/validators/<name>.ts) and key. */
export function validatorName(known: KnownKind): string {
  return `${known.kind.toLowerCase()}-${known.apiVersion.split('/').pop()}`;
}

/** The JSON schema ajv compiles for a kind: its structural schema with our ObjectMeta. */
export function ajvSchemaOf(known: KnownKind): Record<string, unknown> {
  const name = { ...objectMetaSchema.properties.name, format: known.nameFormat };
  const metadata = { ...objectMetaSchema, properties: { ...objectMetaSchema.properties, name } };
  return toAjvSchema(known.schema, metadata);
}

const loaded = new Map<KnownKind, ValidateFunction>();

/** The kind's precompiled validator, loaded once. */
export function validatorOf(known: KnownKind): ValidateFunction {
  let validate = loaded.get(known);
  if (!validate) {
    const load = validators[validatorName(known)];
    if (!load)
      throw new Error(`internal: no generated validator for ${known.apiVersion} ${known.kind}: run npm run generate`);
    validate = load();
    loaded.set(known, validate);
  }
  return validate;
}
