/**
 * The project's Pulumi program: the stack config names a topology file (`ovnk-pulumi:topology`,
 * relative to stacks/) or a generated scale topology (`ovnk-pulumi:scale`), and optionally
 * overrides the inventory's zones (`ovnk-pulumi:zones`) and gives the nodes (with their labels
 * and SSH targets) where the file leaves them to `--lab` (`ovnk-pulumi:nodes`, `ovnk-pulumi:targets`);
 * one Cluster renders it, Uplinks and RouteAdvertisements included.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { parseAllDocuments } from 'yaml';
import {
  Cluster,
  type ClusterArgs,
  type ClusterNetworkConnectObject,
  type InventoryObject,
  type NetworkObject,
  type RouteAdvertisementsObject,
  type UplinkObject,
} from '../components';
import { type ScaleSpec, scaleTopology } from './scale';

type Topology = Required<Pick<ClusterArgs, 'inventory' | 'networks' | 'connects' | 'uplinks' | 'routeAdvertisements'>>;

/** The objects of a YAML file, sorted into the Cluster's args. */
export function topologyFromFile(file: string): Topology {
  const objects = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as { kind?: string });
  const inventory = objects.find((o) => o.kind === 'Inventory');
  if (!inventory) throw new Error(`ovnk-pulumi:topology: ${file} has no Inventory object`);
  return {
    inventory: inventory as InventoryObject,
    networks: objects.filter(
      (o) => o.kind === 'ClusterUserDefinedNetwork' || o.kind === 'UserDefinedNetwork',
    ) as NetworkObject[],
    connects: objects.filter((o) => o.kind === 'ClusterNetworkConnect') as ClusterNetworkConnectObject[],
    uplinks: objects.filter((o) => o.kind === 'Uplink') as UplinkObject[],
    routeAdvertisements: objects.filter((o) => o.kind === 'RouteAdvertisements') as RouteAdvertisementsObject[],
  };
}

function stackTopology(config: pulumi.Config): Topology {
  const zones = config.get('zones') as 'central' | 'per-node' | undefined;
  const scale = config.getObject<ScaleSpec>('scale');
  const topology = scale
    ? { ...scaleTopology(scale, zones ?? 'per-node'), uplinks: [], routeAdvertisements: [] }
    : topologyFromFile(join(__dirname, config.require('topology')));
  const overrides = {
    zones,
    nodes: config.getObject<Record<string, unknown>[]>('nodes'),
    targets: config.getObject<Record<string, unknown>>('targets'),
  };
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
