/**
 * Random topologies, built rather than mutated: an Inventory (families, nodes, namespaces, pods),
 * one to four Layer3 or Layer2 networks (cluster-scoped or namespaced) and up to two
 * ClusterNetworkConnects, whose CIDRs and prefix lengths come from anywhere in the address space,
 * usually near what the planner must avoid (cluster, join, transit, masquerade and service
 * subnets) so that overlaps, shifts and exhaustion are common. Most cases pass the CRD schemas,
 * so the allocators and renderers run, not only the validators.
 */
import fc from 'fast-check';
import { type Cidr, type Family, formatCidr, mask } from '../../provider/model/cidr';

/** Subnets the planner must avoid or defaults to (cluster, join, transit, masquerade, service, connect). */
const reserved: Record<Family, bigint[]> = {
  4: ['10.244.0.0', '100.64.0.0', '100.88.0.0', '169.254.0.0', '10.96.0.0', '192.168.0.0'].map(v4),
  6: ['fd00:10:244::', 'fd98::', 'fd97::', 'fd69::', 'fd00:10:96::', 'fd99::'].map(v6),
};
/** Places nothing else uses. */
const free: Record<Family, bigint[]> = {
  4: ['10.100.0.0', '10.101.0.0', '10.102.0.0', '172.16.0.0', '172.20.0.0', '203.0.113.0'].map(v4),
  6: ['fd10::', 'fd11::', 'fd12::', 'fd13::', '2001:db8::', 'fd20::'].map(v6),
};
/** Places for connect subnets. */
const connectPlaces: Record<Family, bigint[]> = {
  4: ['192.168.0.0', '198.18.0.0', '100.80.0.0'].map(v4),
  6: ['fd99::', 'fd50::', 'fd51::'].map(v6),
};

function v4(text: string): bigint {
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(octet), 0n);
}

function v6(text: string): bigint {
  const [head, tail = ''] = text.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':'));
  const all = [...words(head!), ...Array(8 - words(head!).length - words(tail).length).fill('0'), ...words(tail)];
  return all.reduce((value, word) => (value << 16n) | BigInt(`0x${word}`), 0n);
}

const bits = (family: Family) => (family === 4 ? 32 : 128);

/**
 * A CIDR of `family`: usually in a free place with a prefix in `usual`, sometimes near what the
 * planner avoids, sometimes anywhere with any prefix in [0, max].
 */
function cidr(family: Family, usual: [number, number], max = bits(family), places = free): fc.Arbitrary<Cidr> {
  const width = bits(family);
  const base = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...places[family]) },
    { weight: 1, arbitrary: fc.constantFrom(...reserved[family]) },
    { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: (1n << BigInt(width)) - 1n }) },
  );
  const prefix = fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: usual[0], max: usual[1] }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max }) },
  );
  return fc.tuple(base, prefix).map(([b, p]) => ({ family, base: mask(b, family, p), prefix: p }));
}

/** A Layer3 subnet: IPv6 host subnets are /64 as the CRD wants, mostly; IPv4 ones anywhere after the prefix. */
function layer3Subnet(family: Family): fc.Arbitrary<{ cidr: string; hostSubnet?: number }> {
  return cidr(family, family === 4 ? [8, 26] : [32, 60], family === 4 ? 31 : 127).chain((c) => {
    const usual =
      family === 6 && c.prefix < 64 ? fc.constant(64) : fc.integer({ min: c.prefix + 1, max: bits(family) });
    const hostSubnet = fc.oneof(
      { weight: 4, arbitrary: usual },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: bits(family) }) },
    );
    return fc
      .option(hostSubnet, { freq: 4 })
      .map((h) => ({ cidr: formatCidr(c), ...(h === null ? {} : { hostSubnet: h }) }));
  });
}

/** Connect subnets, one per family; dual-stack keeps upstream's matching host bits, mostly. */
function connectSubnets(families: Family[]): fc.Arbitrary<{ cidr: string; networkPrefix: number }[]> {
  const subnets = fc.tuple(...families.map((f) => cidr(f, f === 4 ? [12, 22] : [96, 118], bits(f), connectPlaces)));
  const hostBits = fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min: 1, max: 8 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 128 }) },
  );
  return fc
    .tuple(subnets, hostBits)
    .map(([cidrs, host]) =>
      cidrs.map((c) => ({ cidr: formatCidr(c), networkPrefix: Math.max(0, bits(c.family) - host) })),
    );
}

const familiesOf = (ipFamilies: string[]): Family[] => ipFamilies.map((f) => (f === 'IPv4' ? 4 : 6));

interface NetworkShape {
  name: string;
  namespaced: boolean;
  topology: 'Layer3' | 'Layer2';
  role: 'Primary' | 'Secondary';
  /** Families of the network's subnets: the cluster's, or one of them. */
  families: Family[];
  joinSubnets: boolean;
}

function network(index: number, cluster: Family[]): fc.Arbitrary<NetworkShape> {
  return fc.record({
    name: fc.constant(`net${index}`),
    namespaced: fc.boolean(),
    topology: fc.constantFrom('Layer3' as const, 'Layer2' as const),
    role: fc.oneof({ weight: 8, arbitrary: fc.constant('Primary' as const) }, fc.constant('Secondary' as const)),
    families: fc.oneof({ weight: 3, arbitrary: fc.constant(cluster) }, fc.subarray(cluster, { minLength: 1 })),
    joinSubnets: fc.boolean(),
  });
}

function networkDocument(shape: NetworkShape): fc.Arbitrary<object> {
  const subnets =
    shape.topology === 'Layer3'
      ? fc.tuple(...shape.families.map(layer3Subnet))
      : fc.tuple(...shape.families.map((f) => cidr(f, f === 4 ? [16, 28] : [48, 112]).map(formatCidr)));
  const join = fc.tuple(...shape.families.map((f) => cidr(f, f === 4 ? [16, 28] : [64, 112]).map(formatCidr)));
  return fc.tuple(subnets, join).map(([list, joinSubnets]) => {
    const body = {
      role: shape.role,
      subnets: list,
      ...(shape.joinSubnets && shape.role === 'Primary' ? { joinSubnets } : {}),
    };
    const network = { topology: shape.topology, [shape.topology === 'Layer3' ? 'layer3' : 'layer2']: body };
    return shape.namespaced
      ? {
          apiVersion: 'k8s.ovn.org/v1',
          kind: 'UserDefinedNetwork',
          metadata: { name: shape.name, namespace: shape.name, labels: { app: 'c' } },
          spec: network,
        }
      : {
          apiVersion: 'k8s.ovn.org/v1',
          kind: 'ClusterUserDefinedNetwork',
          metadata: { name: shape.name, labels: { app: 'c' } },
          spec: { namespaceSelector: { matchLabels: { network: shape.name } }, network },
        };
  });
}

function connectDocument(index: number, cluster: Family[]): fc.Arbitrary<object> {
  return fc
    .record({
      subnets: connectSubnets(cluster),
      udns: fc.boolean(),
      services: fc.boolean(),
    })
    .map(({ subnets, udns, services }) => ({
      apiVersion: 'k8s.ovn.org/v1',
      kind: 'ClusterNetworkConnect',
      metadata: { name: `connect${index}` },
      spec: {
        networkSelectors: [
          {
            networkSelectionType: 'ClusterUserDefinedNetworks',
            clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { app: 'c' } } },
          },
          ...(udns
            ? [
                {
                  networkSelectionType: 'PrimaryUserDefinedNetworks',
                  primaryUserDefinedNetworkSelector: { namespaceSelector: {} },
                },
              ]
            : []),
        ],
        connectSubnets: subnets,
        connectivity: services ? ['PodNetwork', 'ServiceNetwork'] : ['PodNetwork'],
      },
    }));
}

function inventory(
  families: string[],
  nodes: number,
  networks: NetworkShape[],
  pods: [number, number][],
  zones: string,
): object {
  const f = familiesOf(families);
  const pick = <T>(byFamily: Record<Family, T>) => f.map((family) => byFamily[family]);
  const nodeNames = Array.from({ length: nodes }, (_, i) => `node${i}`);
  // Pods live in namespaces a primary network serves, but one in seven may land anywhere.
  const primaries = networks.filter((n) => n.role === 'Primary');
  const home = (net: number) => {
    const among = primaries.length > 0 && net % 7 !== 0 ? primaries : networks;
    return among[net % among.length]!;
  };
  return {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'fuzz' },
    spec: {
      ipFamilies: families,
      zones,
      clusterSubnets: pick({ 4: '10.244.0.0/16', 6: 'fd00:10:244::/48' }),
      serviceCIDRs: pick({ 4: '10.96.0.0/16', 6: 'fd00:10:96::/112' }),
      masqueradeSubnets: pick({ 4: '169.254.0.0/17', 6: 'fd69::/112' }),
      namespaces: networks.map((n) => ({ name: n.name, labels: { network: n.name } })),
      nodes: nodeNames.map((name) => ({ name })),
      pods: pods.map(([net, node], i) => ({
        name: `pod${i}`,
        namespace: home(net).name,
        node: nodeNames[node % nodes],
      })),
    },
  };
}

/** One random topology: its documents, Inventory first. */
export const randomTopology: fc.Arbitrary<object[]> = fc
  .record({
    families: fc.constantFrom<string[]>(['IPv4'], ['IPv6'], ['IPv4', 'IPv6']),
    nodes: fc.integer({ min: 1, max: 6 }),
    networks: fc.integer({ min: 1, max: 4 }),
    connects: fc.integer({ min: 0, max: 2 }),
    pods: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 8 }),
    zones: fc.constantFrom('per-node', 'central'),
  })
  .chain(({ families, nodes, networks, connects, pods, zones }) => {
    const cluster = familiesOf(families);
    return fc
      .tuple(...Array.from({ length: networks }, (_, i) => network(i, cluster)))
      .chain((shapes) =>
        fc
          .tuple(
            fc.tuple(...shapes.map(networkDocument)),
            fc.tuple(...Array.from({ length: connects }, (_, i) => connectDocument(i, cluster))),
          )
          .map(([networkDocs, connectDocs]) => [
            inventory(families, nodes, shapes, pods, zones),
            ...networkDocs,
            ...connectDocs,
          ]),
      );
  });
