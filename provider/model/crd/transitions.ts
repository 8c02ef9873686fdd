/**
 * The transition rules of a kind's CRD: every schema node carrying a CEL rule that reads `oldSelf`
 * (`self == oldSelf`: "connectSubnets is immutable", "Topology is immutable", ...), with the
 * node's property path as Pulumi's `replaceOnChanges` takes it (`spec.connectSubnets`,
 * `spec.network.layer3`, `spec.items[*].x`). The API server refuses an update that breaks one of
 * them, so a change under such a path is a replacement: delete, then create. Read from the pinned
 * schemas, never listed by hand.
 */
import { isTransitionRule } from './cel';
import { findKind } from './kinds';
import type { StructuralSchema } from './types';

export interface TransitionRule {
  /** Property path of the node carrying the rule, e.g. `spec.connectSubnets`. */
  path: string;
  /** The rule's message (upstream's words), e.g. `connectSubnets is immutable`. */
  message: string;
  /** The CEL rule itself, e.g. `self == oldSelf`. */
  rule: string;
}

/** The transition rules of `kind` at `apiVersion`, outermost first; none for an unknown kind. */
export function transitionRules(apiVersion: string, kind: string): TransitionRule[] {
  const known = findKind(apiVersion, kind);
  return known ? collect(known.schema, []) : [];
}

/** The distinct paths of transition rules: what `replaceOnChanges` lists. */
export function transitionPaths(apiVersion: string, kind: string): string[] {
  return [...new Set(transitionRules(apiVersion, kind).map((r) => r.path))];
}

function collect(schema: StructuralSchema, path: string[]): TransitionRule[] {
  const here = (schema['x-kubernetes-validations'] ?? [])
    .filter((r) => isTransitionRule(r.rule))
    .map((r) => ({ path: path.join('.'), message: r.message ?? r.rule, rule: r.rule }))
    .filter((r) => r.path !== '');
  const below = Object.entries(schema.properties ?? {}).flatMap(([key, child]) => collect(child, [...path, key]));
  const items = schema.items ? collect(schema.items, [...path.slice(0, -1), `${path[path.length - 1]}[*]`]) : [];
  return [...here, ...below, ...items];
}
