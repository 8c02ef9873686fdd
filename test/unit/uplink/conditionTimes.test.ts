import { describe, expect, it } from 'vitest';
import { validateObject } from '../../../provider/model/crd';
import {
  conditionTimesKey,
  parseConditionTimes,
  stampObjects,
  upstreamUplink,
  upstreamUplinkState,
} from '../../../provider/uplink';
import type { UplinkState } from '../../../provider/uplink';
import type { UplinkObjectStatus } from '../../../provider/uplink/plan';

const T1 = '2026-11-26T10:00:00Z';
const T2 = '2026-11-26T11:00:00Z';

const state = (gateway: 'True' | 'False'): UplinkState => ({
  apiVersion: 'k8s.ovn.org/v1alpha1',
  kind: 'UplinkState',
  metadata: { name: 'blue.n1' },
  spec: { uplinkName: 'blue', nodeName: 'n1' },
  status: {
    type: 'OVSBridge',
    hostInterfaceName: 'blue0',
    vlanTag: 100,
    pathMtu: 1500,
    conditions: [
      { type: 'Resolved', status: 'True', reason: 'Resolved', message: '' },
      { type: 'GatewayReady', status: gateway, reason: 'GatewayConfigured', message: '' },
    ],
  },
});

const uplink: UplinkObjectStatus = {
  apiVersion: 'k8s.ovn.org/v1alpha1',
  kind: 'Uplink',
  metadata: { name: 'blue' },
  spec: { nodeConfigs: [{ type: 'OVSBridge', nodeSelector: {}, hostInterfaceName: 'blue0' }] },
  status: {
    conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'ready' }],
    selectedNodes: ['n1'],
    overlappingNodes: [],
  },
} as unknown as UplinkObjectStatus;

describe("conditions' lastTransitionTime", () => {
  it('is now for a condition no node kept, and the node is asked to keep it', () => {
    const out = stampObjects({ uplinks: [uplink], uplinkStates: [state('False')] }, 'o', () => ({}), T1);
    expect(out.uplinkStates[0]!.status.conditions.map((c) => c.lastTransitionTime)).toEqual([T1, T1]);
    expect(out.writes.get('n1')).toEqual({
      [conditionTimesKey('o', 'UplinkState', 'blue.n1')]: `Resolved=True@${T1};GatewayReady=False@${T1}`,
      [conditionTimesKey('o', 'Uplink', 'blue')]: `Ready=True@${T1}`,
    });
  });

  it('is kept while the status stays, changes only for the condition whose status changed, and writes nothing when nothing changed', () => {
    const first = stampObjects({ uplinks: [uplink], uplinkStates: [state('False')] }, 'o', () => ({}), T1);
    const kept = { ...first.writes.get('n1') } as Record<string, string>;
    const same = stampObjects({ uplinks: [uplink], uplinkStates: [state('False')] }, 'o', () => kept, T2);
    expect(same.writes.size).toBe(0);
    expect(same.uplinkStates[0]!.status.conditions.map((c) => c.lastTransitionTime)).toEqual([T1, T1]);
    const flipped = stampObjects({ uplinks: [uplink], uplinkStates: [state('True')] }, 'o', () => kept, T2);
    expect(flipped.uplinkStates[0]!.status.conditions.map((c) => c.lastTransitionTime)).toEqual([T1, T2]);
    expect(parseConditionTimes(flipped.writes.get('n1')![conditionTimesKey('o', 'UplinkState', 'blue.n1')])).toEqual({
      Resolved: { status: 'True', time: T1 },
      GatewayReady: { status: 'True', time: T2 },
    });
  });

  it('is not written for a node that was not discovered, and forget removes what the node keeps', () => {
    const none = stampObjects({ uplinks: [uplink], uplinkStates: [state('True')] }, 'o', () => undefined, T1);
    expect(none.writes.size).toBe(0);
    const kept = { [conditionTimesKey('o', 'UplinkState', 'blue.n1')]: `Resolved=True@${T1}` };
    const forgot = stampObjects({ uplinks: [], uplinkStates: [state('True')] }, 'o', () => kept, T2, true);
    expect(forgot.writes.get('n1')).toEqual({ [conditionTimesKey('o', 'UplinkState', 'blue.n1')]: undefined });
  });

  it("makes objects upstream's CRDs accept: times stamped, our extensions moved to annotations", () => {
    const out = stampObjects({ uplinks: [uplink], uplinkStates: [state('True')] }, 'o', () => ({}), T1);
    expect(validateObject(state('True'))).not.toEqual([]);
    const upstreamState = upstreamUplinkState(out.uplinkStates[0]!);
    expect(validateObject(upstreamState)).toEqual([]);
    expect(upstreamState.metadata).toEqual({
      name: 'blue.n1',
      annotations: { 'ovnk.io/vlan-tag': '100', 'ovnk.io/path-mtu': '1500' },
    });
    expect(validateObject(upstreamUplink(out.uplinks[0]!))).toEqual([]);
  });
});
