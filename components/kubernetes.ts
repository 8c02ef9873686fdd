/**
 * Kubernetes mode's children: one @pulumi/kubernetes CustomResource per upstream object
 * (`kubernetes:<apiVersion>:<Kind>`), parented to the component it belongs to, with the CRD's
 * transition-rule paths as `replaceOnChanges` and `deleteBeforeReplace` (upstream refuses those
 * updates; a replacement must delete first, as the name stays), and its divergence from the
 * prediction once the provider has read it back. @pulumi/kubernetes is an optional peer
 * dependency: it is loaded here, on first use, so Northbound mode never needs it.
 */
import * as pulumi from '@pulumi/pulumi';
import {
  divergenceOf,
  type DivergenceReport,
  type KubernetesResource,
  kubernetesResource,
} from '../provider/runtime/kubernetes';
import { unresolvedPath } from './plainArgs';
import type { ClusterTarget } from './target';

/** The part of @pulumi/kubernetes Kubernetes mode uses (so our declarations do not need it). */
export interface KubernetesModule {
  apiextensions: {
    CustomResource: new (
      name: string,
      args: Record<string, unknown>,
      opts?: pulumi.CustomResourceOptions,
    ) => pulumi.CustomResource;
  };
}

/** @pulumi/kubernetes, or an error saying how to install it. `load` is the module loader (tests give their own). */
export function loadKubernetes(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  load: () => unknown = () => require('@pulumi/kubernetes'),
): KubernetesModule {
  try {
    return load() as KubernetesModule;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(
      'Kubernetes mode (target kind "kubernetes") needs @pulumi/kubernetes, an optional peer dependency of ovnk-pulumi: install it in your Pulumi project (npm install @pulumi/kubernetes@^4)',
      { cause: error },
    );
  }
}

/** A registered upstream object and what it says once read back. */
export interface KubernetesChild {
  resource: pulumi.CustomResource;
  /** The live object's metadata and status, as the kubernetes provider last read them. */
  live: pulumi.Output<{ metadata?: unknown; status?: unknown }>;
  divergence: pulumi.Output<DivergenceReport>;
}

/** Plain JSON: parsed input has prototype-free records, which the SDK cannot print. */
const plainJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * The custom resource's args: the object as plain JSON, or, where its metadata or spec holds an
 * Input (a CIDR from another resource), those parts as Outputs of plain JSON; kind, apiVersion
 * and the name are plain (plainArgs.ts).
 */
function customResourceArgs(object: KubernetesResource['object']): Record<string, unknown> {
  if (unresolvedPath(object, '') === undefined) return plainJson(object) as Record<string, unknown>;
  const { metadata, spec, ...rest } = object;
  return {
    ...(plainJson(rest) as Record<string, unknown>),
    metadata: pulumi.output(metadata as pulumi.Input<Record<string, unknown>>).apply(plainJson),
    spec: pulumi.output(spec as pulumi.Input<Record<string, unknown>>).apply(plainJson),
  };
}

/** Register `body` (an upstream object as the user wrote it) under `parent`; `predicted`: its annotations. */
export function kubernetesChild(
  parent: pulumi.Resource,
  name: string,
  body: Record<string, unknown>,
  target: Extract<ClusterTarget, { kind: 'kubernetes' }>,
  predicted: pulumi.Input<Record<string, string>>,
  dependsOn: pulumi.Input<pulumi.Resource>[],
): KubernetesChild {
  const k8s = loadKubernetes();
  const spec = kubernetesResource(body);
  const resource = new k8s.apiextensions.CustomResource(
    name,
    { ...customResourceArgs(spec.object), status: undefined },
    {
      parent,
      dependsOn,
      ...(target.provider ? { provider: target.provider } : {}),
      ...(spec.replaceOnChanges.length > 0
        ? { replaceOnChanges: spec.replaceOnChanges, deleteBeforeReplace: true }
        : {}),
    },
  );
  const outputs = resource as unknown as { metadata: pulumi.Output<unknown>; status: pulumi.Output<unknown> };
  const live = pulumi.all([outputs.metadata, outputs.status]).apply(([metadata, status]) => ({ metadata, status }));
  const divergence = pulumi
    .all([pulumi.output(predicted), live])
    .apply(([p, l]) => divergenceOf(spec.ref, p, l as Parameters<typeof divergenceOf>[2]));
  return { resource, live, divergence };
}
