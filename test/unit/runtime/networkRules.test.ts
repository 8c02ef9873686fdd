import { describe, expect, it } from 'vitest';
import { buildCluster } from '../../../provider/model/cluster';
import { loadDocuments } from '../../../provider/model/load';
import { renderRefusals } from '../../../provider/model/networkRules';

const inventory = (extra = '') => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: inv}
spec:
  namespaces: [{name: a, labels: {net: x}}, {name: b}]
  nodes: [{name: n1}]
${extra}
`;

const cudn = (name: string, network: string, selector = '{matchLabels: {net: x}}') => `---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: ${name}}
spec:
  namespaceSelector: ${selector}
  network: ${network}
`;

function problemsOf(text: string) {
  return buildCluster(loadDocuments(text).documents).problems.map((p) => ({ path: p.path, message: p.message }));
}

const l3 = (subnets: string, extra = '') => `{topology: Layer3, layer3: {role: Primary, subnets: ${subnets}${extra}}}`;

describe('network rules', () => {
  it('accepts a dual-stack Layer3 network in a dual-stack cluster', () => {
    expect(
      problemsOf(inventory('  ipFamilies: [IPv4, IPv6]') + cudn('n', l3('[{cidr: 10.1.0.0/16}, {cidr: "fd01::/48"}]'))),
    ).toEqual([]);
  });

  // upstream's CUDN CRD (../shared/schemas/crds/): layer3.subnets maxItems 400, CEL "Secondary
  // networks may define at most 2 subnets" and "When 2 CIDRs are set for Secondary networks, they
  // must be from different IP families"; layer2.subnets maxItems 2 with "When 2 CIDRs are set, they
  // must be from different IP families"
  it('accepts a primary Layer3 network with several subnets per family, up to the CRD maximum of 400', () => {
    const many = (n: number) =>
      `[${Array.from({ length: n }, (_, i) => `{cidr: 10.${Math.floor(i / 256) + 1}.${i % 256}.0/24, hostSubnet: 26}`).join(', ')}]`;
    const text = (n: number) => inventory('  ipFamilies: [IPv4, IPv6]') + cudn('n', l3(many(n)));
    expect(problemsOf(text(3))).toEqual([]);
    expect(problemsOf(text(400))).toEqual([]);
    expect(problemsOf(text(401))).toEqual([
      {
        path: 'ClusterUserDefinedNetwork/n: spec.network.layer3.subnets',
        message: 'spec.network.layer3.subnets: Too many: 401: must have at most 400 items',
      },
    ]);
  });

  it.each([
    [
      'a secondary Layer3 network with two subnets of one family',
      '{topology: Layer3, layer3: {role: Secondary, subnets: [{cidr: 10.1.0.0/16}, {cidr: 10.2.0.0/16}]}}',
      'spec.network.layer3.subnets',
      'When 2 CIDRs are set for Secondary networks, they must be from different IP families',
    ],
    [
      'a secondary Layer3 network with three subnets',
      '{topology: Layer3, layer3: {role: Secondary, subnets: [{cidr: 10.1.0.0/16}, {cidr: 10.2.0.0/16}, {cidr: "fd01::/48"}]}}',
      'spec.network.layer3.subnets',
      'Secondary networks may define at most 2 subnets',
    ],
    [
      'a Layer2 network with two subnets of one family',
      '{topology: Layer2, layer2: {role: Primary, subnets: [10.1.0.0/16, 10.2.0.0/16]}}',
      'spec.network.layer2.subnets',
      'When 2 CIDRs are set, they must be from different IP families',
    ],
    [
      'a Layer2 network with three subnets',
      '{topology: Layer2, layer2: {role: Primary, subnets: [10.1.0.0/16, 10.2.0.0/16, "fd01::/48"]}}',
      'spec.network.layer2.subnets',
      'Too many: 3: must have at most 2 items',
    ],
    // upstream's config.ParseClusterSubnetEntries, used for Layer3 NADs
    [
      'IPv4 ranges with different host subnet lengths',
      l3('[{cidr: 10.1.0.0/16, hostSubnet: 24}, {cidr: 10.2.0.0/16, hostSubnet: 26}]'),
      'spec.network.layer3.subnets[1].hostSubnet',
      'all IPv4 cluster subnet entries must have the same host subnet length; found 24 and 26',
    ],
    [
      'an IPv6 host subnet other than /64',
      l3('[{cidr: "fd01::/48", hostSubnet: 60}]'),
      'spec.network.layer3.subnets[0].hostSubnet',
      'IPv6 only supports /64 host subnets',
    ],
    // upstream's SubnetOverlapCheck also checks a network's subnets against each other
    [
      'two subnets of the network overlapping each other',
      l3('[{cidr: 10.1.0.0/16}, {cidr: 10.1.128.0/17}]'),
      'spec.network.layer3.subnets[1]',
      'illegal network configuration: user defined subnet "10.1.128.0/17" overlaps user defined subnet "10.1.0.0/16"',
    ],
    ['no subnet', l3('[]'), 'spec.network.layer3.subnets', 'Subnets is required for Primary Layer3 topology'],
    [
      'an IPv4 hostSubnet of 32',
      l3('[{cidr: 10.1.0.0/16, hostSubnet: 32}]'),
      'spec.network.layer3.subnets[0].hostSubnet',
      'HostSubnet must < 32 for ipv4 CIDR',
    ],
    [
      'an MTU below 1280 with IPv6',
      l3('[{cidr: "fd01::/48"}]', ', mtu: 1000'),
      'spec.network.layer3.mtu',
      'MTU should be greater than or equal to 1280 when IPv6 subnet is used',
    ],
    [
      'an MTU out of range',
      l3('[{cidr: 10.1.0.0/16}]', ', mtu: 100'),
      'spec.network.layer3.mtu',
      '100 must be from 576 to 65536',
    ],
    [
      'a subnet overlapping the cluster subnets',
      l3('[{cidr: 10.128.0.0/16}]'),
      'spec.network.layer3.subnets[0]',
      'illegal network configuration: user defined subnet "10.128.0.0/16" overlaps cluster subnet "10.128.0.0/14"',
    ],
    [
      'a subnet overlapping the service CIDRs',
      l3('[{cidr: 172.16.0.0/16}]'),
      'spec.network.layer3.subnets[0]',
      'illegal network configuration: user defined subnet "172.16.0.0/16" overlaps service subnet "172.16.1.0/24"',
    ],
    [
      'a subnet overlapping the masquerade subnets',
      l3('[{cidr: 169.254.0.0/16}]'),
      'spec.network.layer3.subnets[0]',
      'overlaps masquerade subnet "169.254.0.0/17"',
    ],
    [
      // upstream: util/multi_network.go SubnetOverlapCheck appends the transit subnets for Layer3
      'a Layer3 subnet overlapping the transit switch subnet',
      l3('[{cidr: 100.88.0.0/16}]'),
      'spec.network.layer3.subnets[0]',
      'illegal network configuration: user defined subnet "100.88.0.0/16" overlaps transit switch subnet "100.88.0.0/16"',
    ],
    [
      // upstream: allocator/ip/subnet/allocator.go cannot exclude the management IP (.2) from a /31
      'a primary Layer3 host subnet of /31',
      l3('[{cidr: 10.1.0.0/16, hostSubnet: 31}]'),
      'spec.network.layer3.subnets[0].hostSubnet',
      "has no address for the node's management port",
    ],
    [
      // upstream: util/pod_annotation.go refuses a pod route to 0.0.0.0/N as a default route
      'a Layer3 subnet at the unspecified address',
      l3('[{cidr: 0.0.0.0/19, hostSubnet: 24}]'),
      'spec.network.layer3.subnets[0]',
      'subnet "0.0.0.0/19" of network cluster_udn_n starts at the unspecified address',
    ],
    [
      "a join subnet overlapping the default network's",
      l3('[{cidr: 10.1.0.0/16}]', ', joinSubnets: [100.64.0.0/24]'),
      'spec.network.layer3.joinSubnets[0]',
      'illegal network configuration: user defined join subnet "100.64.0.0/24" overlaps built-in join subnet "100.64.0.0/16"',
    ],
    [
      'a join subnet overlapping its own subnet',
      l3('[{cidr: 100.65.0.0/16}]'),
      'spec.network.layer3.joinSubnets[0]',
      'illegal network configuration: user defined join subnet "100.65.0.0/16" overlaps user defined subnet "100.65.0.0/16"',
    ],
  ])('refuses %s, naming the field', (_name, network, field, message) => {
    const found = problemsOf(inventory() + cudn('n', network));
    expect(found).toEqual([expect.objectContaining({ path: `ClusterUserDefinedNetwork/n: ${field}` })]);
    expect(found[0]!.message).toContain(message);
  });

  it('leaves a second primary network in one namespace to the runtime, which refuses it', () => {
    const text = inventory() + cudn('n1', l3('[{cidr: 10.1.0.0/16}]')) + cudn('n2', l3('[{cidr: 10.2.0.0/16}]'));
    const built = buildCluster(loadDocuments(text).documents);
    expect(built.problems).toEqual([]);
    expect(renderRefusals(built.cluster).map((p) => ({ path: p.path, message: p.message }))).toEqual([
      {
        path: 'ClusterUserDefinedNetwork/n2',
        message:
          'namespace a already has primary network cluster_udn_n1 (ClusterUserDefinedNetwork/n1); cluster_udn_n2 cannot be a second primary network there',
      },
    ]);
  });

  it('refuses a pod on an unknown node, in a namespace without a primary network, or listed twice', () => {
    const pods =
      '  pods: [{name: p, namespace: a, node: n9}, {name: q, namespace: b, node: n1}, {name: p, namespace: a, node: n1}]';
    expect(problemsOf(inventory(pods) + cudn('n', l3('[{cidr: 10.1.0.0/16}]')))).toEqual([
      {
        path: 'Inventory/inv: spec.pods[0].node',
        message: 'spec.pods[0].node "n9" is not a node of the inventory (nodes: n1)',
      },
      {
        path: 'Inventory/inv: spec.pods[1].namespace',
        message:
          'spec.pods[1].namespace "b" has no primary network (no UserDefinedNetwork in it, no ClusterUserDefinedNetwork selecting it) and spec.pods[1].networks names no secondary one',
      },
      { path: 'Inventory/inv: spec.pods[2]', message: 'spec.pods[2]: pod a/p is listed twice' },
    ]);
  });

  it('does not check pod nodes while the inventory lists no node (they come from the lab later)', () => {
    const text =
      inventory('  pods: [{name: p, namespace: a, node: n9}]').replace('  nodes: [{name: n1}]\n', '') +
      cudn('n', l3('[{cidr: 10.1.0.0/16}]'));
    expect(problemsOf(text)).toEqual([]);
  });

  it('leaves other families to the runtime, which refuses them, and accepts Localnet and secondary networks', () => {
    const text =
      inventory() +
      cudn('v6', l3('[{cidr: "fd01::/48"}]')) +
      cudn(
        'sec',
        '{topology: Layer2, layer2: {role: Secondary, subnets: [10.3.0.0/16]}}',
        '{matchLabels: {kubernetes.io/metadata.name: b}}',
      );
    const built = buildCluster(loadDocuments(text).documents);
    expect(built.problems).toEqual([]);
    expect(renderRefusals(built.cluster).map((p) => [p.reason, p.path, p.message])).toEqual([
      [
        'InvalidSpec',
        'ClusterUserDefinedNetwork/v6: spec.network.layer3.subnets',
        'network cluster_udn_v6 is attempting to use ipv6 subnets but the cluster does not support ipv6',
      ],
    ]);
  });
});
