/**
 * The scale stack's topology, generated: `networks` Layer3 CUDNs (one namespace each), `connects`
 * ClusterNetworkConnects each selecting every network, `nodes` nodes. Pure; the objects are the
 * YAML shapes the components take.
 */
import type { ClusterNetworkConnectObject, Layout, NetworkObject, TopologyArgs } from '../components';

export interface ScaleSpec {
  networks: number;
  connects: number;
  nodes: number;
}

export function scaleTopology(
  spec: ScaleSpec,
  zones: Layout,
): Pick<TopologyArgs, 'inventory' | 'networks' | 'connects'> {
  const indexes = (n: number) => Array.from({ length: n }, (_, i) => i);
  const networks: NetworkObject[] = indexes(spec.networks).map((i) => ({
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterUserDefinedNetwork',
    metadata: { name: `net-${i}`, labels: { scale: 'yes' } },
    spec: {
      namespaceSelector: { matchLabels: { tenant: `t${i}` } },
      network: {
        topology: 'Layer3',
        layer3: {
          role: 'Primary',
          subnets: [{ cidr: `10.${100 + Math.floor(i / 16)}.${(i % 16) * 16}.0/20`, hostSubnet: 28 }],
        },
      },
    },
  }));
  const connects: ClusterNetworkConnectObject[] = indexes(spec.connects).map((i) => ({
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterNetworkConnect',
    metadata: { name: `connect-${i}` },
    spec: {
      networkSelectors: [
        {
          networkSelectionType: 'ClusterUserDefinedNetworks',
          clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { scale: 'yes' } } },
        },
      ],
      connectSubnets: [{ cidr: `172.${20 + i}.0.0/16`, networkPrefix: 24 }],
      connectivity: ['PodNetwork'],
    },
  }));
  const inventory = {
    apiVersion: 'ovnk/v1alpha1' as const,
    kind: 'Inventory' as const,
    metadata: { name: 'scale' },
    spec: {
      zones,
      namespaces: indexes(spec.networks).map((i) => ({ name: `ns-${i}`, labels: { tenant: `t${i}` } })),
      nodes: indexes(spec.nodes).map((i) => ({ name: `node-${i}` })),
    },
  };
  return { inventory, networks, connects };
}

/** Pulumi resources of the stack: the stack, the Cluster and its allocations, plus per layout its children. */
export function resourceCount(spec: ScaleSpec, zones: Layout): number {
  const components = 1 + spec.networks + spec.connects;
  const dynamic = 1 + (zones === 'central' ? spec.networks + spec.connects : spec.nodes);
  return 1 + components + dynamic;
}
