/**
 * Point 8 of issue 16: masquerade subnets are per family. Upstream has one flag per family
 * (config.Gateway.V4MasqueradeSubnet, V6MasqueradeSubnet), so giving only one keeps the other
 * family's default. Issue 26 point 4: our defaults are 169.254.0.0/17 and fd69::/112, what
 * upstream's deployments with user-defined networks give; its built-in 169.254.169.0/29 and
 * fd69::/125 (config.go) hold no network's masquerade addresses, and a network whose addresses
 * fall outside is refused, as upstream fails to add the node then
 * (generator/udn/masquerade_ips.go allocateMasqueradeIPs, GetUDNGatewayMasqueradeIPs).
 */
import { describe, expect, it } from 'vitest';
import { buildCluster } from '../../../provider/model/cluster';
import { loadDocuments } from '../../../provider/model/load';
import { planTopology } from '../../../provider/runtime/plan';
import { planOf, rowsIn, zoneRows } from './plan';

const dualStack = (masquerade: string) => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: masq}
spec:
  ipFamilies: [IPv4, IPv6]
  masqueradeSubnets: ${masquerade}
  namespaces: [{name: a}]
  nodes: [{name: n1, id: 2, chassisId: c1}]
---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: blue, namespace: a, annotations: {k8s.ovn.org/network-id: "2"}}
spec:
  topology: Layer3
  layer3: {role: Primary, subnets: [{cidr: 10.10.0.0/16}, {cidr: "fd10::/60", hostSubnet: 64}]}
`;

describe('masquerade subnets', () => {
  it('keep the IPv4 default when only the IPv6 one is given', () => {
    const plan = planOf(dualStack('["fd69::/112"]'));
    expect(plan.cluster.inventory.masqueradeSubnets).toEqual(['169.254.0.0/17', 'fd69::/112']);
    const gr = rowsIn(zoneRows(plan, 'n1'), 'NAT').filter((n) => n.logical_port === undefined);
    // GR masquerade IP = base + 10 + 2 x network id - 1 (generator/udn/masquerade_ips.go)
    expect(gr.map((n) => n.external_ip).sort()).toEqual(['169.254.0.13', '169.254.0.13', 'fd69::d', 'fd69::d']);
  });

  it('keep the IPv6 default when only the IPv4 one is given', () => {
    expect(planOf(dualStack('[169.254.0.0/17]')).cluster.inventory.masqueradeSubnets).toEqual([
      '169.254.0.0/17',
      'fd69::/112',
    ]);
  });

  it("refuse upstream's built-in /29 and /125, naming the network and the addresses that do not fit", () => {
    const planned = planTopology(dualStack('[169.254.169.0/29, "fd69::/125"]'));
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    expect(planned.plan.problems).toEqual([
      {
        reason: 'MasqueradeSubnetTooSmall',
        object: 'Inventory',
        path: 'Inventory: spec.masqueradeSubnets',
        message:
          'network a_blue (network id 2) needs masquerade addresses 169.254.169.13 (not in 169.254.169.0/29), 169.254.169.14 (not in 169.254.169.0/29), fd69::d (not in fd69::/125), fd69::e (not in fd69::/125) for its gateway router and management port, outside spec.masqueradeSubnets [169.254.169.0/29, fd69::/125]; upstream then fails to add every node to the network (GetUDNGatewayMasqueradeIPs: out of range): give subnets that hold them, such as 169.254.0.0/17 and fd69::/112',
      },
    ]);
  });

  it('refuse only the family that is too small: a /28 holds network id 2 (.13, .14), not its IPv6 /125', () => {
    const planned = planTopology(dualStack('[169.254.169.0/28, "fd69::/125"]'));
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    expect(planned.plan.problems.map((p) => p.message)).toEqual([
      expect.stringContaining(
        'needs masquerade addresses fd69::d (not in fd69::/125), fd69::e (not in fd69::/125) for',
      ),
    ]);
  });

  it('refuse two subnets of one family, naming the field', () => {
    const built = buildCluster(loadDocuments(dualStack('[169.254.0.0/17, 169.253.0.0/17]')).documents);
    expect(built.problems.map((p) => p.path)).toEqual(['Inventory/masq: spec.masqueradeSubnets[1]']);
  });
});
