/**
 * The tests' object builders (test/support/objects.ts) write what upstream's CRDs and our
 * Inventory schema accept: each is loaded by the loader the CLI uses, which validates every
 * document against its kind's schema, and planned where a plan can take it.
 */
import { describe, expect, it } from 'vitest';
import { loadDocuments } from '../../../provider/model/load';
import { planTopology } from '../../../provider/runtime/plan';
import {
  chassisNode,
  cudn,
  cudnsLabelled,
  gatewayNode,
  inventory,
  labelledNamespace,
  layer2,
  layer3,
  networkConnect,
  networkFor,
  ovsBridgeConfig,
  routeAdvertisements,
  udn,
  uplink,
  uplinkState,
  yamlOf,
} from '../../support/objects';

const owner = inventory('builders', {
  zones: 'central',
  namespaces: [labelledNamespace('blue'), labelledNamespace('green'), { name: 'red' }],
  nodes: [chassisNode(1), { ...gatewayNode(2), labels: { uplink: 'yes' } }],
});
const world = [
  owner,
  networkFor('blue', layer3('10.10.0.0/16', 24), { labels: { connected: 'yes' } }),
  networkFor('green', layer2(['10.20.0.0/16']), { labels: { connected: 'yes' } }),
  udn('red', 'net', layer3('10.30.0.0/16', 24)),
  networkConnect('blue-green', {
    networkSelectors: [cudnsLabelled({ connected: 'yes' })],
    connectSubnets: [{ cidr: '192.168.0.0/16', networkPrefix: 24 }],
  }),
];
const uplinked = [
  inventory('uplinked', { ipFamilies: ['IPv4'], nodes: [{ ...gatewayNode(1), labels: { uplink: 'yes' } }] }),
  uplink('blue', [ovsBridgeConfig('blue0', { uplink: 'yes' })]),
  cudn('tenant', layer3('10.1.0.0/16'), { uplinks: ['blue'], labels: { ra: 'blue' } }),
  routeAdvertisements('blue', { ra: 'blue' }),
];

describe('the object builders of the tests', () => {
  it('write networks, a connect and an Inventory that load without a problem and plan', () => {
    const text = yamlOf(...world);
    expect(loadDocuments(text).problems).toEqual([]);
    expect(loadDocuments(text).documents.map((d) => d.ref)).toEqual([
      'Inventory/builders',
      'ClusterUserDefinedNetwork/blue',
      'ClusterUserDefinedNetwork/green',
      'UserDefinedNetwork/red/net',
      'ClusterNetworkConnect/blue-green',
    ]);
    const planned = planTopology(text, undefined);
    expect(planned.ok ? [] : planned).toEqual([]);
  });

  it('write an Uplink, its CUDN and a RouteAdvertisements that load without a problem', () => {
    expect(loadDocuments(yamlOf(...uplinked)).problems).toEqual([]);
  });

  it("write an UplinkState that upstream's CRD accepts", () => {
    const state = uplinkState('blue', 'n1', {
      hostInterfaceName: 'breth0',
      macAddress: '02:42:ac:12:00:02',
      ipAddresses: ['192.0.2.10/24'],
      defaultGateways: ['192.0.2.1'],
      conditions: [{ type: 'Resolved', status: 'True', reason: 'Resolved', message: '' }],
    });
    // The runtime's conditions carry no time; the API server's objects do (the CRD requires it).
    const stamped = (c: object) => ({ ...c, lastTransitionTime: '2026-01-01T00:00:00Z' });
    const stored = { ...state, status: { ...state.status, conditions: state.status.conditions.map(stamped) } };
    expect(loadDocuments(yamlOf(stored)).problems).toEqual([]);
  });

  it('are checked for real: a network the CRD refuses is a problem naming its field', () => {
    const refused = loadDocuments(yamlOf(networkFor('blue', layer3('not-a-cidr', 24))));
    expect(refused.problems.map((p) => p.path)).toContainEqual(
      expect.stringContaining('ClusterUserDefinedNetwork/blue'),
    );
  });
});
