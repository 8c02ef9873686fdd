/**
 * Point 2 of issue 16: `gateway_mtu` is the cluster MTU. Upstream writes
 * strconv.Itoa(config.Default.MTU) on rtos-/trtos- (base_network_controller.go
 * syncNodeClusterRouterPort) and on rtoj-GR_/rtotr-GR_ (gateway.go createGWRouterPort), whatever
 * the network's MTU; only the Layer2 IPv6 RA `mtu` follows the network (bnc.MTU()). The Inventory's
 * spec.mtu is config.Default.MTU (default 1400, the value upstream's tests expect: "1400" in
 * layer3_user_defined_network_controller_test.go expectedGRToJoinSwitchLRP). A node whose
 * k8s.ovn.org/gateway-mtu-support is false gets none (gateway_test.go "updates options:gateway_mtu
 * for GR LRP": gatewayInit with enableGatewayMTU false expects no options).
 */
import { describe, expect, it } from 'vitest';
import { planOf, rowOf, upstreamL3, zoneRows } from './plan';

const layer2 = (inventoryMtu: string) => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: mtu}
spec:
  ipFamilies: [IPv4, IPv6]
${inventoryMtu}
  namespaces: [{name: a}]
  nodes: [{name: n1, id: 2, chassisId: c1}]
---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: green, namespace: a}
spec:
  topology: Layer2
  layer2: {role: Primary, subnets: [10.100.0.0/16, "fd00:100::/64"], mtu: 1300}
`;

describe('gateway_mtu of router ports', () => {
  it('is the cluster MTU on rtos- and rtoj-GR_ of a Layer3 network whatever the network MTU', () => {
    const rows = zoneRows(planOf(upstreamL3({ network: ', mtu: 1300' })), 'test-node');
    expect(rowOf(rows, 'Logical_Router_Port', 'rtos-namespace1_blue.net_test-node').options).toEqual({
      gateway_mtu: '1400',
    });
    expect(rowOf(rows, 'Logical_Router_Port', 'rtoj-GR_namespace1_blue.net_test-node').options).toEqual({
      gateway_mtu: '1400',
    });
  });

  it('follows the Inventory spec.mtu (config.Default.MTU) on trtos- and rtotr-GR_, while the IPv6 RA mtu is the network MTU', () => {
    const rows = zoneRows(planOf(layer2('  mtu: 8900')), 'n1');
    const trtos = rowOf(rows, 'Logical_Router_Port', 'trtos-a_green_ovn_layer2_switch');
    expect(trtos.options).toEqual({ gateway_mtu: '8900', 'requested-tnl-key': '1' });
    expect(trtos.ipv6_ra_configs.mtu).toBe('1300');
    expect(rowOf(rows, 'Logical_Router_Port', 'rtotr-GR_a_green_n1').options).toEqual({ gateway_mtu: '8900' });
  });

  it("is left out on every router port of a node that does not support it (the Inventory's gatewayMtuSupport)", () => {
    const text = upstreamL3().replace('    chassisId:', '    gatewayMtuSupport: false\n    chassisId:');
    const rows = zoneRows(planOf(text), 'test-node');
    expect(rowOf(rows, 'Logical_Router_Port', 'rtos-namespace1_blue.net_test-node').options).toBeUndefined();
    expect(rowOf(rows, 'Logical_Router_Port', 'rtoj-GR_namespace1_blue.net_test-node').options).toBeUndefined();
  });
});
