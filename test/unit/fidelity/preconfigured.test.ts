/**
 * Issue 26 point 8: preconfigured addresses of a primary Layer2 network (`defaultGatewayIPs`,
 * `infrastructureSubnets`, `reservedSubnets`), read only with the Inventory's
 * enablePreconfiguredUDNAddresses as upstream reads them only with
 * --enable-preconfigured-udn-addresses. Each expectation names the upstream code or test
 * (go-controller/pkg/...) it comes from.
 */
import { describe, expect, it } from 'vitest';
import { mustParseCidr, parseAddress } from '../../../provider/model/cidr';
import { clusterWarnings } from '../../../provider/model/warnings';
import { planTopology } from '../../../provider/runtime/plan';
import { infrastructureIPs } from '../../../provider/topology/infrastructure';
import { planOf, rowOf, rowsIn, zoneRows } from './plan';

/** One node, one namespace with two pods, and UDN `a/l2` whose `layer2` lines are given. */
function world(layer2: string, enabled: boolean): string {
  return `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: t}
spec:
  ipFamilies: [IPv4, IPv6]
  clusterSubnets: [10.128.0.0/14, "fd00:128::/48"]
  serviceCIDRs: [172.16.1.0/24, "fd00:172::/112"]
  zones: per-node
  ${enabled ? 'enablePreconfiguredUDNAddresses: true' : ''}
  namespaces: [{name: a}]
  nodes:
  - {name: n1, chassisId: c1, gatewayBridge: breth0, gatewayMac: "0a:58:c0:a8:7e:01", nodeIPs: [192.168.126.11/24, "fc00::11/64"], gatewayNextHops: [192.168.126.1, "fc00::1"]}
  pods: [{name: p1, namespace: a, node: n1}, {name: p2, namespace: a, node: n1}]
---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: l2, namespace: a}
spec:
  topology: Layer2
  layer2:
${layer2}
`;
}

const all = `    role: Primary
    subnets: [10.0.0.0/24, "fd00:10::/64"]
    defaultGatewayIPs: [10.0.0.5, "fd00:10::5"]
    infrastructureSubnets: [10.0.0.4/30, "fd00:10::4/126"]
    reservedSubnets: [10.0.0.0/30]`;

/** The rows that carry the gateway and management addresses, and the pods' addresses. */
function addresses(text: string) {
  const plan = planOf(text);
  const rows = zoneRows(plan, 'n1');
  return {
    plan,
    trtos: rowOf(rows, 'Logical_Router_Port', 'trtos-a_l2_ovn_layer2_switch'),
    mgmt: rowOf(rows, 'Logical_Switch_Port', 'k8s-a_l2_n1'),
    aclMatches: rowsIn(rows, 'ACL')
      .map((a) => a.match as string)
      .filter((m) => m.includes('.src==')),
    policyHops: rowsIn(rows, 'Logical_Router_Policy').flatMap((p) => p.nexthops as string[]),
    snatMatches: rowsIn(rows, 'NAT')
      .map((n) => n.match as string)
      .filter((m) => m?.startsWith('eth.dst')),
    pods: plan.state.pods?.['a_l2'] ?? {},
  };
}

describe('allocateInfrastructureIPs (go-controller/pkg/util/multi_network.go) gives the gateway and management addresses', () => {
  const pick = (subnet: string, infra: string[], gateways: string[] = []) => {
    const got = infrastructureIPs(
      [mustParseCidr(subnet)],
      infra.map(mustParseCidr),
      gateways.map((g) => parseAddress(g)!),
    );
    return [got.gateway[0]!.ip, got.management[0]!.ip];
  };

  // multi_network_test.go TestGetNodeGatewayIP and TestGetNodeManagementIP, case by case
  it.each([
    ['without infrastructure subnets: .1 and .2', '10.0.0.0/24', [], [], ['10.0.0.1', '10.0.0.2']],
    ['a custom default gateway IP is the gateway', '10.0.0.0/24', [], ['10.0.0.5'], ['10.0.0.5', '10.0.0.2']],
    [
      'the first and second usable IPs of the infrastructure subnet',
      '10.0.0.0/24',
      ['10.0.0.4/30'],
      [],
      ['10.0.0.4', '10.0.0.5'],
    ],
    ['skipping the network IP', '10.0.0.0/24', ['10.0.0.0/30'], [], ['10.0.0.1', '10.0.0.2']],
    // the management address: none left in the infrastructure subnets, so the .2 fallback
    ['skipping the broadcast IP', '10.0.0.0/24', ['10.0.0.255/32', '10.0.0.9/32'], [], ['10.0.0.9', '10.0.0.2']],
    [
      'skipping the broadcast IP, gateway given',
      '10.0.0.0/24',
      ['10.0.0.255/32', '10.0.0.100/32'],
      ['10.0.0.5'],
      ['10.0.0.5', '10.0.0.100'],
    ],
    [
      'without conflicting with the default gateway',
      '10.0.0.0/24',
      ['10.0.0.0/30'],
      ['10.0.0.2'],
      ['10.0.0.2', '10.0.0.1'],
    ],
    ['IPv6', '2001:db8::/64', ['2001:db8::/126'], [], ['2001:db8::1', '2001:db8::2']],
    [
      'IPv6, the last available IP',
      '2001:db8::/64',
      ['2001:db8::ffff:ffff:ffff:fffe/127'],
      ['2001:db8::ffff:ffff:ffff:fffe'],
      ['2001:db8::ffff:ffff:ffff:fffe', '2001:db8::ffff:ffff:ffff:ffff'],
    ],
  ])('%s', (_name, subnet, infra, gateways, expected) => {
    expect(pick(subnet, infra, gateways)).toEqual(expected);
  });

  it('falls back to .1 for the management address when the custom gateway is .2 and no infrastructure subnet is given', () => {
    // allocateInfrastructureIPs: "Corner case: if the default management IP(.2) conflicts with the custom gateway IP"
    expect(pick('10.0.0.0/24', [], ['10.0.0.2'])).toEqual(['10.0.0.2', '10.0.0.1']);
  });
});

describe('with enablePreconfiguredUDNAddresses a primary Layer2 network uses its preconfigured addresses', () => {
  const got = addresses(world(all, true));

  it('puts the default gateway IPs on the transit router port towards the switch, with the MAC of the IPv4 one', () => {
    // base_network_controller.go syncNodeClusterRouterPort: networks and MAC from GetNodeGatewayIP
    expect(got.trtos.networks).toEqual(['10.0.0.5/24', 'fd00:10::5/64']);
    expect(got.trtos.mac).toBe('0a:58:0a:00:00:05');
  });

  it('gives the management port, its ACLs, the 1004 policies and the management SNAT the first free infrastructure address', () => {
    // base_network_controller.go createNodeManagementSwitchPort / gateway.go AddSameNodeIPPolicy and
    // base_network_controller_user_defined.go buildUDNEgressSNAT, all from GetNodeManagementIP
    expect(got.mgmt.addresses).toEqual(['0a:58:0a:00:00:04 10.0.0.4 fd00:10::4']);
    expect(got.aclMatches.sort()).toEqual(['ip4.src==10.0.0.4', 'ip6.src==fd00:10::4']);
    expect(got.policyHops.sort()).toEqual(['10.0.0.4', 'fd00:10::4']);
    expect(got.snatMatches.length).toBeGreaterThan(0);
    expect(new Set(got.snatMatches)).toEqual(new Set(['eth.dst == 0a:58:0a:00:00:04']));
  });

  it('keeps the infrastructure and reserved subnets out of pod addresses', () => {
    // clustermanager/network_cluster_controller.go newIPAllocatorForNetwork (ExcludeSubnets +
    // InfrastructureSubnets, ReservedSubnets); allocator/ip/subnet/allocator_test.go "reserves subnets correctly"
    expect(got.pods).toEqual({ 'a/p1': ['10.0.0.8', 'fd00:10::1'], 'a/p2': ['10.0.0.9', 'fd00:10::2'] });
  });

  it('keeps the chosen gateway and management addresses out of pod addresses when no infrastructure subnet is given', () => {
    // newIPAllocatorForNetwork: infrastructureExcludeCIDRs when InfrastructureSubnets is empty
    const pods = addresses(
      world(
        `    role: Primary
    subnets: [10.0.0.0/24, "fd00:10::/64"]
    defaultGatewayIPs: [10.0.0.3, "fd00:10::3"]`,
        true,
      ),
    ).pods;
    expect(pods).toEqual({ 'a/p1': ['10.0.0.1', 'fd00:10::1'], 'a/p2': ['10.0.0.4', 'fd00:10::4'] });
  });

  it("gives the network's pods the default gateway IPs as their gateways", () => {
    // allocator/pod/pod_annotation.go: the pod annotation's gateway is GetNodeGatewayIP(subnet)
    const plugs = got.plan.zones.find((z) => z.name === 'n1')!.pods.filter((p) => p.network === 'a_l2');
    expect(plugs.map((p) => p.gateways)).toEqual([
      ['10.0.0.5', 'fd00:10::5'],
      ['10.0.0.5', 'fd00:10::5'],
    ]);
  });

  it('says nothing about the fields', () => {
    expect(clusterWarnings(got.plan.cluster)).toEqual([]);
  });
});

describe('without enablePreconfiguredUDNAddresses the fields are ignored, as upstream, and said so', () => {
  const got = addresses(world(all, false));

  it('renders the default .1 gateway and .2 management addresses and hands out pod addresses from .3', () => {
    // net-attach-def-template.go copies the fields into the NAD only when IsPreconfiguredUDNAddressesEnabled;
    // GetNodeGatewayIP / GetNodeManagementIP then fall back to GetNodeGatewayIfAddr / GetNodeManagementIfAddr
    expect(got.trtos.networks).toEqual(['10.0.0.1/24', 'fd00:10::1/64']);
    expect(got.mgmt.addresses).toEqual(['0a:58:0a:00:00:02 10.0.0.2 fd00:10::2']);
    expect(got.pods).toEqual({ 'a/p1': ['10.0.0.3', 'fd00:10::3'], 'a/p2': ['10.0.0.4', 'fd00:10::4'] });
    const plugs = got.plan.zones.find((z) => z.name === 'n1')!.pods.filter((p) => p.network === 'a_l2');
    expect(plugs.map((p) => p.gateways)).toEqual([
      ['10.0.0.1', 'fd00:10::1'],
      ['10.0.0.1', 'fd00:10::1'],
    ]);
  });

  it('warns once per given field, naming its path', () => {
    const warnings = clusterWarnings(got.plan.cluster);
    expect(warnings.map((w) => [w.reason, w.path])).toEqual([
      ['PreconfiguredAddressesIgnored', 'UserDefinedNetwork/a/l2: spec.layer2.defaultGatewayIPs'],
      ['PreconfiguredAddressesIgnored', 'UserDefinedNetwork/a/l2: spec.layer2.infrastructureSubnets'],
      ['PreconfiguredAddressesIgnored', 'UserDefinedNetwork/a/l2: spec.layer2.reservedSubnets'],
    ]);
    expect(warnings[0]!.message).toContain('enablePreconfiguredUDNAddresses');
  });
});

describe("the CRD's CEL rules on the fields are checked whatever the flag (shared/schemas/crds, UserDefinedNetwork layer2)", () => {
  const refusal = (layer2: string) => {
    const result = planTopology(world(layer2, false));
    expect(result.ok).toBe(false);
    return JSON.stringify(result.ok ? [] : result.problems);
  };

  it.each([
    [
      'defaultGatewayIPs have to belong to infrastructureSubnets',
      `    role: Primary\n    subnets: [10.0.0.0/24]\n    defaultGatewayIPs: [10.0.0.9]\n    infrastructureSubnets: [10.0.0.4/30]`,
    ],
    [
      'defaultGatewayIPs is only supported for Primary network',
      `    role: Secondary\n    subnets: [10.0.0.0/24]\n    defaultGatewayIPs: [10.0.0.9]`,
    ],
    [
      'defaultGatewayIPs must be specified for all IP families',
      `    role: Primary\n    subnets: [10.0.0.0/24, "fd00:10::/64"]\n    defaultGatewayIPs: [10.0.0.9]`,
    ],
    [
      'infrastructureSubnets and reservedSubnets must not overlap',
      `    role: Primary\n    subnets: [10.0.0.0/24]\n    infrastructureSubnets: [10.0.0.4/30]\n    reservedSubnets: [10.0.0.0/28]`,
    ],
    [
      'reservedSubnets must be subnetworks of the networks specified in the subnets field',
      `    role: Primary\n    subnets: [10.0.0.0/24]\n    reservedSubnets: [10.9.0.0/28]`,
    ],
    [
      'infrastructureSubnets must be a masked network address (no host bits set)',
      `    role: Primary\n    subnets: [10.0.0.0/24]\n    infrastructureSubnets: [10.0.0.5/30]`,
    ],
  ])('refuses: %s', (message, layer2) => {
    expect(refusal(layer2)).toContain(message);
  });
});
