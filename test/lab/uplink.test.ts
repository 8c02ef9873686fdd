import { afterAll, describe, expect, inject, it } from 'vitest';
import { discoverUplinks } from '../../provider/runtime/uplink';
import { findCondition, type UplinkState } from '../../provider/uplink';
import '../setup/lab';
import { closeNodes, labCluster, onNode, uplinkDoc } from './uplink-helpers';

const lab = inject('lab');
const [first, second, third] = lab.nodes as [(typeof lab.nodes)[0], (typeof lab.nodes)[0], (typeof lab.nodes)[0]];

afterAll(async () => {
  await closeNodes();
});

const inventory = `apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: { name: uplink-reasons }
spec:
  zones: central
  ipFamilies: [IPv4]
  nodes:
${lab.nodes.map((n, i) => `    - name: ${n.name}\n      labels: { test.ovnk.io/node: ${n.name}, uplink.ovnk.io/group: ${i < 2 ? 'a' : 'b'} }`).join('\n')}
`;

const resolved = (states: UplinkState[], name: string) =>
  findCondition(states.find((s) => s.metadata.name === name)?.status.conditions, 'Resolved');

describe("the lab's Uplink segments", () => {
  it('each has its external host: a node reaches 203.0.113.1 through blue0 and 198.51.100.1 through red0', async () => {
    // ovn-worker2 tags blue0 with VLAN 100, which the untagged segment host does not answer
    for (const [node, hostInterface, gateway] of [
      [first, 'blue0', '203.0.113.1'],
      [first, 'red0', '198.51.100.1'],
      [second, 'red0', '198.51.100.1'],
      [third, 'red0', '198.51.100.1'],
    ] as const)
      expect(await onNode(node, 'ping', '-c', '1', '-W', '2', '-I', hostInterface, gateway)).toContain('1 received');
  });
});

describe('Uplink discovery on the lab nodes', () => {
  it('resolves red on every node with the host port, its bridge, MAC, address and default gateway', async () => {
    const result = await discoverUplinks(labCluster(lab), 'uplink-lab');
    for (const [i, node] of lab.nodes.entries()) {
      const state = result.uplinkStates.find((s) => s.metadata.name === `red.${node.name}`)!;
      const mac = JSON.parse(await onNode(node, 'ip', '-j', 'link', 'show', 'red0'))[0].address;
      expect(state.spec).toEqual({ uplinkName: 'red', nodeName: node.name });
      expect(state.status).toMatchObject({
        type: 'OVSBridge',
        hostInterfaceName: 'red0',
        ovsBridge: { name: 'br-red' },
        macAddress: mac,
        ipAddresses: [`198.51.100.${12 + i}/24`],
        defaultGateways: ['198.51.100.1'],
      });
      expect(resolved(result.uplinkStates, `red.${node.name}`)).toMatchObject({ status: 'True', reason: 'Resolved' });
    }
    expect(result.uplinks.find((u) => u.metadata.name === 'red')!.status.conditions).toEqual([
      {
        type: 'Ready',
        status: 'True',
        reason: 'Ready',
        message: 'all 3 selected node(s) are resolved',
        lastTransitionTime: expect.any(String),
      },
    ]);
  });

  it("uses each labelled group's interface name, reports the VLAN tag, and refuses the small MTU", async () => {
    const result = await discoverUplinks(labCluster(lab), 'uplink-lab');
    const blue = (node: string) => result.uplinkStates.find((s) => s.metadata.name === `blue.${node}`)!;
    expect(blue(first.name).status.hostInterfaceName).toBe('blue0');
    expect(blue(first.name).status.vlanTag).toBeUndefined();
    expect(blue(second.name).status).toMatchObject({ hostInterfaceName: 'blue0', vlanTag: 100 });
    expect(blue(third.name).status).toMatchObject({ hostInterfaceName: 'blueb0', pathMtu: 1300 });
    expect(resolved(result.uplinkStates, `blue.${third.name}`)).toMatchObject({
      status: 'False',
      reason: 'MTUInvalid',
    });
    expect(result.uplinks.find((u) => u.metadata.name === 'blue')!.status.conditions[0]).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'UplinkStateNotResolved',
      message: `1 of 3 selected node(s) have readiness failures; examples: ${third.name}=MTUInvalid`,
      lastTransitionTime: expect.any(String),
    });
    // before any apply the mappings are pending on the resolved nodes: different reasons give UplinksNotReady
    expect(result.networks['cluster_udn_tenant-blue']!.conditions[0]).toMatchObject({
      reason: 'UplinksNotReady',
      message: `3 active node/uplink readiness check(s) failed; examples: blue/${second.name}=GatewayConfigurationPending, blue/${third.name}=UplinkNotResolvedForNode, blue/${first.name}=GatewayConfigurationPending`,
    });
  });

  it("provokes every Resolved reason on real nodes, in upstream's words", async () => {
    const docs = [
      uplinkDoc('missing', [{ node: first.name, iface: 'nosuch0' }]),
      uplinkDoc('physical', [{ node: first.name, iface: 'eth3' }]),
      uplinkDoc('noaddress', [{ node: first.name, iface: 'eth2' }]),
      uplinkDoc('notovs', [{ node: first.name, iface: 'eth0' }]),
      uplinkDoc('integration', [{ node: first.name, iface: 'br-int' }]),
      uplinkDoc('default', [{ node: first.name, iface: 'breth0' }]),
      uplinkDoc('ambiguous', [{ node: second.name, iface: 'red0' }]),
      uplinkDoc('small', [{ node: third.name, iface: 'blueb0' }]),
      uplinkDoc('overlap', [
        { node: first.name, iface: 'red0' },
        { labels: { 'uplink.ovnk.io/group': 'a' }, iface: 'red0' },
      ]),
      uplinkDoc('nobody', [{ node: 'no-such-node', iface: 'red0' }]),
    ];
    // temporary: an address on the physical port and on br-int, a second physical port on br-red
    await onNode(first, 'ip', 'addr', 'add', '192.0.2.5/24', 'dev', 'eth3');
    await onNode(first, 'ip', 'addr', 'add', '192.0.2.9/32', 'dev', 'br-int');
    await onNode(second, 'ip', 'link', 'add', 'tmpu0', 'type', 'veth', 'peer', 'name', 'tmpu1');
    await onNode(second, 'ovs-vsctl', 'add-port', 'br-red', 'tmpu0');
    try {
      const result = await discoverUplinks(labCluster(lab, inventory + docs.join('')), 'uplink-reasons');
      const at = (u: string, n: string) => resolved(result.uplinkStates, `${u}.${n}`);
      expect(at('missing', first.name)).toMatchObject({
        reason: 'HostInterfaceNotFound',
        message: 'host interface nosuch0 was not found: Link not found',
      });
      expect(at('physical', first.name)).toMatchObject({
        reason: 'InvalidHostInterface',
        message: 'host interface eth3 is the physical uplink port for OVS bridge br-red',
      });
      expect(at('noaddress', first.name)).toMatchObject({
        reason: 'GatewayInfoUnavailable',
        message: 'failed to read IP addresses from eth2: failed to find IPv4 address on interface eth2',
      });
      expect(at('notovs', first.name)).toMatchObject({
        reason: 'BridgeNotFound',
        message: 'failed to resolve OVS bridge for eth0: OVS port or interface eth0 not found',
      });
      expect(at('integration', first.name)).toMatchObject({
        reason: 'BridgeInvalid',
        message: 'OVN integration bridge br-int cannot be used as an Uplink bridge',
      });
      expect(at('default', first.name)).toMatchObject({
        reason: 'DefaultGatewayBridgeUnsupported',
        message: 'default shared gateway bridge breth0 cannot be used as an Uplink bridge',
      });
      expect(at('ambiguous', second.name)).toMatchObject({
        reason: 'BridgeUplinkNotFound',
        message: 'failed to find interface for bridge br-red physical uplink -red',
      });
      expect(at('small', third.name)).toMatchObject({ reason: 'MTUInvalid' });
      expect(at('overlap', first.name)).toMatchObject({
        reason: 'NodeSelectorOverlap',
        message: `multiple Uplink "overlap" nodeConfigs select node "${first.name}"`,
      });
      const ready = (u: string) => result.uplinks.find((x) => x.metadata.name === u)!.status.conditions[0];
      expect(ready('overlap')).toMatchObject({
        reason: 'NodeSelectorOverlap',
        message: `2 of 2 selected node(s) have readiness failures; examples: ${second.name}=BridgeUplinkNotFound, ${first.name}=NodeSelectorOverlap`,
      });
      expect(ready('nobody')).toMatchObject({
        reason: 'NoMatchingNodes',
        message: 'no nodes match any Uplink nodeConfig',
      });
    } finally {
      await onNode(first, 'ip', 'addr', 'del', '192.0.2.5/24', 'dev', 'eth3');
      await onNode(first, 'ip', 'addr', 'del', '192.0.2.9/32', 'dev', 'br-int');
      await onNode(second, 'ovs-vsctl', 'del-port', 'br-red', 'tmpu0');
      await onNode(second, 'ip', 'link', 'del', 'tmpu0');
    }
  });

  it('reports a CUDN whose Uplink does not select every node as UplinkNotFoundForNode', async () => {
    const onlyA = uplinkDoc('only-a', [{ labels: { 'uplink.ovnk.io/group': 'a' }, iface: 'red0' }]);
    const cudn = `---\napiVersion: k8s.ovn.org/v1\nkind: ClusterUserDefinedNetwork\nmetadata: { name: partial }\nspec:\n  namespaceSelector: {}\n  uplinks: [only-a]\n  network: { topology: Layer3, layer3: { role: Primary, subnets: [{ cidr: 10.230.0.0/16 }] } }\n`;
    const result = await discoverUplinks(labCluster(lab, inventory + onlyA + cudn), 'uplink-reasons');
    expect(result.networks.cluster_udn_partial!.conditions[0]).toEqual({
      type: 'UplinksReady',
      status: 'False',
      reason: 'UplinksNotReady',
      message: `3 active node/uplink readiness check(s) failed; examples: only-a/${second.name}=GatewayConfigurationPending, only-a/${third.name}=UplinkNotFoundForNode, only-a/${first.name}=GatewayConfigurationPending`,
    });
    expect(result.nodes.find((n) => n.node === third.name)!.desired).toEqual([]);
  });
});
