/**
 * The custom resources Kubernetes mode registers: one per upstream object given to a Cluster, as
 * the API server gets it (model/kubeObjects.ts), with the paths whose change upstream refuses
 * (the CRD's transition rules) as `replaceOnChanges`. Problems are every refusal the API server's
 * schema and CEL rules would make; the components throw them before registering anything.
 */
import { sameJson } from '../../model/canonical';
import { brokenRules, transitionPaths, transitionRules } from '../../model/crd';
import {
  emittedKinds,
  type KubernetesObject,
  kubernetesObject,
  kubernetesObjectProblems,
} from '../../model/kubeObjects';
import { problemLine } from '../input';

export interface KubernetesResource {
  /** `Kind/name` or `Kind/namespace/name`. */
  ref: string;
  object: KubernetesObject;
  /** Pulumi property paths (`spec.connectSubnets`): a change there deletes the object and creates it again. */
  replaceOnChanges: string[];
}

export function kubernetesResource(body: Record<string, unknown>): KubernetesResource {
  const object = kubernetesObject(body);
  const { namespace, name } = object.metadata;
  const ref = [object.kind, namespace, name].filter((p) => p !== undefined).join('/');
  return { ref, object, replaceOnChanges: transitionPaths(object.apiVersion, object.kind) };
}

/**
 * Every object's refusals as one message per problem (`<Kind>/<name>: <path>: <message>`), or an
 * object of a kind Kubernetes mode never registers. Empty when the API server would take them all.
 */
export function kubernetesRefusals(resources: readonly KubernetesResource[]): string[] {
  const foreign = resources
    .filter((r) => !emittedKinds.includes(r.object.kind))
    .map((r) => `${r.ref}: kind ${r.object.kind} is not registered in Kubernetes mode (${emittedKinds.join(', ')})`);
  const problems = kubernetesObjectProblems(resources.map((r) => r.object));
  return [...foreign, ...problems.map((p) => problemLine(p))];
}

/**
 * The replacements between two versions of one object: each transition-rule path whose value
 * changed, with upstream's message. What preview says next to Pulumi's `replace`.
 */
export function replacementsOf(old: Record<string, unknown>, now: Record<string, unknown>): string[] {
  const before = kubernetesResource(old);
  const after = kubernetesResource(now);
  const refused = new Set(brokenRules(after.object, before.object));
  const byPath = new Map<string, string[]>();
  for (const rule of transitionRules(after.object.apiVersion, after.object.kind)) {
    const path = rule.path.split('[*]')[0]!;
    if (sameJson(valueAt(before.object, path), valueAt(after.object, path))) continue;
    const messages = byPath.get(path) ?? [];
    if (refused.has(rule.rule)) messages.push(rule.message);
    byPath.set(path, messages);
  }
  return [...byPath].map(([path, messages]) =>
    messages.length > 0
      ? `${after.ref}: ${path} changed and upstream refuses that update (${messages.map((m) => `"${m}"`).join(', ')}): the object is deleted, then created`
      : `${after.ref}: ${path} changed; upstream's rules there would allow this update, but every change under a path with a transition rule replaces the object: it is deleted, then created`,
  );
}

function valueAt(object: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node !== null && typeof node === 'object' ? (node as never)[key] : undefined),
      object,
    );
}
