/**
 * The project's Pulumi program: the stack config names a topology file (`ovnk-pulumi:topology`,
 * relative to stacks/) or a generated scale topology (`ovnk-pulumi:scale`), and optionally
 * overrides the inventory's zones (`ovnk-pulumi:zones`); one Cluster renders it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { parseAllDocuments } from 'yaml';
import { Cluster, type ClusterArgs, type ClusterNetworkConnectObject, type InventoryObject, type NetworkObject } from '../components';
import { type ScaleSpec, scaleTopology } from './scale';

type Topology = Required<Pick<ClusterArgs, 'inventory' | 'networks' | 'connects'>>;

/** The objects of a YAML file, sorted into the Cluster's args. */
export function topologyFromFile(file: string): Topology {
  const objects = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as { kind?: string });
  const inventory = objects.find((o) => o.kind === 'Inventory');
  if (!inventory) throw new Error(`ovnk-pulumi:topology: ${file} has no Inventory object`);
  return {
    inventory: inventory as InventoryObject,
    networks: objects.filter((o) => o.kind === 'ClusterUserDefinedNetwork' || o.kind === 'UserDefinedNetwork') as NetworkObject[],
    connects: objects.filter((o) => o.kind === 'ClusterNetworkConnect') as ClusterNetworkConnectObject[],
  };
}

function stackTopology(config: pulumi.Config): Topology {
  const zones = config.get('zones') as 'central' | 'per-node' | undefined;
  const scale = config.getObject<ScaleSpec>('scale');
  const topology = scale ? scaleTopology(scale, zones ?? 'per-node') : topologyFromFile(join(__dirname, config.require('topology')));
  return zones ? { ...topology, inventory: { ...topology.inventory, spec: { ...topology.inventory.spec, zones } } } : topology;
}

const cluster = new Cluster(pulumi.getStack(), stackTopology(new pulumi.Config('ovnk-pulumi')));

export const allocations = cluster.allocations;
export const networks = Object.fromEntries(Object.entries(cluster.networks).map(([name, n]) => [name, { id: n.networkId, router: n.routerName }]));
export const connects = Object.fromEntries(Object.entries(cluster.connects).map(([name, c]) => [name, { router: c.routerName, tunnelKey: c.tunnelKey }]));
