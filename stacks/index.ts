/**
 * The project's Pulumi program: the stack config names a topology file (`ovnk-pulumi:topology`,
 * relative to stacks/, or absolute) or a generated scale topology (`ovnk-pulumi:scale`), and
 * optionally overrides the inventory's zones (`ovnk-pulumi:zones`) and gives the nodes (with their
 * labels and SSH targets) where the file leaves them to `--lab` (`ovnk-pulumi:nodes`,
 * `ovnk-pulumi:targets`); one Cluster renders it, Uplinks and RouteAdvertisements included. The
 * file is loaded and checked by the same code as `ovnk plan -f` (components/topologyFile.ts): what
 * the CLI refuses, the program refuses with the same problems, before registering anything.
 */
import { resolve } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { Cluster, type Layout, topologyFromFiles, type TopologyArgs } from '../components';
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

const cluster = new Cluster(pulumi.getStack(), stackTopology(new pulumi.Config('ovnk-pulumi')));

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
