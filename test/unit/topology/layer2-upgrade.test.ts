/**
 * The old Layer2 topology and the transitional rows of OKEP-5094's rolling upgrade, on upstream's
 * test data (example B: zone of test-node, node id 4, and stale-node, id 5). Each expectation names
 * the upstream code at 8871cd9 (go-controller/pkg/ovn/) or the OKEP section it follows.
 */
import { describe, expect, it } from 'vitest';
import { renderNetwork, type RenderInput } from '../../../provider/topology';
import { exampleB, has, routeLines, rowOf, rowsOf } from './fixtures';

const e2 = { 'k8s.ovn.org/network': 'isolatednet', 'k8s.ovn.org/topology': 'layer2' };
const SWITCH = 'isolatednet_ovn_layer2_switch';
const TR = 'isolatednet_transit_router';
const GR = 'GR_isolatednet_test-node';

/** Example B with each listed node on the old topology. */
function withOld(...old: string[]): RenderInput {
  const input = exampleB();
  input.nodes = input.nodes.map((n) => (old.includes(n.name) ? { ...n, layer2TopologyVersion: '1.0' as const } : n));
  return input;
}

describe('Layer2 zone of a node not yet upgraded (upstream with Layer2UsesTransitRouter false)', () => {
  const rows = renderNetwork(withOld('test-node'));

  it('has no transit router and no transit-router ports', () => {
    expect(has(rows, 'Logical_Router', TR)).toBe(false);
    expect(rowsOf(rows, 'Logical_Router_Port').map((p) => p.name)).toEqual([`rtoe-${GR}`, `rtos-${SWITCH}`]);
  });

  it('attaches the gateway router to the switch with the join and gateway addresses (gateway.go createGWRouterPort)', () => {
    expect(rowOf(rows, 'Logical_Router_Port', `rtos-${SWITCH}`)).toEqual({
      name: `rtos-${SWITCH}`,
      networks: ['100.65.0.4/16', '100.200.0.1/16'],
      mac: '0a:58:64:41:00:04',
      options: { gateway_mtu: '1400' },
      external_ids: e2,
    });
  });

  it('peers it from a router port with the node gateway port key (gateway.go createGWRouterPeerSwitchPort)', () => {
    expect(rowOf(rows, 'Logical_Switch_Port', `stor-${SWITCH}`)).toEqual({
      name: `stor-${SWITCH}`,
      addresses: ['router'],
      type: 'router',
      options: { 'router-port': `rtos-${SWITCH}`, 'requested-tnl-key': '32764' },
      external_ids: e2,
    });
  });

  it('stands in for the other node with a remote port (layer2 controller addSwitchPortForRemoteNodeGR)', () => {
    expect(rowOf(rows, 'Logical_Switch_Port', `stor-${SWITCH}_stale-node`)).toEqual({
      name: `stor-${SWITCH}_stale-node`,
      addresses: ['0a:58:64:41:00:05 100.65.0.5/16'],
      type: 'remote',
      options: { 'requested-tnl-key': '32763', 'requested-chassis': 'chassis-stale' },
      external_ids: { ...e2, 'k8s.ovn.org/node': 'stale-node' },
    });
  });

  it('keeps policies and SNATs on the gateway router, without pod routes (SyncGateway, addOrUpdateUDNClusterSubnetEgressSNAT, GetNetworkScopedClusterSubnetSNATMatch)', () => {
    expect(rowsOf(rows, 'Logical_Router_Policy').map((p) => p.match)).toEqual([
      `inport == "rtos-${SWITCH}" && ip4.dst == 192.168.126.202 /* ${SWITCH} */`,
    ]);
    expect(rowOf(rows, 'Logical_Router', GR).policies).toHaveLength(1);
    expect(rowOf(rows, 'NAT', `udn-nat:${GR}:snat:169.254.169.14:100.200.0.0/16`)).toMatchObject({
      logical_port: `rtoj-${GR}`,
      match: 'eth.dst == 0a:58:64:c8:00:02',
    });
    expect(rowOf(rows, 'NAT', `udn-nat:${GR}:snat:169.254.169.13:100.200.0.0/16`).match).toBe(
      `outport == "rtoe-${GR}"`,
    );
    expect(routeLines(rows, GR)).toEqual([
      `0.0.0.0/0 dst-ip 192.168.126.1 rtoe-${GR}`,
      `169.254.169.0/24 dst-ip 169.254.169.4 rtoe-${GR}`,
    ]);
  });

  it('takes a pinned gateway port key (the node annotation k8s.ovn.org/udn-layer2-node-gateway-router-lrp-tunnel-ids)', () => {
    const input = withOld('test-node');
    input.nodes[0] = { ...input.nodes[0]!, layer2GatewayTunnelIds: { isolatednet: 7 } };
    const port = rowOf(renderNetwork(input), 'Logical_Switch_Port', `stor-${SWITCH}`);
    expect(port.options['requested-tnl-key']).toBe('7');
  });
});

describe('Layer2 zone of an upgraded node while another node is old (OKEP-5094 "Rolling upgrade")', () => {
  const rows = renderNetwork(withOld('stale-node'));

  it('adds the -upgrade port pair with the old gateway MAC and key (layer2 controller ensureUpgradeTopology)', () => {
    expect(rowOf(rows, 'Logical_Switch_Port', `stotr-${SWITCH}-upgrade`)).toEqual({
      name: `stotr-${SWITCH}-upgrade`,
      addresses: ['router'],
      type: 'router',
      options: { 'router-port': `trtos-${SWITCH}-upgrade`, 'requested-tnl-key': '32764' },
      external_ids: e2,
    });
    expect(rowOf(rows, 'Logical_Router_Port', `trtos-${SWITCH}-upgrade`)).toEqual({
      name: `trtos-${SWITCH}-upgrade`,
      networks: ['100.65.255.254/16'],
      mac: '0a:58:64:41:00:04',
    });
    expect(rowOf(rows, 'Logical_Router', TR).ports).toContain(`trtos-${SWITCH}-upgrade`);
  });

  it('gives trtos the management masquerade IP during the transition (ensureUpgradeTopology)', () => {
    expect(rowOf(rows, 'Logical_Router_Port', `trtos-${SWITCH}`).networks).toEqual([
      '100.200.0.1/16',
      '169.254.169.14/24',
    ]);
  });

  it('retains the old node remote port and routes to its join IP via itself (addRouterSetupForRemoteNodeGR)', () => {
    expect(rowOf(rows, 'Logical_Switch_Port', `stor-${SWITCH}_stale-node`).type).toBe('remote');
    expect(rowOf(rows, 'Logical_Switch', SWITCH).ports).toContain(`stor-${SWITCH}_stale-node`);
    expect(has(rows, 'Logical_Router_Port', 'trtor-GR_isolatednet_stale-node')).toBe(false);
    expect(routeLines(rows, TR)).toEqual([
      '100.200.0.0/16 src-ip 100.88.0.9',
      '100.65.0.4 dst-ip 100.88.0.9',
      '100.65.0.5 dst-ip 100.65.0.5',
    ]);
  });

  it('keeps the new topology for its own gateway router (gateway.go gatewayInit after oldLayer2TopoCleanup)', () => {
    expect(has(rows, 'Logical_Router_Port', `rtos-${SWITCH}`)).toBe(false);
    expect(has(rows, 'Logical_Switch_Port', `stor-${SWITCH}`)).toBe(false);
    expect(rowOf(rows, 'Logical_Router', GR).ports).toEqual([`rtotr-${GR}`, `rtoe-${GR}`]);
  });
});

describe('Layer2 zone once every node is upgraded (OKEP-5094 "After upgrade cleanups")', () => {
  it('renders exactly the rows of a network that was never on the old topology (cleanupUpgradeTopology)', () => {
    expect(renderNetwork(withOld())).toEqual(renderNetwork(exampleB()));
    const rows = renderNetwork(withOld());
    expect(rows.some((r) => String(r.columns.name ?? '').endsWith('-upgrade'))).toBe(false);
    expect(rowOf(rows, 'Logical_Router_Port', `trtos-${SWITCH}`).networks).toEqual(['100.200.0.1/16']);
  });
});

describe('the old Layer2 topology is refused where it is not rendered', () => {
  it('names the node field in the central layout', () => {
    const input = withOld('test-node');
    input.zone = { name: 'central', localNodes: ['test-node', 'stale-node'], layout: 'central' };
    expect(() => renderNetwork(input)).toThrow(/nodes\[0\]\.layer2TopologyVersion.*per-node layout/);
  });

  it('names the node field in local gateway mode', () => {
    const input = withOld('stale-node');
    input.cluster = { ...input.cluster, gatewayMode: 'local' };
    expect(() => renderNetwork(input)).toThrow(/nodes\[1\]\.layer2TopologyVersion.*shared gateway mode/);
  });

  it('refuses a pod whose tunnel key is a node gateway port key', () => {
    const input = withOld('stale-node');
    input.pods = [
      {
        name: 'p',
        namespace: 'namespace1',
        node: 'test-node',
        nadKey: 'namespace1/blue-net',
        ips: ['100.200.0.3'],
        tunnelId: 32763,
      },
    ];
    expect(() => renderNetwork(input)).toThrow(/pods\[0\]\.tunnelId.*stale-node/);
  });
});
