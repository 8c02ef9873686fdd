/**
 * Issue 26 points 5-7: NoOverlay and EVPN transports and advertised pod networks, rendered as
 * upstream's Layer3/Layer2 user-defined network controllers write them. Each expectation names
 * the upstream code or test it comes from (go-controller/pkg/ovn/...).
 */
import { describe, expect, it } from 'vitest';
import { hashForOvn } from '../../../provider/model/hash';
import { loadDocuments } from '../../../provider/model/load';
import { allocateInputs } from '../../../provider/runtime/pulumi/topologyInput';
import { renderNetwork } from '../../../provider/topology/render';
import { identityOf } from '../../../provider/topology/rows';
import { has, planOf, rowOf, rowsIn, zoneRows } from './plan';

interface Options {
  network?: string;
  gatewayMode?: 'shared' | 'local';
  extra?: string;
}

/** Two nodes in per-node zones, one CUDN `blue` (10.100.0.0/16, /24 per node) whose `network` spec lines are given. */
function world(o: Options = {}): string {
  return `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: t}
spec:
  ipFamilies: [IPv4]
  masqueradeSubnets: [169.254.0.0/17]
  gatewayMode: ${o.gatewayMode ?? 'shared'}
  zones: per-node
  namespaces: [{name: a, labels: {net: blue}}, {name: b, labels: {net: red}}]
  nodes:
  - {name: n1, chassisId: c1, gatewayBridge: breth0, gatewayMac: "0a:58:c0:a8:7e:01", nodeIPs: [192.168.126.11/24], gatewayNextHops: [192.168.126.1]}
  - {name: n2, chassisId: c2, gatewayBridge: breth0, gatewayMac: "0a:58:c0:a8:7e:02", nodeIPs: [192.168.126.12/24], gatewayNextHops: [192.168.126.1]}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: blue, labels: {advertise: "yes"}}
spec:
  namespaceSelector: {matchLabels: {net: blue}}
  network:
    topology: Layer3
    layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16, hostSubnet: 24}]}
${o.network ?? ''}
${o.extra ?? ''}
`;
}

const noOverlay = (snat: 'Enabled' | 'Disabled') =>
  `    transport: NoOverlay\n    noOverlay: {outboundSNAT: ${snat}, routing: Managed}`;

const advertisement = `---
apiVersion: k8s.ovn.org/v1
kind: RouteAdvertisements
metadata: {name: ra}
spec:
  advertisements: [PodNetwork]
  nodeSelector: {}
  frrConfigurationSelector: {}
  networkSelectors:
  - networkSelectionType: ClusterUserDefinedNetworks
    clusterUserDefinedNetworkSelector: {networkSelector: {matchLabels: {advertise: "yes"}}}`;

const red = `---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: red, labels: {advertise: "yes"}}
spec:
  namespaceSelector: {matchLabels: {net: red}}
  network:
    topology: Layer3
    layer3: {role: Primary, subnets: [{cidr: 10.200.0.0/16, hostSubnet: 24}]}`;

/** Upstream's address-set names: HashForOVN of the DbObjectIDs primary id (address_set.go buildAddressSet). */
const nodeIPsSet = hashForOvn('default-network-controller:ClusterNodeIPs:node-ips:v4');
const udnServicesSet = hashForOvn('udn-enabled-svc:UDNEnabledService:udn-enabled-svc-cluster-ips:v4');
const advertisedSet = hashForOvn('default-network-controller:AdvertisedNetwork:advertised-network-subnets:v4');
const exemptionSet = hashForOvn(
  'cluster_udn_blue-network-controller:Cluster:no-overlay-snat-exemption:v4:cluster_udn_blue',
);
const dropGroup = hashForOvn('default-network-controller:AdvertisedNetwork:advertised-network-subnets');
const GR = 'GR_cluster_udn_blue_n1';
const CR = 'cluster_udn_blue_ovn_cluster_router';

const rowsOfN1 = (o: Options) => zoneRows(planOf(world(o)), 'n1');
/** The SNATs of a router, by logical IP. */
const snatsOf = (rows: ReturnType<typeof rowsOfN1>, router: string, logicalIp: string) => {
  const names = rowOf(rows, 'Logical_Router', router).nat as string[];
  return rowsIn(rows, 'NAT').filter(
    (n) =>
      names.includes(n.external_ids['k8s.ovn.org/id'] ?? n.external_ids['ovnk.io/key']) && n.logical_ip === logicalIp,
  );
};

describe('NoOverlay transport', () => {
  it('writes no transit switch, transit ports or interconnect routes (base_network_controller.go hasInterconnectTransport)', () => {
    const geneve = rowsOfN1({});
    const rows = rowsOfN1({ network: noOverlay('Enabled') });
    expect(has(geneve, 'Logical_Switch', 'cluster_udn_blue_transit_switch')).toBe(true);
    expect(has(rows, 'Logical_Switch', 'cluster_udn_blue_transit_switch')).toBe(false);
    expect(has(rows, 'Logical_Router_Port', 'cluster_udn_blue_rtots-n1')).toBe(false);
    expect(rowsIn(geneve, 'Logical_Router_Static_Route').some((r) => r.external_ids['ic-node'] === 'n2')).toBe(true);
    expect(rowsIn(rows, 'Logical_Router_Static_Route').some((r) => r.external_ids['ic-node'] !== undefined)).toBe(
      false,
    );
  });

  it("routes only the node's host subnet from the gateway router to the cluster router (gateway.go updateGWRouterStaticRoutes)", () => {
    const prefixes = (rows: ReturnType<typeof rowsOfN1>) =>
      rowsIn(rows, 'Logical_Router_Static_Route')
        .filter((r) => r.nexthop === '100.65.0.1')
        .map((r) => r.ip_prefix);
    expect(prefixes(rowsOfN1({}))).toEqual(['10.100.0.0/16']);
    expect(prefixes(rowsOfN1({ network: noOverlay('Enabled') }))).toEqual(['10.100.0.0/24']);
  });

  it('gives the cluster-subnet SNAT the exemption address set instead of a match in shared gateway mode (gateway.go updateGWRouterNAT)', () => {
    const rows = rowsOfN1({ network: noOverlay('Enabled') });
    const [nat, ...more] = snatsOf(rows, GR, '10.100.0.0/16');
    expect(more).toEqual([]);
    expect(nat!.match).toBeUndefined();
    expect(nat!.exempted_ext_ips).toBe(exemptionSet);
    // getNoOverlayClusterSubnetSNATDbIDs, merged with the network's ids
    expect(nat!.external_ids).toMatchObject({
      'k8s.ovn.org/owner-controller': 'cluster_udn_blue-network-controller',
      'k8s.ovn.org/owner-type': 'NoOverlayClusterSubnetSNAT',
      'k8s.ovn.org/name': 'n1',
      'k8s.ovn.org/cidr': '10.100.0.0/16',
      'ip-family': 'ip4',
      network: 'cluster_udn_blue',
      'k8s.ovn.org/id':
        'cluster_udn_blue-network-controller:NoOverlayClusterSubnetSNAT:n1:10.100.0.0/16:ip4:cluster_udn_blue',
      'k8s.ovn.org/network': 'cluster_udn_blue',
    });
  });

  it("fills the exemption address set with the network's subnets and the zone's node IPs (layer3_user_defined_network_controller_test.go, syncNoOverlaySNATExemptionAddressSet)", () => {
    const set = rowOf(rowsOfN1({ network: noOverlay('Enabled') }), 'Address_Set', exemptionSet);
    expect(set.addresses).toEqual(['10.100.0.0/16', '192.168.126.11']);
    expect(set.external_ids).toMatchObject({
      'k8s.ovn.org/owner-type': 'Cluster',
      'k8s.ovn.org/name': 'no-overlay-snat-exemption',
      'ip-family': 'v4',
      network: 'cluster_udn_blue',
    });
  });

  it('puts the exemption on the management SNAT in local gateway mode and matches node IPs on the gateway router (buildUDNEgressSNAT, GetNetworkScopedClusterSubnetSNATMatch)', () => {
    const rows = rowsOfN1({ network: noOverlay('Enabled'), gatewayMode: 'local' });
    const [management, ...more] = snatsOf(rows, CR, '10.100.0.0/24');
    expect(more).toEqual([]);
    expect(management!.match).toBeUndefined();
    expect(management!.exempted_ext_ips).toBe(exemptionSet);
    expect(snatsOf(rows, GR, '10.100.0.0/16')[0]!.match).toBe(`ip4.dst == $${nodeIPsSet}`);
  });

  it('writes no exemption address set with outbound SNAT disabled and matches node IPs instead (IsNoOverlaySNATExemptionNeeded)', () => {
    const rows = rowsOfN1({ network: noOverlay('Disabled') });
    expect(has(rows, 'Address_Set', exemptionSet)).toBe(false);
    const [nat] = snatsOf(rows, GR, '10.100.0.0/16');
    expect(nat!.match).toBe(`ip4.dst == $${nodeIPsSet}`);
    expect(nat!.exempted_ext_ips).toBeUndefined();
  });
});

describe('advertised pod networks', () => {
  it('match the cluster-subnet SNAT on the node-IPs address set (gateway.go GetNetworkScopedClusterSubnetSNATMatch)', () => {
    expect(snatsOf(rowsOfN1({}), GR, '10.100.0.0/16')[0]!.match).toBeUndefined();
    const rows = rowsOfN1({ extra: advertisement });
    expect(snatsOf(rows, GR, '10.100.0.0/16')[0]!.match).toBe(`ip4.dst == $${nodeIPsSet}`);
    expect(rowOf(rows, 'Address_Set', nodeIPsSet).addresses).toEqual(['192.168.126.11', '192.168.126.12']);
  });

  it('split the management SNAT into one per allowed set in shared gateway mode (TestAdvertisedSharedGatewaySNATUsesLiveAllowedExtIPSets)', () => {
    const snats = snatsOf(rowsOfN1({ extra: advertisement }), CR, '10.100.0.0/24');
    expect(snats.map((n) => n.allowed_ext_ips).sort()).toEqual([nodeIPsSet, udnServicesSet].sort());
    for (const n of snats) {
      expect(n.match).toBeUndefined();
      expect(n.exempted_ext_ips).toBeUndefined();
      expect(n.logical_port).toBe('rtos-cluster_udn_blue_n1');
    }
  });

  it('add the destinations to the management SNAT match in local gateway mode (TestAdvertisedLocalGatewaySNATUsesDestinationMatch)', () => {
    const [nat, ...more] = snatsOf(rowsOfN1({ extra: advertisement, gatewayMode: 'local' }), CR, '10.100.0.0/24');
    expect(more).toEqual([]);
    expect(nat!.match).toBe(
      `eth.dst == 0a:58:0a:64:00:02 && (ip4.dst == $${nodeIPsSet} || ip4.dst == $${udnServicesSet})`,
    );
  });

  it('get the pass ACL on the node switch, their subnets in the advertised set and their stor- port in the drop group (gateway_test.go generateAdvertisedUDNIsolationExpectedNB)', () => {
    const rows = rowsOfN1({ extra: advertisement });
    const passId = 'cluster_udn_blue-network-controller:AdvertisedNetwork:cluster_udn_blue:1';
    const pass = rowOf(rows, 'ACL', passId);
    expect(pass).toMatchObject({
      priority: 1100,
      action: 'pass',
      direction: 'from-lport',
      tier: 0,
      options: { 'apply-after-lb': 'true' },
      match: '((ip4.src == 10.100.0.0/16) && (ip4.dst == 10.100.0.0/16))',
    });
    expect(rowOf(rows, 'Logical_Switch', 'cluster_udn_blue_n1').acls).toContain(passId);
    const dropId = 'default-network-controller:AdvertisedNetwork:advertised-network-subnets:';
    expect(rowOf(rows, 'ACL', dropId)).toMatchObject({
      priority: 1050,
      action: 'drop',
      match: `(ip4.src == $${advertisedSet} && ip4.dst == $${advertisedSet})`,
      external_ids: { network: '' },
    });
    expect(rowOf(rows, 'Port_Group', dropGroup)).toMatchObject({ ports: ['stor-cluster_udn_blue_n1'], acls: [dropId] });
    expect(rowOf(rows, 'Address_Set', advertisedSet).addresses).toEqual(['10.100.0.0/16']);
  });

  it("are rendered on the Pulumi path too: the Cluster's RouteAdvertisements reach its allocations' render inputs", () => {
    const [inventory, network, ra] = loadDocuments(world({ extra: advertisement })).documents.map((d) => d.body);
    const allocated = allocateInputs({
      inventory: inventory!,
      networks: [network!],
      connects: [],
      routeAdvertisements: [ra!],
    });
    if (!allocated.ok) throw new Error(JSON.stringify(allocated.problems));
    const input = allocated.allocated.renderInputs[0]!;
    expect(input.network.podNetworkAdvertised).toBe(true);
    const rows = renderNetwork({ ...input, zone: { name: 'n1', layout: 'per-node', localNodes: ['n1'] } });
    expect(rows.some((r) => r.table === 'Port_Group' && r.columns.name === dropGroup)).toBe(true);
  });

  it('keep their interconnect rows (a Geneve network stays on the overlay)', () => {
    expect(has(rowsOfN1({ extra: advertisement }), 'Logical_Switch', 'cluster_udn_blue_transit_switch')).toBe(true);
  });

  it("share one advertised set, drop ACL and drop group, holding every network's part", () => {
    const plan = planOf(world({ extra: `${advertisement}\n${red}` }));
    const zone = plan.zones.find((z) => z.name === 'n1')!.rows;
    const ids = zone.map((r) => `${r.table}/${identityOf(r)}`);
    expect(ids.length).toBe(new Set(ids).size);
    const rows = zoneRows(plan, 'n1');
    expect(rowOf(rows, 'Address_Set', advertisedSet).addresses).toEqual(['10.100.0.0/16', '10.200.0.0/16']);
    expect(rowOf(rows, 'Port_Group', dropGroup).ports).toEqual(['stor-cluster_udn_blue_n1', 'stor-cluster_udn_red_n1']);
  });

  it('write none of these rows when nothing advertises the network', () => {
    const rows = rowsOfN1({ extra: red });
    for (const set of [nodeIPsSet, udnServicesSet, advertisedSet]) expect(has(rows, 'Address_Set', set)).toBe(false);
    expect(has(rows, 'Port_Group', dropGroup)).toBe(false);
  });

  it('include NoOverlay networks without a RouteAdvertisements (util.IsPodNetworkAdvertisedAtNode)', () => {
    const rows = rowsOfN1({ network: noOverlay('Enabled') });
    expect(rowOf(rows, 'Port_Group', dropGroup).ports).toEqual(['stor-cluster_udn_blue_n1']);
  });

  it('include the Layer2 network of stacks/vrf-lite.yaml through its stotr- port (GetNetworkScopedSwitchToRouterPortName)', () => {
    const l2 = world({ extra: advertisement }).replace(
      'topology: Layer3\n    layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16, hostSubnet: 24}]}',
      'topology: Layer2\n    layer2: {role: Primary, subnets: [10.100.0.0/16]}',
    );
    const rows = zoneRows(planOf(l2), 'n1');
    expect(rowOf(rows, 'Port_Group', dropGroup).ports).toEqual(['stotr-cluster_udn_blue_ovn_layer2_switch']);
    const passId = 'cluster_udn_blue-network-controller:AdvertisedNetwork:cluster_udn_blue:1';
    expect(rowOf(rows, 'Logical_Switch', 'cluster_udn_blue_ovn_layer2_switch').acls).toContain(passId);
    const tr = 'cluster_udn_blue_transit_router';
    expect(
      snatsOf(rows, tr, '10.100.0.0/16')
        .map((n) => n.allowed_ext_ips)
        .sort(),
    ).toEqual([nodeIPsSet, udnServicesSet].sort());
  });
});

describe('EVPN transport', () => {
  const evpn = `    transport: EVPN
    evpn:
      vtep: vtep1
      ipVRF: {vni: 100}`;

  it('writes no interconnect rows and counts as advertised (hasInterconnectTransport, IsPodNetworkAdvertisedAtNode)', () => {
    const rows = rowsOfN1({ network: evpn });
    expect(has(rows, 'Logical_Switch', 'cluster_udn_blue_transit_switch')).toBe(false);
    expect(snatsOf(rows, GR, '10.100.0.0/16')[0]!.match).toBe(`ip4.dst == $${nodeIPsSet}`);
    expect(rowOf(rows, 'Port_Group', dropGroup).ports).toEqual(['stor-cluster_udn_blue_n1']);
    // EVPN keeps the cluster subnet route on the gateway router (only NoOverlay narrows it)
    expect(has(rows, 'Logical_Router_Static_Route', `udn-route:${GR}:dst-ip:10.100.0.0/16:100.65.0.1`)).toBe(true);
  });

  it('is refused for Layer2, naming the transport field', () => {
    const l2 = world({ network: evpn.replace('ipVRF: {vni: 100}', 'macVRF: {vni: 100}') }).replace(
      'topology: Layer3\n    layer3: {role: Primary, subnets: [{cidr: 10.100.0.0/16, hostSubnet: 24}]}',
      'topology: Layer2\n    layer2: {role: Primary, subnets: [10.100.0.0/16]}',
    );
    const problems = planOf(l2).problems.filter((p) => p.reason === 'UnsupportedNetworkType');
    expect(problems.map((p) => p.path)).toEqual(['ClusterUserDefinedNetwork/blue: spec.network.transport']);
  });
});
