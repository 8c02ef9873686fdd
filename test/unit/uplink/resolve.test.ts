import { describe, expect, it } from 'vitest';
import { findCondition, resolveUplinkState, type ResolveInput } from '../../../provider/uplink';
import { nodeFacts } from './world';

function input(change: (i: ResolveInput) => void = () => undefined): ResolveInput {
  const i: ResolveInput = {
    uplink: 'blue',
    node: 'n1',
    selection: {
      config: { type: 'OVSBridge', hostInterfaceName: 'blue0', nodeSelector: {} },
      index: 0,
      overlapping: false,
    },
    facts: nodeFacts(),
    families: [4],
    gatewayBridge: 'breth0',
    requiredMtu: { mtu: 1400, network: 'cluster_udn_blue' },
  };
  change(i);
  return i;
}

const resolved = (i: ResolveInput) => findCondition(resolveUplinkState(i).status.conditions, 'Resolved')!;

describe('the Resolved decision', () => {
  it('a host port on a bridge with one physical port resolves with its MAC, address and gateway', () => {
    const state = resolveUplinkState(input());
    expect(state.metadata.name).toBe('blue.n1');
    expect(state.status).toMatchObject({
      type: 'OVSBridge',
      hostInterfaceName: 'blue0',
      ovsBridge: { name: 'br-blue' },
      macAddress: '0a:00:00:00:00:01',
      ipAddresses: ['192.0.2.10/24'],
      defaultGateways: ['192.0.2.1'],
      pathMtu: 1500,
    });
    expect(resolved(input())).toEqual({
      type: 'Resolved',
      status: 'True',
      reason: 'Resolved',
      message: 'Uplink discovery succeeded',
    });
  });

  it('overlapping configs are NodeSelectorOverlap', () => {
    expect(resolved(input((i) => (i.selection = { overlapping: true })))).toMatchObject({
      reason: 'NodeSelectorOverlap',
      message: 'multiple Uplink "blue" nodeConfigs select node "n1"',
    });
  });

  it('a missing link is HostInterfaceNotFound', () => {
    expect(resolved(input((i) => (i.facts.links = i.facts.links.filter((l) => l.name !== 'blue0'))))).toMatchObject({
      status: 'False',
      reason: 'HostInterfaceNotFound',
      message: 'host interface blue0 was not found: Link not found',
    });
  });

  it('a multicast or zero MAC is InvalidHostInterface', () => {
    for (const mac of ['01:00:5e:00:00:01', '00:00:00:00:00:00', undefined]) {
      expect(resolved(input((i) => (i.facts.links[0]!.mac = mac))).reason).toBe('InvalidHostInterface');
    }
  });

  it('no address of a cluster family is GatewayInfoUnavailable naming the family', () => {
    expect(resolved(input((i) => (i.families = [4, 6])))).toMatchObject({
      reason: 'GatewayInfoUnavailable',
      message: 'failed to read IP addresses from blue0: failed to find IPv6 address on interface blue0',
    });
  });

  it('link-local and secondary addresses are skipped', () => {
    const state = resolveUplinkState(
      input((i) => {
        i.facts.links[0]!.addresses.unshift(
          { family: 4, address: '169.254.0.5', prefix: 16, scope: 'global', secondary: false, deprecated: false },
          { family: 4, address: '192.0.2.99', prefix: 24, scope: 'global', secondary: true, deprecated: false },
        );
      }),
    );
    expect(state.status.ipAddresses).toEqual(['192.0.2.10/24']);
  });

  it('ECMP default routes are not default gateways', () => {
    const state = resolveUplinkState(
      input((i) =>
        i.facts.routes.push({ family: 4, dst: 'default', gateway: '192.0.2.7', dev: 'blue0', multipath: true }),
      ),
    );
    expect(state.status.defaultGateways).toEqual(['192.0.2.1']);
  });

  it('a node without a default gateway bridge is GatewayInfoUnavailable', () => {
    expect(resolved(input((i) => (i.gatewayBridge = undefined)))).toMatchObject({
      reason: 'GatewayInfoUnavailable',
      message: 'default shared gateway bridge is not available for node "n1"',
    });
  });

  it('an interface on no bridge is BridgeNotFound', () => {
    const r = resolved(input((i) => (i.facts.ovs.bridges[2]!.ports = ['br-blue', 'eth2'])));
    expect(r).toMatchObject({
      reason: 'BridgeNotFound',
      message: 'failed to resolve OVS bridge for blue0: OVS port or interface blue0 is not attached to a bridge',
    });
    const gone = resolved(input((i) => (i.facts.ovs.ports = i.facts.ovs.ports.filter((p) => p.name !== 'blue0'))));
    expect(gone.message).toBe('failed to resolve OVS bridge for blue0: OVS port or interface blue0 not found');
  });

  it('br-int is BridgeInvalid', () => {
    const r = resolved(
      input((i) => {
        i.selection.config!.hostInterfaceName = 'br-int';
        i.facts.links.push({
          name: 'br-int',
          mac: '0a:00:00:00:00:09',
          mtu: 1500,
          addresses: i.facts.links[0]!.addresses,
        });
      }),
    );
    expect(r).toMatchObject({
      reason: 'BridgeInvalid',
      message: 'OVN integration bridge br-int cannot be used as an Uplink bridge',
    });
  });

  it('the default gateway bridge is DefaultGatewayBridgeUnsupported', () => {
    expect(resolved(input((i) => (i.selection.config!.hostInterfaceName = 'breth0')))).toMatchObject({
      reason: 'DefaultGatewayBridgeUnsupported',
      message: 'default shared gateway bridge breth0 cannot be used as an Uplink bridge',
    });
  });

  it('a bridge with two physical ports and no hint is BridgeUplinkNotFound', () => {
    const r = resolved(
      input((i) => {
        i.facts.ovs.bridges[2]!.ports.push('eth3');
        i.facts.ovs.ports.push({ name: 'eth3', interfaces: ['eth3'] });
        i.facts.ovs.interfaces.push({ name: 'eth3', type: '' });
      }),
    );
    expect(r).toMatchObject({
      reason: 'BridgeUplinkNotFound',
      message: 'failed to find interface for bridge br-blue physical uplink -blue',
    });
  });

  it('bridge-uplink in the bridge external_ids names the physical uplink when ports are ambiguous', () => {
    const state = resolveUplinkState(
      input((i) => {
        i.facts.ovs.bridges[2]!.ports.push('eth3');
        i.facts.ovs.bridges[2]!.externalIds['bridge-uplink'] = 'eth2';
        i.facts.ovs.ports.push({ name: 'eth3', interfaces: ['eth3'] });
        i.facts.ovs.interfaces.push({ name: 'eth3', type: '' });
      }),
    );
    expect(findCondition(state.status.conditions, 'Resolved')!.status).toBe('True');
  });

  it('the physical uplink as host interface is InvalidHostInterface', () => {
    expect(
      resolved(
        input((i) => {
          i.selection.config!.hostInterfaceName = 'eth2';
          i.facts.links[1]!.addresses = i.facts.links[0]!.addresses;
        }),
      ),
    ).toMatchObject({
      reason: 'InvalidHostInterface',
      message: 'host interface eth2 is the physical uplink port for OVS bridge br-blue',
    });
  });

  it('a path MTU below the network MTU is MTUInvalid, and the bridge stays in the status', () => {
    const state = resolveUplinkState(input((i) => (i.facts.links[1]!.mtu = 1300)));
    expect(findCondition(state.status.conditions, 'Resolved')).toMatchObject({ reason: 'MTUInvalid' });
    expect(findCondition(state.status.conditions, 'Resolved')!.message).toContain('path MTU 1300');
    expect(state.status.ovsBridge).toEqual({ name: 'br-blue' });
  });

  it('the VLAN tag of the host port is reported', () => {
    const state = resolveUplinkState(input((i) => (i.facts.ovs.ports.find((p) => p.name === 'blue0')!.tag = 100)));
    expect(state.status.vlanTag).toBe(100);
  });
});
