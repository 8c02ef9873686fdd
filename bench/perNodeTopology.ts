/**
 * The per-node scale file of issue 25: `nodes` nodes, each its own zone (upstream's layout),
 * `namespaces` namespaces, and 16 networks over them (8 Layer3, 8 Layer2, each selecting its
 * share of the namespaces by label), the first 4 joined by one connect. The same text with `zones: central`
 * is the same-run baseline (one Northbound for all).
 */
import { stringify } from 'yaml';

export interface PerNodeSize {
  nodes: number;
  namespaces: number;
}

const NETWORKS = 16;

function network(i: number): object {
  const layer3 = i % 2 === 0;
  return {
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterUserDefinedNetwork',
    metadata: { name: `net-${String(i).padStart(2, '0')}`, labels: { scale: i < 4 ? 'connected' : 'alone' } },
    spec: {
      namespaceSelector: { matchLabels: { group: `g${i}` } },
      network: layer3
        ? {
            topology: 'Layer3',
            layer3: { role: 'Primary', subnets: [{ cidr: `10.${64 + i * 4}.0.0/14`, hostSubnet: 26 }] },
          }
        : { topology: 'Layer2', layer2: { role: 'Primary', subnets: [`10.${128 + i}.0.0/16`] } },
    },
  };
}

const connect = {
  apiVersion: 'k8s.ovn.org/v1',
  kind: 'ClusterNetworkConnect',
  metadata: { name: 'scale' },
  spec: {
    networkSelectors: [
      {
        networkSelectionType: 'ClusterUserDefinedNetworks',
        clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { scale: 'connected' } } },
      },
    ],
    connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 20 }],
    connectivity: ['PodNetwork'],
  },
};

export function perNodeTopologyText({ nodes, namespaces }: PerNodeSize, zones: 'per-node' | 'central'): string {
  const inventory = {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'scale' },
    spec: {
      zones,
      clusterSubnets: ['10.244.0.0/14'],
      namespaces: Array.from({ length: namespaces }, (_, i) => ({
        name: `ns-${i}`,
        labels: { group: `g${i % NETWORKS}` },
      })),
      nodes: Array.from({ length: nodes }, (_, i) => ({
        name: `node-${String(i).padStart(4, '0')}`,
        chassisId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      })),
    },
  };
  const objects = [inventory, ...Array.from({ length: NETWORKS }, (_, i) => network(i)), connect];
  return objects.map((o) => stringify(o)).join('---\n');
}
