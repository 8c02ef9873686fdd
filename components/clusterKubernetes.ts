/**
 * A Cluster's Kubernetes mode: every object refused up front as the API server would refuse it
 * (schema and CEL rules), the RouteAdvertisements registered as the Cluster's own children, and
 * the outputs a pipeline reads: the predicted node annotations, the replacements this run
 * implies, and every object's divergence (and what is still pending) once read back.
 */
import * as pulumi from '@pulumi/pulumi';
import {
  type DivergenceReport,
  kubernetesRefusals,
  kubernetesResource,
  mergeReports,
} from '../provider/runtime/kubernetes';
import type { PredictionAudit } from '../provider/runtime/pulumi';
import type { ClusterContext } from './context';
import { type KubernetesChild, kubernetesChild } from './kubernetes';
import type { ClusterNetworkConnectObject, NetworkObject, UplinkObject } from './objects';
import { unresolvedPath } from './plainArgs';
import type { ClusterPrediction } from './resources';
import type { ClusterTarget } from './target';
import type { RouteAdvertisementsObject } from './uplink';

/** The objects of a Cluster's args (ClusterArgs' lists). */
export interface ClusterObjects {
  networks?: NetworkObject[];
  connects?: ClusterNetworkConnectObject[];
  uplinks?: UplinkObject[];
  routeAdvertisements?: RouteAdvertisementsObject[];
}

export interface KubernetesCluster {
  /**
   * Per node: `k8s.ovn.org/node-id` and our networks' `k8s.ovn.org/node-subnets`, as
   * cluster-manager will write them.
   */
  nodeAnnotations: pulumi.Output<Record<string, Record<string, string>>>;
  /** What this run deletes and creates again, and why (upstream refuses those updates). */
  replacements: pulumi.Output<string[]>;
  /** Every object's divergence from the prediction (fail a pipeline on it) and what upstream has not written yet. */
  divergence: pulumi.Output<string[]>;
  pending: pulumi.Output<string[]>;
  /**
   * After `pulumi refresh`, when the stack configures Northbound endpoints (`ovnk:nb`,
   * `ovnk:zoneEndpoints`): whether each zone's Northbound holds what the prediction implies, as
   * `ovnk audit` says it (missing, differing and unexpected rows); undefined otherwise.
   */
  audit: pulumi.Output<PredictionAudit | undefined>;
  /** The RouteAdvertisements custom resources by name. */
  routeAdvertisements: Record<string, KubernetesChild>;
  outputs: Record<string, pulumi.Output<unknown>>;
}

/**
 * Every plain object of the args as the API server gets it; throws every refusal before anything
 * is registered. An object holding an Input is refused by ClusterPrediction's check once its
 * values are known, before any custom resource (they all depend on it) is created.
 */
export function refuseForKubernetes(name: string, args: ClusterObjects): void {
  const bodies = (
    [
      ...(args.networks ?? []),
      ...(args.connects ?? []),
      ...(args.uplinks ?? []),
      ...(args.routeAdvertisements ?? []),
    ] as unknown as Record<string, unknown>[]
  ).filter((body) => unresolvedPath(body, '') === undefined);
  const refusals = kubernetesRefusals(bodies.map(kubernetesResource));
  if (refusals.length > 0)
    throw new Error(
      `Cluster ${name}: the API server would refuse ${refusals.length} field${refusals.length === 1 ? '' : 's'} (upstream's CRD schemas and CEL rules):\n${refusals.map((r) => `  ${r}`).join('\n')}`,
    );
}

type Component = { kubernetes?: KubernetesChild };

export function clusterKubernetes(
  cluster: ClusterContext & pulumi.Resource & { uplinks: Record<string, Component> },
  name: string,
  args: ClusterObjects,
  target: Extract<ClusterTarget, { kind: 'kubernetes' }>,
): KubernetesCluster {
  const prediction = cluster.allocationsResource as ClusterPrediction;
  const routeAdvertisements: Record<string, KubernetesChild> = {};
  for (const ra of args.routeAdvertisements ?? [])
    routeAdvertisements[ra.metadata.name] = kubernetesChild(
      cluster,
      `${name}-ra-${ra.metadata.name}`,
      ra as unknown as Record<string, unknown>,
      target,
      {},
      [prediction, ...Object.values(cluster.networks)],
    );
  const children = [
    ...Object.values(cluster.networks),
    ...Object.values(cluster.connects),
    ...Object.values(cluster.uplinks),
  ].flatMap((c) => ((c as Component).kubernetes ? [(c as Component).kubernetes!] : []));
  const report = pulumi
    .all([...children, ...Object.values(routeAdvertisements)].map((c) => c.divergence))
    .apply((reports: DivergenceReport[]) => mergeReports(reports));
  const result = {
    nodeAnnotations: prediction.annotations.apply((a) => a?.nodes ?? {}),
    replacements: prediction.replacements.apply((r) => r ?? []),
    divergence: report.apply((r) => r.divergence),
    pending: report.apply((r) => r.pending),
    audit: prediction.audit,
  };
  return { ...result, routeAdvertisements, outputs: result };
}
