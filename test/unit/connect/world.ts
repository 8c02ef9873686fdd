/**
 * The connect tests' world, built with test/support/objects.ts's builders: the Inventory `lab`
 * with nodes node-0.., CUDN net-i serving namespace ns-i, and ClusterNetworkConnects choosing the
 * CUDNs labelled `connect: yes`. The YAML text comes from objects.ts's yamlOf.
 */
import { cudn, inventory } from '../../support/objects';

export interface WorldOptions {
  namespaces?: { name: string; labels?: Record<string, string> }[];
  nodes?: number;
  inventory?: Record<string, unknown>;
}

/** The Inventory `lab`: nodes node-0.. (2 unless told), the namespaces given, and more of its spec. */
export function labInventory(options: WorldOptions = {}): object {
  const nodes = Array.from({ length: options.nodes ?? 2 }, (_, i) => ({ name: `node-${i}` }));
  return inventory('lab', { namespaces: options.namespaces ?? [], nodes, ...options.inventory });
}

/** CUDN `name` serving namespace `namespace` with `subnets`, labelled for the connects (`connect: yes`) unless told. */
export function namespaceCudn(
  name: string,
  namespace: string,
  subnets: unknown[],
  extra: {
    topology?: string;
    role?: string;
    labels?: Record<string, string>;
    transport?: string;
    joinSubnets?: string[];
  } = {},
): object {
  const topology = extra.topology ?? 'Layer3';
  const key = topology === 'Layer3' ? 'layer3' : topology === 'Layer2' ? 'layer2' : 'localnet';
  const network = {
    topology,
    ...(extra.transport ? { transport: extra.transport } : {}),
    ...transportConfig(extra.transport, topology),
    [key]: {
      role: extra.role ?? 'Primary',
      subnets,
      ...(topology === 'Localnet' ? { physicalNetworkName: 'physnet' } : {}),
      ...(extra.joinSubnets ? { joinSubnets: extra.joinSubnets } : {}),
    },
  };
  return cudn(name, network, {
    labels: extra.labels ?? { connect: 'yes' },
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
  });
}

/** The config the CRD requires with a transport (upstream's valid-scenarios-{no-overlay,evpn}.go). */
function transportConfig(transport: string | undefined, topology: string): object {
  if (transport === 'NoOverlay') return { noOverlay: { outboundSNAT: 'Enabled', routing: 'Managed' } };
  if (transport !== 'EVPN') return {};
  return {
    evpn: { vtep: 'evpn-vtep', ...(topology === 'Layer2' ? { macVRF: { vni: 100 } } : { ipVRF: { vni: 200 } }) },
  };
}

export function cnc(name: string, spec: Record<string, unknown> = {}, annotations?: Record<string, string>): object {
  return {
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterNetworkConnect',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: {
      networkSelectors: [
        {
          networkSelectionType: 'ClusterUserDefinedNetworks',
          clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { connect: 'yes' } } },
        },
      ],
      connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 24 }],
      connectivity: ['PodNetwork'],
      ...spec,
    },
  };
}

/** Namespaces ns-0..ns-(n-1) for networks net-0.. */
export function namespaces(n: number): { name: string }[] {
  return Array.from({ length: n }, (_, i) => ({ name: `ns-${i}` }));
}

/** Layer3 CUDN net-i serving ns-i with 10.(i+1).0.0/16. */
export function numberedLayer3(i: number, extra: Parameters<typeof namespaceCudn>[3] = {}): object {
  return namespaceCudn(`net-${i}`, `ns-${i}`, [{ cidr: `10.${i + 1}.0.0/16`, hostSubnet: 24 }], extra);
}
