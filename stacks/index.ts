/**
 * The project's Pulumi program: the stack config names a topology file (`ovnk-pulumi:topology`,
 * relative to stacks/, or absolute) or a generated scale topology (`ovnk-pulumi:scale`), and
 * optionally overrides the inventory's zones (`ovnk-pulumi:zones`) and gives the nodes (with their
 * labels and SSH targets) where the file leaves them to `--lab` (`ovnk-pulumi:nodes`,
 * `ovnk-pulumi:targets`); one Cluster renders it, Uplinks and RouteAdvertisements included. The
 * file is loaded and checked by the same code as `ovnk plan -f` (components/topologyFile.ts): what
 * the CLI refuses, the program refuses with the same problems, before registering anything.
 *
 * `ovnk-pulumi:target: kubernetes` (the `kubernetes` stack) registers upstream's objects through
 * @pulumi/kubernetes instead, with a provider on the kubeconfig context `ovnk-pulumi:kubeconfigContext`
 * (the ambient kubeconfig's current context when unset), and `ovnk-pulumi:inventory` may name an
 * Inventory written by `ovnk inventory`, which replaces the file's, so predictions start from the
 * cluster's real state.
 */
import { resolve } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import {
  Cluster,
  type ClusterTarget,
  kubernetesTarget,
  type Layout,
  northbound,
  topologyFromFiles,
  type TopologyArgs,
} from '../components';
import { type ScaleSpec, scaleTopology } from './scale';

/** The stack's topology: generated (scale), or its file read and refused as `ovnk plan -f` does. */
function stackTopology(config: pulumi.Config): TopologyArgs {
  const zones = config.get('zones') as Layout | undefined;
  const overrides = {
    zones,
    nodes: config.getObject<Record<string, unknown>[]>('nodes'),
    targets: config.getObject<Record<string, unknown>>('targets'),
  };
  const scale = config.getObject<ScaleSpec>('scale');
  if (!scale) return topologyFromFiles([resolve(__dirname, config.require('topology'))], overrides);
  const topology = { ...scaleTopology(scale, zones ?? 'per-node'), uplinks: [], routeAdvertisements: [] };
  const spec = {
    ...topology.inventory.spec,
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  };
  return { ...topology, inventory: { ...topology.inventory, spec } };
}

/** The cluster's Inventory read by `ovnk inventory` (config `inventory`), in place of the topology file's. */
function withClusterInventory(config: pulumi.Config, topology: TopologyArgs): TopologyArgs {
  const file = config.get('inventory');
  return file ? { ...topology, inventory: topologyFromFiles([resolve(__dirname, file)]).inventory } : topology;
}

/** Northbound, or Kubernetes through a provider on the configured kubeconfig context. */
function stackTarget(config: pulumi.Config): ClusterTarget {
  if (config.get('target') !== 'kubernetes') return northbound;
  // Loaded only here: Northbound stacks never need @pulumi/kubernetes.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const k8s = require('@pulumi/kubernetes') as typeof import('@pulumi/kubernetes');
  const context = config.get('kubeconfigContext');
  return kubernetesTarget(new k8s.Provider('kubernetes', context ? { context } : {}));
}

const config = new pulumi.Config('ovnk-pulumi');
const cluster = new Cluster(pulumi.getStack(), {
  ...withClusterInventory(config, stackTopology(config)),
  target: stackTarget(config),
});

export const allocations = cluster.allocations;
export const networks = Object.fromEntries(
  Object.entries(cluster.networks).map(([name, n]) => [name, { id: n.networkId, router: n.routerName }]),
);
export const uplinkStates = Object.fromEntries(
  Object.entries(cluster.uplinks).map(([name, u]) => [name, u.uplinkStates]),
);
export const connects = Object.fromEntries(
  Object.entries(cluster.connects).map(([name, c]) => [name, { router: c.routerName, tunnelKey: c.tunnelKey }]),
);

/**
 * Kubernetes mode: what this run replaces and why, the predicted node annotations, and the
 * divergence a pipeline fails on.
 */
export const kubernetes = cluster.kubernetes && {
  replacements: cluster.kubernetes.replacements,
  nodeAnnotations: cluster.kubernetes.nodeAnnotations,
  divergence: cluster.kubernetes.divergence,
  pending: cluster.kubernetes.pending,
};
