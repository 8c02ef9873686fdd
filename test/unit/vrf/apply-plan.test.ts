import { describe, expect, it } from 'vitest';
import type { RouteAdvertisements } from '../../../provider/model/routeAdvertisements';
import { type NodeDiscovery, planUplinks } from '../../../provider/uplink';
import { type NodeVrfResult, planVrf, vrfPhase, type VrfHostFacts } from '../../../provider/uplink/vrf';
import { cudn, layer2, ovsBridgeConfig } from '../../support/objects';
import { blueUplinkCluster, mappedFacts, nodeFacts } from '../uplink/world';

// two CUDNs on one Uplink (so one bridge), each with its own RouteAdvertisements
const onBlue = (name: string, subnet: string) =>
  cudn(name, layer2([subnet]), { uplinks: ['blue'], labels: { 'k8s.ovn.org/metadata.name': name } });
const { cluster } = blueUplinkCluster(
  '[{ name: n1, gatewayBridge: breth0 }]',
  [ovsBridgeConfig('blue0')],
  onBlue('one', '10.1.0.0/16'),
  onBlue('two', '10.2.0.0/16'),
);
const EMPTY = { matchLabels: {}, matchExpressions: [] };
const autoFor = (cudn: string): RouteAdvertisements => ({
  ref: `RouteAdvertisements/${cudn}`,
  name: cudn,
  targetVRF: 'auto',
  advertisements: ['PodNetwork'],
  nodeSelector: EMPTY,
  frrConfigurationSelector: EMPTY,
  networkSelectors: [
    {
      networkSelectionType: 'ClusterUserDefinedNetworks',
      cudnSelector: { matchLabels: { 'k8s.ovn.org/metadata.name': cudn } },
    },
  ],
});
const networkIds = { cluster_udn_one: 2, cluster_udn_two: 3 };
const discovery = (mappings = 'physnet:breth0') => {
  const facts = nodeFacts('n1');
  facts.ovs.externalIds = { 'ovn-bridge-mappings': mappings };
  return new Map<string, NodeDiscovery>([['n1', { ok: true, value: facts }]]);
};
const gateway = (plan: ReturnType<typeof planUplinks>) =>
  plan.uplinkStates[0]!.status.conditions.find((c) => c.type === 'GatewayReady')!;

describe('VRF intents in the uplink plan', () => {
  it('one CUDN advertised with auto gets a VRF intent, the other the default domain, and on one bridge that is a conflict (distinct VRFs)', () => {
    const plan = planUplinks({
      cluster,
      owner: 'o',
      discovery: discovery(),
      vrf: { routeAdvertisements: [autoFor('one')], networkIds },
    });
    expect(plan.nodes[0]!.vrf!.map((i) => [i.cudn, i.hostInterface, i.bridge, i.domain.kind])).toEqual([
      ['one', 'blue0', 'br-blue', 'vrf'],
      ['two', 'blue0', 'br-blue', 'default'],
    ]);
    // one in VRF "one" and two in the default VRF still need distinct VRFs on one bridge
    expect(Object.keys(plan.nodes[0]!.conflicts ?? {})).toEqual(['one', 'two']);
  });

  it('a conflict is UplinkConfigurationConflict for every CUDN in it, and nothing new is mapped', () => {
    const plan = planUplinks({
      cluster,
      owner: 'o',
      discovery: discovery(),
      vrf: { routeAdvertisements: [autoFor('one'), autoFor('two')], networkIds },
    });
    expect(plan.nodes[0]!.desired).toEqual([]);
    expect(plan.nodes[0]!.change).toBeUndefined();
    expect(gateway(plan)).toMatchObject({ status: 'False', reason: 'UplinkConfigurationConflict' });
    for (const name of ['cluster_udn_one', 'cluster_udn_two'])
      expect(plan.networks[name]!.conditions[0]).toMatchObject({
        status: 'False',
        reason: 'UplinkConfigurationConflict',
      });
  });

  it('a conflict keeps a mapping already in place (existing programming is not torn down)', () => {
    const plan = planUplinks({
      cluster,
      owner: 'o',
      discovery: discovery('physnet:breth0,cluster_udn_one:br-blue'),
      vrf: { routeAdvertisements: [autoFor('one'), autoFor('two')], networkIds },
    });
    expect(plan.nodes[0]!.desired).toEqual([{ network: 'cluster_udn_one', bridge: 'br-blue' }]);
    expect(plan.nodes[0]!.change?.removed ?? []).toEqual([]);
  });

  it('without RouteAdvertisements both CUDNs share the bridge in the default VRF', () => {
    const plan = planUplinks({
      cluster,
      owner: 'o',
      discovery: discovery(),
      vrf: { routeAdvertisements: [], networkIds },
    });
    expect(plan.nodes[0]!.conflicts).toBeUndefined();
    expect(plan.nodes[0]!.desired.map((d) => d.network)).toEqual(['cluster_udn_one', 'cluster_udn_two']);
  });
});

describe('VRF results in GatewayReady', () => {
  const ready = (results: NodeVrfResult) => {
    const facts = mappedFacts('n1', ['cluster_udn_one', 'cluster_udn_two']);
    const plan = planUplinks({
      cluster,
      owner: 'o',
      discovery: new Map([['n1', { ok: true, value: facts } as NodeDiscovery]]),
      vrf: { routeAdvertisements: [], networkIds },
      vrfResults: new Map([['n1', results]]),
    });
    return gateway(plan);
  };

  it('a node whose VRF step failed reports UplinkVRFAttachmentFailed with the message', () => {
    expect(ready({ ok: false, why: 'on n1, "ip link add" failed' })).toMatchObject({
      status: 'False',
      reason: 'UplinkVRFAttachmentFailed',
      message: expect.stringContaining('ip link add'),
    });
  });

  it('a release still to run is pending; once applied it is GatewayConfigured', () => {
    const outcomes = [
      { cudn: 'one', state: 'default' as const, changed: true as const },
      { cudn: 'two', state: 'default' as const },
    ];
    expect(ready({ ok: true, outcomes, applied: false })).toMatchObject({
      status: 'False',
      reason: 'GatewayConfigurationPending',
    });
    expect(ready({ ok: true, outcomes, applied: true })).toMatchObject({ status: 'True', reason: 'GatewayConfigured' });
  });

  it('vrfPhase says nothing for a CUDN the node result does not name', () => {
    expect(vrfPhase({ ok: true, outcomes: [], applied: false }, 'one')).toBeUndefined();
    expect(vrfPhase(undefined, 'one')).toBeUndefined();
  });
});

describe('a kernel without VRF', () => {
  const facts = (vrfSupport: VrfHostFacts['vrfSupport']): VrfHostFacts => ({
    node: 'n1',
    links: [{ name: 'blue0', index: 5 }],
    routes: [],
    ipv6: false,
    memberships: [],
    vrfSupport,
  });
  const intent = {
    cudn: 'one',
    networkId: 2,
    hostInterface: 'blue0',
    bridge: 'br-blue',
    domain: { kind: 'vrf' as const, vrf: 'one', targets: ['auto'], by: ['one'] },
  };

  it('is refused per node with a clear reason and no steps', () => {
    const plan = planVrf(facts('absent'), [intent], 'o');
    expect(plan.steps).toEqual([]);
    expect(plan.outcomes).toEqual([
      {
        cudn: 'one',
        state: 'refused',
        reason: 'UplinkVRFAttachmentFailed',
        message: expect.stringContaining('node n1 cannot create VRF one for CUDN one: its kernel has no VRF support'),
      },
    ]);
  });

  it('a loadable module is enough: the VRF is created and the interface enslaved', () => {
    const plan = planVrf(facts('loadable'), [intent], 'o');
    expect(plan.outcomes).toEqual([{ cudn: 'one', state: 'enslaved', changed: true }]);
    expect(plan.steps.map((s) => s.summary)).toContain('enslave blue0 into VRF one');
  });
});
