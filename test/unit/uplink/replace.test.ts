import { describe, expect, it } from 'vitest';
import { planTopology } from '../../../provider/runtime/plan';
import { parseState, serializeState } from '../../../provider/runtime/state';
import { topologyInputs } from '../../../provider/topology/fromCluster';
import { renderNetwork } from '../../../provider/topology/render';
import { uplinkReplacements, uplinksState } from '../../../provider/uplink';
import {
  clusterOf as objectsCluster,
  cudn,
  inventory,
  labelledNamespace,
  layer2,
  ovsBridgeConfig,
  uplink,
} from '../../support/objects';

const node = {
  name: 'n1',
  gatewayBridge: 'breth0',
  gatewayMac: '0a:58:0a:00:00:01',
  nodeIPs: ['172.18.0.2/16'],
  gatewayNextHops: ['172.18.0.1'],
};
/** Uplinks up-a (blue0) and up-b (blue1), and the Layer2 CUDN blue on `uplinks` (none: no spec.uplinks). */
const world = (uplinks: string | undefined) => [
  inventory('inv', { ipFamilies: ['IPv4'], namespaces: [labelledNamespace('blue')], nodes: [node] }),
  uplink('up-a', [ovsBridgeConfig('blue0')]),
  uplink('up-b', [ovsBridgeConfig('blue1')]),
  cudn('blue', layer2(['10.10.0.0/16']), {
    namespaceSelector: { matchLabels: { network: 'blue' } },
    ...(uplinks === undefined ? {} : { uplinks: [uplinks] }),
  }),
];
const clusterOf = (uplinks: string | undefined) => {
  const built = objectsCluster(...world(uplinks));
  expect(built.problems).toEqual([]);
  return built.cluster;
};

describe('spec.uplinks kept in state, a change reported as a replacement', () => {
  it("the state keeps every CUDN's uplinks, [] for none, and survives a round trip", () => {
    const first = planTopology(clusterOf('up-a'));
    expect(first.ok && first.plan.state.uplinks).toEqual({ cluster_udn_blue: ['up-a'] });
    const stored = parseState(serializeState(first.ok ? first.plan.state : (undefined as never)), 'state');
    expect(stored.uplinks).toEqual({ cluster_udn_blue: ['up-a'] });
    expect(uplinksState(clusterOf(undefined).networks)).toEqual({ cluster_udn_blue: [] });
  });

  it('an older state without the field parses, and reports nothing', () => {
    const planned = planTopology(clusterOf('up-a'));
    const { uplinks: _dropped, ...older } = planned.ok ? planned.plan.state : (undefined as never);
    const old = parseState(JSON.stringify(older), 'state');
    expect(old.uplinks).toBeUndefined();
    expect(uplinkReplacements(old.uplinks, clusterOf('up-b').networks)).toEqual([]);
  });

  it('a changed, added or removed Uplink is a replacement naming the object, the old and the new value', () => {
    expect(uplinkReplacements({ cluster_udn_blue: ['up-a'] }, clusterOf('up-b').networks)).toEqual([
      {
        network: 'cluster_udn_blue',
        from: ['up-a'],
        to: ['up-b'],
        message: expect.stringContaining('ClusterUserDefinedNetwork/blue: spec.uplinks changed from [up-a] to [up-b]'),
      },
    ]);
    expect(uplinkReplacements({ cluster_udn_blue: [] }, clusterOf('up-a').networks)[0]!.message).toContain(
      'from none to [up-a]',
    );
    expect(uplinkReplacements({ cluster_udn_blue: ['up-a'] }, clusterOf(undefined).networks)[0]!.to).toEqual([]);
  });

  it('the same uplinks, or a network new since the state, is no replacement', () => {
    expect(uplinkReplacements({ cluster_udn_blue: ['up-a'] }, clusterOf('up-a').networks)).toEqual([]);
    expect(uplinkReplacements({}, clusterOf('up-a').networks)).toEqual([]);
  });
});

describe('the localnet port of an Uplink-backed CUDN', () => {
  const localnets = (uplinks: string | undefined) => {
    const cluster = clusterOf(uplinks);
    const planned = planTopology(cluster);
    if (!planned.ok) throw new Error('plan failed');
    // the node's UplinkState of up-a gives the gateway router's external side (issue 16 point 6)
    const fromState = { bridge: 'br-blue', mac: '0a:58:0a:00:00:02', ips: ['203.0.113.2/24'], nextHops: [] };
    const gateways = new Map([['up-a', new Map([['n1', fromState]])]]);
    const inputs = topologyInputs(cluster, planned.plan.allocation, {}, undefined, {}, gateways).zones[0]!.inputs;
    return inputs
      .flatMap((i) => renderNetwork(i))
      .filter((r) => r.table === 'Logical_Switch_Port' && r.columns.type === 'localnet');
  };

  it("uses the network name as network_name (upstream's bridge-mapping key), not physnet", () => {
    const [port] = localnets('up-a');
    expect((port!.columns.options as Record<string, string>).network_name).toBe('cluster_udn_blue');
  });

  it('a CUDN without an Uplink keeps physnet', () => {
    const [port] = localnets(undefined);
    expect((port!.columns.options as Record<string, string>).network_name).toBe('physnet');
  });
});
