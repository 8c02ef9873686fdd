import { describe, expect, it } from 'vitest';
import type { RouteAdvertisements } from '../../../provider/model/routeAdvertisements';
import { type NodeDiscovery, type NodeFlowResult, planUplinks } from '../../../provider/uplink';
import { ovsBridgeConfig } from '../../support/objects';
import { blueUplinkCluster, mappedFacts, nodeFacts, tenant } from './world';

const { cluster } = blueUplinkCluster(
  '[{ name: n1, gatewayBridge: breth0 }, { name: n2, gatewayBridge: breth0 }]',
  [ovsBridgeConfig('blue0')],
  tenant,
);

describe('the uplink plan', () => {
  it('offline, it names one UplinkState per selected node and knows no readiness yet', () => {
    const plan = planUplinks({ cluster, owner: 'o' });
    expect(plan.uplinkStates.map((s) => [s.metadata.name, s.spec, s.status])).toEqual([
      [
        'blue.n1',
        { uplinkName: 'blue', nodeName: 'n1' },
        { type: 'OVSBridge', hostInterfaceName: 'blue0', conditions: [] },
      ],
      [
        'blue.n2',
        { uplinkName: 'blue', nodeName: 'n2' },
        { type: 'OVSBridge', hostInterfaceName: 'blue0', conditions: [] },
      ],
    ]);
    expect(plan.uplinks[0]!.status).toEqual({ conditions: [], selectedNodes: ['n1', 'n2'], overlappingNodes: [] });
    expect(plan.networks.cluster_udn_tenant!.conditions).toEqual([]);
  });

  it('with facts, it maps the CUDN to the resolved bridge on every node, and is pending until written', () => {
    const discovery = new Map<string, NodeDiscovery>([
      ['n1', { ok: true, value: nodeFacts('n1') }],
      ['n2', { ok: true, value: nodeFacts('n2') }],
    ]);
    const plan = planUplinks({ cluster, owner: 'o', discovery });
    expect(plan.nodes.map((n) => n.change?.mappings)).toEqual([
      'physnet:breth0,cluster_udn_tenant:br-blue',
      'physnet:breth0,cluster_udn_tenant:br-blue',
    ]);
    expect(plan.networks.cluster_udn_tenant!.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'GatewayConfigurationPending',
    });
  });

  it('a node already mapped is GatewayReady and needs no change', () => {
    const facts = mappedFacts('n1', ['cluster_udn_tenant']);
    const plan = planUplinks({
      cluster,
      owner: 'o',
      discovery: new Map<string, NodeDiscovery>([
        ['n1', { ok: true, value: facts }],
        ['n2', { ok: true, value: { ...facts, node: 'n2' } }],
      ]),
    });
    expect(plan.nodes.every((n) => n.change === undefined)).toBe(true);
    expect(plan.networks.cluster_udn_tenant!.conditions[0]).toMatchObject({ status: 'True', reason: 'UplinksReady' });
    expect(plan.uplinkStates[0]!.status.conditions[1]).toMatchObject({ type: 'GatewayReady', status: 'True' });
  });

  it("a mapped node whose bridge flows are not in place is pending, and a failed flow write is upstream's UplinkGatewayProgrammingFailed", () => {
    const facts = mappedFacts('n1', ['cluster_udn_tenant']);
    const discovery = new Map<string, NodeDiscovery>([
      ['n1', { ok: true, value: facts }],
      ['n2', { ok: true, value: { ...facts, node: 'n2' } }],
    ]);
    const bridge = { bridge: 'br-blue', networks: ['cluster_udn_tenant'], missing: 0, unexpected: 0, written: false };
    const gatewayReady = (flows: NodeFlowResult) =>
      planUplinks({ cluster, owner: 'o', discovery, flowResults: new Map([['n1', flows]]) })
        .uplinkStates.find((s) => s.spec.nodeName === 'n1')!
        .status.conditions.find((c) => c.type === 'GatewayReady');
    expect(gatewayReady({ ok: true, bridges: [bridge] })).toMatchObject({ status: 'True' });
    expect(gatewayReady({ ok: true, bridges: [{ ...bridge, missing: 3 }] })).toMatchObject({
      status: 'False',
      reason: 'GatewayConfigurationPending',
    });
    expect(
      gatewayReady({ ok: true, bridges: [{ ...bridge, error: 'ports without an ofport on br-blue: p' }] }),
    ).toMatchObject({
      status: 'False',
      reason: 'UplinkGatewayProgrammingFailed',
    });
  });

  it('an unreachable node publishes no state and fails alone', () => {
    const discovery = new Map<string, NodeDiscovery>([
      ['n1', { ok: true, value: nodeFacts('n1') }],
      ['n2', { ok: false, reason: 'HostUnreachable', why: 'cannot reach n2' }],
    ]);
    const plan = planUplinks({ cluster, owner: 'o', discovery });
    expect(plan.uplinkStates.map((s) => s.metadata.name)).toEqual(['blue.n1']);
    expect(plan.nodes[1]).toEqual({
      node: 'n2',
      desired: [],
      error: { reason: 'HostUnreachable', message: 'cannot reach n2' },
    });
    expect(plan.nodes[0]!.change).toBeDefined();
    expect(plan.uplinks[0]!.status.conditions[0]).toMatchObject({
      reason: 'MissingUplinkState',
      message: '1 of 2 selected node(s) have readiness failures; examples: n2=MissingUplinkState',
    });
  });

  it('a failed mapping write is UplinkBridgeMappingFailed on that node', () => {
    const discovery = new Map<string, NodeDiscovery>([
      ['n1', { ok: true, value: nodeFacts('n1') }],
      ['n2', { ok: true, value: nodeFacts('n2') }],
    ]);
    const plan = planUplinks({
      cluster,
      owner: 'o',
      discovery,
      mappingFailures: new Map([['n2', 'transaction failed']]),
    });
    const gateway = plan.uplinkStates.find((s) => s.metadata.name === 'blue.n2')!.status.conditions[1];
    expect(gateway).toMatchObject({
      reason: 'UplinkBridgeMappingFailed',
      message:
        '1 of 1 active CUDN(s) have incomplete Uplink gateway configuration; examples: cluster_udn_tenant=UplinkBridgeMappingFailed: transaction failed',
    });
  });

  // upstream's error classification (uplink-upstream.md 3.5): only VRF attach and detach errors are
  // tagged UplinkVRFAttachmentFailed; an untagged error (a node that stopped answering) is
  // UplinkGatewayProgrammingFailed
  it('a node that stops answering during its VRF work fails a CUDN that needs no VRF with UplinkGatewayProgrammingFailed, not UplinkVRFAttachmentFailed', () => {
    const facts = mappedFacts('n1', ['cluster_udn_tenant']);
    const discovery = new Map<string, NodeDiscovery>([
      ['n1', { ok: true, value: facts }],
      ['n2', { ok: true, value: { ...facts, node: 'n2' } }],
    ]);
    const advertised: RouteAdvertisements = {
      ref: 'RouteAdvertisements/tenant',
      name: 'tenant',
      targetVRF: 'auto',
      advertisements: ['PodNetwork'],
      nodeSelector: { matchLabels: {}, matchExpressions: [] },
      frrConfigurationSelector: { matchLabels: {}, matchExpressions: [] },
      networkSelectors: [
        { networkSelectionType: 'ClusterUserDefinedNetworks', cudnSelector: { matchLabels: {}, matchExpressions: [] } },
      ],
    };
    const reasonOn = (routeAdvertisements: RouteAdvertisements[]) =>
      planUplinks({
        cluster,
        owner: 'o',
        discovery,
        vrf: { routeAdvertisements, networkIds: { cluster_udn_tenant: 5 } },
        vrfResults: new Map([['n1', { ok: false, why: 'SSH connection to n1 lost', lost: true }]]),
      })
        .uplinkStates.find((s) => s.spec.nodeName === 'n1')!
        .status.conditions.find((c) => c.type === 'GatewayReady');
    expect(reasonOn([])).toMatchObject({ status: 'False', reason: 'UplinkGatewayProgrammingFailed' });
    expect(reasonOn([advertised])).toMatchObject({ status: 'False', reason: 'UplinkVRFAttachmentFailed' });
  });
});
