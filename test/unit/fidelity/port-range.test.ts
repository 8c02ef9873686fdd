/**
 * Point 3 of issue 16: `external_port_range` on every SNAT upstream builds. Upstream's buildNAT
 * (libovsdb/ops/router.go) sets config.Gateway.EphemeralPortRange on every NAT while the gateway
 * is enabled: the gateway router's join-IP and cluster-subnet SNATs and the management-port SNAT
 * of both topologies. The range is the node's (ovnkube-controller reads the kernel's
 * ip_local_port_range when --ephemeral-port-range is not given; config.DefaultEphemeralPortRange
 * "32768-60999" is the Linux default, which gateway_test.go expects on every SNAT).
 */
import { describe, expect, it } from 'vitest';
import { buildCluster } from '../../../provider/model/cluster';
import { loadDocuments } from '../../../provider/model/load';
import { planOf, rowsIn, upstreamL3, zoneRows } from './plan';

const layer2 = (nodeRange: string) => `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: range}
spec:
  ipFamilies: [IPv4]
  ephemeralPortRange: 1024-65535
  namespaces: [{name: a}]
  nodes:
  - {name: n1, id: 2, chassisId: c1, ${nodeRange}}
  - {name: n2, id: 3, chassisId: c2}
---
apiVersion: k8s.ovn.org/v1
kind: UserDefinedNetwork
metadata: {name: green, namespace: a}
spec:
  topology: Layer2
  layer2: {role: Primary, subnets: [10.100.0.0/16]}
`;

describe('external_port_range of SNATs', () => {
  it("is upstream's default on the Layer3 management SNAT and both gateway-router SNATs", () => {
    const nats = rowsIn(zoneRows(planOf(upstreamL3()), 'test-node'), 'NAT');
    expect(nats.map((n) => `${n.logical_ip} ${n.external_port_range}`).sort()).toEqual([
      '100.65.0.4 32768-60999',
      '192.168.0.0/16 32768-60999',
      '192.168.1.0/24 32768-60999',
    ]);
  });

  it("is the node's range on the Layer2 management SNAT and its gateway router's SNATs, else the Inventory's", () => {
    const plan = planOf(layer2('ephemeralPortRange: 40000-50000'));
    const ranges = (zone: string) => rowsIn(zoneRows(plan, zone), 'NAT').map((n) => n.external_port_range);
    expect(ranges('n1')).toEqual(['40000-50000', '40000-50000', '40000-50000']);
    expect(ranges('n2')).toEqual(['1024-65535', '1024-65535', '1024-65535']);
  });

  it('is left out when the range is empty, as upstream writes it with the gateway disabled at start-up', () => {
    const nats = rowsIn(zoneRows(planOf(upstreamL3({ inventory: '  ephemeralPortRange: ""' })), 'test-node'), 'NAT');
    expect(nats.map((n) => n.external_port_range)).toEqual([undefined, undefined, undefined]);
  });

  it("refuses a range upstream's isValidEphemeralPortRange refuses, naming the field", () => {
    const built = buildCluster(loadDocuments(layer2('ephemeralPortRange: 60000-1000')).documents);
    expect(built.problems.map((p) => p.path)).toEqual(['Inventory/range: spec.nodes[0].ephemeralPortRange']);
    expect(built.problems[0]!.message).toContain('"60000-1000"');
  });
});
