/**
 * The shapes the CRD validator works on: a Kubernetes structural schema (OpenAPI v3 with the
 * `x-kubernetes-*` extensions) and a CustomResourceDefinition reduced to what validation needs.
 */

/** One `x-kubernetes-validations` entry (a CEL rule). */
export interface CelRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  /** A JSONPath-like path relative to the node carrying the rule (`.reservedSubnets`). */
  fieldPath?: string;
  /** FieldValueInvalid (the default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate. */
  reason?: string;
  optionalOldSelf?: boolean;
}

/** A node of a structural schema. Only the keywords Kubernetes allows in CRDs appear. */
export interface StructuralSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, StructuralSchema>;
  additionalProperties?: StructuralSchema | boolean;
  items?: StructuralSchema;
  required?: string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  uniqueItems?: boolean;
  nullable?: boolean;
  default?: unknown;
  allOf?: StructuralSchema[];
  anyOf?: StructuralSchema[];
  oneOf?: StructuralSchema[];
  not?: StructuralSchema;
  'x-kubernetes-validations'?: CelRule[];
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema: StructuralSchema;
}

/** A CustomResourceDefinition as the validator needs it. */
export interface CrdDefinition {
  group: string;
  kind: string;
  plural: string;
  scope: 'Cluster' | 'Namespaced';
  versions: CrdVersion[];
}
