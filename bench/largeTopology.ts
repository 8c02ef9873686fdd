/**
 * The large topology of the issues' benchmarks, as one YAML text: 16 connects of 30 Layer3
 * networks each (networkPrefix 22) over 500 nodes, optionally with extra networks in group 0
 * (the "one network added" change). The allocation and the connect-rows benchmarks share it.
 */
import { stringify } from 'yaml';

export const largeTopology = { connects: 16, perConnect: 30, nodes: 500 } as const;

function network(i: number, group: number): object {
  const base = i * 32;
  return {
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterUserDefinedNetwork',
    metadata: { name: `net-${String(i).padStart(3, '0')}`, labels: { group: `g${group}` } },
    spec: {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': `ns-${i}` } },
      network: {
        topology: 'Layer3',
        layer3: { role: 'Primary', subnets: [{ cidr: `10.${base >> 8}.${base & 255}.0/19`, hostSubnet: 28 }] },
      },
    },
  };
}

function connect(k: number): object {
  return {
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterNetworkConnect',
    metadata: { name: `connect-${String(k).padStart(2, '0')}` },
    spec: {
      networkSelectors: [
        {
          networkSelectionType: 'ClusterUserDefinedNetworks',
          clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { group: `g${k}` } } },
        },
      ],
      connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 22 }],
      connectivity: ['PodNetwork'],
    },
  };
}

/** The topology text; `extraNetworks` more networks join connect 0. */
export function largeTopologyText(extraNetworks = 0): string {
  const { connects, perConnect, nodes } = largeTopology;
  const count = connects * perConnect + extraNetworks;
  const inventory = {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'bench' },
    spec: {
      clusterSubnets: ['172.20.0.0/16'],
      namespaces: Array.from({ length: count }, (_, i) => ({ name: `ns-${i}` })),
      nodes: Array.from({ length: nodes }, (_, i) => ({
        name: `node-${String(i).padStart(3, '0')}`,
        chassisId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      })),
    },
  };
  const group = (i: number) => (i < connects * perConnect ? Math.floor(i / perConnect) : 0);
  const objects = [
    inventory,
    ...Array.from({ length: count }, (_, i) => network(i, group(i))),
    ...Array.from({ length: connects }, (_, k) => connect(k)),
  ];
  return objects.map((o) => stringify(o)).join('---\n');
}
