import { describe, expect, it } from 'vitest';
import { allocateTopology } from '../../../provider/runtime/plan';
import { yamlOf } from '../../support/objects';
import { cnc, namespaceCudn, labInventory, numberedLayer3, namespaces } from './world';

/** The problems of connect `c` in a plan of two Layer3 networks plus `extra` objects. */
function problemsOf(connect: object, extra: object[] = [], options: Parameters<typeof labInventory>[0] = {}) {
  const outcome = allocateTopology(
    yamlOf(
      labInventory({ namespaces: namespaces(4), ...options }),
      numberedLayer3(0),
      numberedLayer3(1),
      ...extra,
      connect,
    ),
  );
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.allocated.allocation.connects.c!.problems;
}

describe('CRD and CEL rules of ClusterNetworkConnect', () => {
  it.each([
    ['a missing networkSelectors', { networkSelectors: undefined }, 'spec.networkSelectors: Required value'],
    [
      'an empty networkSelectors',
      { networkSelectors: [] },
      'spec.networkSelectors in body should have at least 1 items',
    ],
    [
      'six network selectors',
      {
        networkSelectors: Array(6).fill({
          networkSelectionType: 'PrimaryUserDefinedNetworks',
          primaryUserDefinedNetworkSelector: { namespaceSelector: {} },
        }),
      },
      'spec.networkSelectors: Too many: 6: must have at most 5 items',
    ],
    [
      'an unknown selection type',
      { networkSelectors: [{ networkSelectionType: 'InvalidType' }] },
      'spec.networkSelectors[0].networkSelectionType: Unsupported value: "InvalidType"',
    ],
    [
      'the default network',
      { networkSelectors: [{ networkSelectionType: 'DefaultNetwork' }] },
      'Only ClusterUserDefinedNetworks or PrimaryUserDefinedNetworks can be selected',
    ],
    [
      'a type without its selector',
      { networkSelectors: [{ networkSelectionType: 'PrimaryUserDefinedNetworks' }] },
      'Inconsistent selector: both networkSelectionType PrimaryUserDefinedNetworks and primaryUserDefinedNetworkSelector have to be set or neither',
    ],
    ['a missing connectSubnets', { connectSubnets: undefined }, 'spec.connectSubnets: Required value'],
    [
      'three connect subnets',
      { connectSubnets: [1, 2, 3].map((i) => ({ cidr: `10.${i}.0.0/16`, networkPrefix: 24 })) },
      'spec.connectSubnets: Too many: 3: must have at most 2 items',
    ],
    [
      'a CIDR with host bits',
      { connectSubnets: [{ cidr: '192.168.0.1/16', networkPrefix: 24 }] },
      /CIDR must be a valid network address/,
    ],
    [
      'a CIDR that is not one',
      { connectSubnets: [{ cidr: 'not-a-cidr', networkPrefix: 24 }] },
      /CIDR must be a valid network address/,
    ],
    [
      'networkPrefix 0',
      { connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 0 }] },
      'spec.connectSubnets[0].networkPrefix in body should be greater than or equal to 1',
    ],
    [
      'networkPrefix 128',
      { connectSubnets: [{ cidr: 'fd01::/64', networkPrefix: 128 }] },
      'spec.connectSubnets[0].networkPrefix in body should be less than or equal to 127',
    ],
    [
      'networkPrefix not longer than the CIDR',
      { connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 16 }] },
      /NetworkPrefix must be longer than the CIDR prefix length/,
    ],
    [
      'IPv4 networkPrefix 32',
      { connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 32 }] },
      'NetworkPrefix must < 32 for ipv4 CIDR',
    ],
    [
      'two IPv4 CIDRs',
      {
        connectSubnets: [
          { cidr: '192.168.0.0/16', networkPrefix: 24 },
          { cidr: '10.0.0.0/16', networkPrefix: 24 },
        ],
      },
      'When 2 CIDRs are set, they must be from different IP families',
    ],
    [
      'dual-stack /16 p24 + fd01::/48 p64',
      {
        connectSubnets: [
          { cidr: '192.168.0.0/16', networkPrefix: 24 },
          { cidr: 'fd01::/48', networkPrefix: 64 },
        ],
      },
      'For dual-stack, networkPrefix must have matching host bits: (32 - ipv4NetworkPrefix) must equal (128 - ipv6NetworkPrefix)',
    ],
    ['a missing connectivity', { connectivity: undefined }, 'spec.connectivity: Required value'],
    [
      'three connectivity values',
      { connectivity: ['PodNetwork', 'ServiceNetwork', 'PodNetwork'] },
      'spec.connectivity: Too many: 3: must have at most 2 items',
    ],
    [
      'an unknown connectivity',
      { connectivity: ['InvalidConnectivity'] },
      /spec.connectivity\[0\]: Unsupported value: "InvalidConnectivity"/,
    ],
    [
      'duplicate connectivity',
      { connectivity: ['PodNetwork', 'PodNetwork'] },
      'connectivity cannot contain duplicate values',
    ],
  ])('refuses %s before anything is computed, in the API server words', (_name, spec, message) => {
    const outcome = allocateTopology(
      yamlOf(labInventory({ namespaces: namespaces(4) }), numberedLayer3(0), numberedLayer3(1), cnc('c', spec)),
    );
    expect(outcome.ok).toBe(false);
    const problems = outcome.ok ? [] : outcome.problems;
    expect(problems.every((p) => p.object === 'ClusterNetworkConnect/c')).toBe(true);
    expect(problems.map((p) => p.message)).toContainEqual(
      typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message),
    );
  });

  it("refuses an In expression without values as the connect's problem (the selector conversion, not the CRD)", () => {
    const spec = {
      networkSelectors: [
        {
          networkSelectionType: 'PrimaryUserDefinedNetworks',
          primaryUserDefinedNetworkSelector: {
            namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] },
          },
        },
      ],
    };
    expect(problemsOf(cnc('c', spec)).map((p) => [p.reason, p.message])).toContainEqual([
      'InvalidSpec',
      'spec.networkSelectors[0].primaryUserDefinedNetworkSelector.namespaceSelector.matchExpressions[0]: operator In needs at least one value',
    ]);
  });

  it.each([
    ['192.168.0.0/16 p24', [{ cidr: '192.168.0.0/16', networkPrefix: 24 }]],
    [
      '192.168.0.0/16 p24 + fd01::/112 p120',
      [
        { cidr: '192.168.0.0/16', networkPrefix: 24 },
        { cidr: 'fd01::/112', networkPrefix: 120 },
      ],
    ],
  ])('accepts %s, as the apiserver does', (_name, connectSubnets) => {
    expect(problemsOf(cnc('c', { connectSubnets }))).toEqual([]);
  });
});

describe('OKEP reasons', () => {
  it.each([
    [
      'the service CIDR',
      { inventory: { serviceCIDRs: ['192.168.0.0/24'] } },
      [],
      'validation failed for CNC c: cluster subnets overlap with cluster network connect subnets: service subnet with subnets [192.168.0.0/24] and ClusterNetworkConnect.connectSubnets with subnets [192.168.0.0/16]',
    ],
    [
      'the masquerade subnet',
      { inventory: { masqueradeSubnets: ['192.168.0.0/29', 'fd69::/125'] } },
      [],
      /masquerade subnet with subnets \[192.168.0.0\/29 fd69::\/125\]/,
    ],
    [
      'the default network cluster subnet',
      { inventory: { clusterSubnets: ['192.168.0.0/20'] } },
      [],
      /default network cluster subnet/,
    ],
    [
      'a node host-subnet pin',
      { inventory: { nodes: [{ name: 'n', hostSubnets: { x: ['192.168.9.0/24'] } }] } },
      [],
      /node n host subnet of x/,
    ],
  ])('reports ConnectSubnetConflict with %s', (_name, options, extra, message) => {
    const problems = problemsOf(cnc('c'), extra, options as Parameters<typeof labInventory>[0]);
    expect(problems).toContainEqual(
      expect.objectContaining({
        reason: 'ConnectSubnetConflict',
        path: 'ClusterNetworkConnect/c: spec.connectSubnets',
        message: typeof message === 'string' ? message : expect.stringMatching(message),
      }),
    );
  });

  it("reports ConnectSubnetConflict with a selected network's pod, join and Layer3 transit subnets", () => {
    const own = namespaceCudn('net-2', 'ns-2', [{ cidr: '192.168.128.0/20', hostSubnet: 24 }]);
    expect(problemsOf(cnc('c'), [own])).toContainEqual(
      expect.objectContaining({
        message:
          'validation failed for CNC c: selected networks overlap with cluster network connect subnets: network cluster_udn_net-2 with subnets [192.168.128.0/20/24] and ClusterNetworkConnect.connectSubnets with subnets [192.168.0.0/16]',
      }),
    );
    expect(
      problemsOf(cnc('c', { connectSubnets: [{ cidr: '100.65.0.0/24', networkPrefix: 28 }] })).map((p) => p.message),
    ).toContainEqual(
      expect.stringMatching(/network cluster_udn_net-0 with join subnets \[100.65.0.0\/16 fd99::\/64\]/),
    );
    expect(
      problemsOf(cnc('c', { connectSubnets: [{ cidr: '100.88.0.0/24', networkPrefix: 28 }] })).map((p) => p.message),
    ).toContainEqual(expect.stringMatching(/with Layer3 transit subnets/));
  });

  it('reports OverlappingNetworkSubnets for two selected networks with overlapping pod subnets', () => {
    const twin = namespaceCudn('net-2', 'ns-2', [{ cidr: '10.1.128.0/17', hostSubnet: 24 }]);
    expect(problemsOf(cnc('c'), [twin])).toContainEqual(
      expect.objectContaining({
        reason: 'OverlappingNetworkSubnets',
        message:
          // upstream's validateCNC + CheckNetworksOverlap: the later network first, plain CIDRs
          'validation failed for CNC c: can not connect selected networks: selected networks have overlapping subnets: network cluster_udn_net-2 with subnets [10.1.128.0/17] and network cluster_udn_net-0 with subnets [10.1.0.0/16]',
      }),
    );
  });

  it('reports IPFamilyMismatch for an IPv4-only and an IPv6-only network, and for a missing connect family', () => {
    const v6 = namespaceCudn('net-2', 'ns-2', [{ cidr: 'fd00:2::/48', hostSubnet: 64 }]);
    const messages = problemsOf(cnc('c'), [v6])
      .filter((p) => p.reason === 'IPFamilyMismatch')
      .map((p) => p.message);
    expect(messages).toEqual([
      'IP family conflict: connected network cluster_udn_net-0 has only ipv4 subnets, but another connected network cluster_udn_net-2 has only ipv6 subnets',
      'IP family conflict: connected network cluster_udn_net-2 is ipv6-only but connectSubnets do not contain an ipv6 subnet',
    ]);
  });

  // upstream has no such check (clustermanager/networkconnect/controller_test.go "1. CNC created
  // with 0 matching networks only has tunnel ID annotation"): a warning, never a refusal
  it('warns InsufficientNetworks when fewer than two networks are selected, and refuses nothing', () => {
    const lonely = cnc('c', {
      networkSelectors: [
        {
          networkSelectionType: 'PrimaryUserDefinedNetworks',
          primaryUserDefinedNetworkSelector: {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ns-0' } },
          },
        },
      ],
    });
    expect(problemsOf(lonely)).toEqual([]);
    const outcome = allocateTopology(
      yamlOf(labInventory({ namespaces: namespaces(4) }), numberedLayer3(0), numberedLayer3(1), lonely),
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
    expect(outcome.allocated.allocation.connects.c!.warnings).toEqual([
      {
        reason: 'InsufficientNetworks',
        object: 'ClusterNetworkConnect/c',
        path: 'ClusterNetworkConnect/c: spec.networkSelectors',
        message:
          'only 1 network is selected, minimum 2 networks required for connection: the connect router is made and networks join it as they are selected',
      },
    ]);
  });

  it.each([
    ['a secondary network', { role: 'Secondary' }],
    ['a localnet network', { topology: 'Localnet', role: 'Secondary' }],
  ])(
    'leaves %s out without a problem, as upstream skips it (cluster_network_connect.go discoverSelectedNetworks)',
    (_n, extra) => {
      const subnets = 'topology' in extra ? ['10.3.0.0/16'] : [{ cidr: '10.3.0.0/16', hostSubnet: 24 }];
      const extraNetwork = namespaceCudn('net-2', 'ns-2', subnets, extra);
      const outcome = allocateTopology(
        yamlOf(
          labInventory({ namespaces: namespaces(4) }),
          numberedLayer3(0),
          numberedLayer3(1),
          extraNetwork,
          cnc('c'),
        ),
      );
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
      const connect = outcome.allocated.allocation.connects.c!;
      expect(connect.problems).toEqual([]);
      expect(Object.values(connect.networks).map((n) => n.network)).toEqual(['cluster_udn_net-0', 'cluster_udn_net-1']);
    },
  );

  it.each([
    [
      'a no-overlay network',
      { transport: 'NoOverlay' },
      // upstream's clustermanager networkconnect controller_test.go "sets Accepted=False condition and ignores
      // selected networks using NoOverlay or EVPN transport": the NAD's transport name
      'network cluster_udn_net-2 has transport type no-overlay that is not supported for networkConnect',
    ],
    [
      'an EVPN network',
      { transport: 'EVPN' },
      'network cluster_udn_net-2 has transport type evpn that is not supported for networkConnect',
    ],
  ])('reports UnsupportedNetworkType for %s', (_name, extra, message) => {
    const problems = problemsOf(cnc('c'), [
      namespaceCudn('net-2', 'ns-2', [{ cidr: '10.3.0.0/16', hostSubnet: 24 }], extra),
    ]);
    expect(problems).toEqual([expect.objectContaining({ reason: 'UnsupportedNetworkType', message })]);
  });

  it('reports ConnectSubnetOverlap on both connects that share a network (no first writer wins)', () => {
    const outcome = allocateTopology(
      yamlOf(
        labInventory({ namespaces: namespaces(2) }),
        numberedLayer3(0),
        numberedLayer3(1),
        cnc('a'),
        cnc('b', { connectSubnets: [{ cidr: '192.168.0.0/20', networkPrefix: 24 }] }),
      ),
    );
    if (!outcome.ok) throw new Error('input');
    for (const [self, other] of [
      ['a', 'b'],
      ['b', 'a'],
    ]) {
      expect(outcome.allocated.allocation.connects[self]!.problems).toEqual([
        expect.objectContaining({
          reason: 'ConnectSubnetOverlap',
          message: `cross-validation failed for CNC ${self}: connectSubnets overlap detected between CNC ${self} and CNC ${other} which both select networks [layer3_1 layer3_2]`,
        }),
      ]);
    }
  });

  it("reports ConnectSubnetExhausted with upstream's message and still allocates the networks that fit", () => {
    const outcome = allocateTopology(
      yamlOf(
        labInventory({ namespaces: namespaces(3) }),
        numberedLayer3(0),
        numberedLayer3(1),
        numberedLayer3(2),
        cnc('c', { connectSubnets: [{ cidr: '192.168.0.0/23', networkPrefix: 24 }] }),
      ),
    );
    if (!outcome.ok) throw new Error('input');
    const c = outcome.allocated.allocation.connects.c!;
    expect(c.accepted).toBe(false);
    expect(c.problems.map((p) => p.message)).toEqual([
      'failed to allocate subnets for CNC c: failed to allocate Layer3 subnet for network cluster_udn_net-2: Layer3 allocation failed for layer3_3: no subnets available',
    ]);
    expect(Object.keys(c.networks)).toEqual(['layer3_1', 'layer3_2']);
  });
});
