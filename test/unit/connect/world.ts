/** Small builders for test clusters: plain objects in, the YAML text `ovnk plan` reads out. */
import { stringify } from 'yaml';

export interface WorldOptions {
  namespaces?: { name: string; labels?: Record<string, string> }[];
  nodes?: number;
  inventory?: Record<string, unknown>;
}

export function inventory(options: WorldOptions = {}): object {
  const nodes = Array.from({ length: options.nodes ?? 2 }, (_, i) => ({ name: `node-${i}` }));
  return {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'lab' },
    spec: { namespaces: options.namespaces ?? [], nodes, ...options.inventory },
  };
}

export function cudn(
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
  return {
    apiVersion: 'k8s.ovn.org/v1',
    kind: 'ClusterUserDefinedNetwork',
    metadata: { name, labels: extra.labels ?? { connect: 'yes' } },
    spec: {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
      network: {
        topology,
        ...(extra.transport ? { transport: extra.transport } : {}),
        ...transportConfig(extra.transport, topology),
        [key]: {
          role: extra.role ?? 'Primary',
          subnets,
          ...(topology === 'Localnet' ? { physicalNetworkName: 'physnet' } : {}),
          ...(extra.joinSubnets ? { joinSubnets: extra.joinSubnets } : {}),
        },
      },
    },
  };
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

export function yamlOf(objects: object[]): string {
  return objects.map((o) => stringify(o)).join('---\n');
}

/** Namespaces ns-0..ns-(n-1) for networks net-0.. */
export function namespaces(n: number): { name: string }[] {
  return Array.from({ length: n }, (_, i) => ({ name: `ns-${i}` }));
}

/** Layer3 CUDN net-i serving ns-i with 10.(i+1).0.0/16. */
export function layer3(i: number, extra: Parameters<typeof cudn>[3] = {}): object {
  return cudn(`net-${i}`, `ns-${i}`, [{ cidr: `10.${i + 1}.0.0/16`, hostSubnet: 24 }], extra);
}
