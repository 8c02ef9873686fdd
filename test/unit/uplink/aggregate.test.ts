import { describe, expect, it } from 'vitest';
import {
  condition,
  gatewayReady,
  selectForNode,
  type SelectableNode,
  selectNodes,
  stateObject,
  type UplinkState,
  uplinkReady,
  uplinksReady,
} from '../../../provider/uplink';
import { uplink } from './world';

const resolvedState = (
  u: string,
  node: string,
  iface: string,
  gateway = condition('GatewayReady', 'True', 'GatewayConfigured', ''),
): UplinkState =>
  stateObject(u, node, {
    type: 'OVSBridge',
    hostInterfaceName: iface,
    conditions: [condition('Resolved', 'True', 'Resolved', 'Uplink discovery succeeded'), gateway],
  });
const failedState = (u: string, node: string, reason: string): UplinkState =>
  stateObject(u, node, {
    type: 'OVSBridge',
    hostInterfaceName: 'blue0',
    conditions: [condition('Resolved', 'False', reason, 'x')],
  });
const byName = (states: UplinkState[]) => new Map(states.map((s) => [s.metadata.name, s]));

describe('selection', () => {
  const blue = uplink('blue', [
    { hostInterfaceName: 'a0', matchLabels: { group: 'a' } },
    { hostInterfaceName: 'b0', matchLabels: { group: 'b' } },
    { hostInterfaceName: 'x0', matchLabels: { zone: 'x' } },
  ]);

  it('the first matching config selects a node', () => {
    expect(selectForNode(blue, { group: 'b' })).toMatchObject({ index: 1, overlapping: false });
  });

  it('two matching configs are an overlap without a config', () => {
    expect(selectForNode(blue, { group: 'a', zone: 'x' })).toEqual({ overlapping: true });
  });

  it('over many nodes, conflicts are sorted and unselected nodes left out', () => {
    const s = selectNodes(blue, [
      { name: 'z', labels: { group: 'a', zone: 'x' } },
      { name: 'm', labels: { group: 'b' } },
      { name: 'c', labels: { group: 'b', zone: 'x' } },
      { name: 'q', labels: {} },
    ]);
    expect([...s.selected.keys()]).toEqual(['m']);
    expect(s.conflicts).toEqual(['c', 'z']);
  });
});

describe('Uplink Ready', () => {
  const blue = uplink('blue', [{ hostInterfaceName: 'blue0' }]);
  const nodes = ['n1', 'n2', 'n3', 'n4'].map((name) => ({ name, labels: {} }));

  it('all resolved nodes make Ready True with the count', () => {
    const states = byName(nodes.map((n) => resolvedState('blue', n.name, 'blue0')));
    expect(uplinkReady(blue, selectNodes(blue, nodes), states)).toEqual(
      condition('Ready', 'True', 'Ready', 'all 4 selected node(s) are resolved'),
    );
  });

  it('no matching node is NoMatchingNodes', () => {
    const none = uplink('none', [{ hostInterfaceName: 'x', matchLabels: { a: 'b' } }]);
    expect(uplinkReady(none, selectNodes(none, nodes), new Map())).toMatchObject({
      status: 'False',
      reason: 'NoMatchingNodes',
      message: 'no nodes match any Uplink nodeConfig',
    });
  });

  it('failures give the highest-precedence reason and three sorted examples', () => {
    const states = byName([
      failedState('blue', 'n1', 'MTUInvalid'),
      failedState('blue', 'n2', 'BridgeNotFound'),
      resolvedState('blue', 'n3', 'other0'),
    ]);
    expect(uplinkReady(blue, selectNodes(blue, nodes), states)).toEqual(
      condition(
        'Ready',
        'False',
        'MissingUplinkState',
        '4 of 4 selected node(s) have readiness failures; examples: n1=MTUInvalid, n2=BridgeNotFound, n3=NodeConfigMismatch',
      ),
    );
  });

  it('overlap outranks every other failure', () => {
    const two = uplink('blue', [{ hostInterfaceName: 'blue0' }, { hostInterfaceName: 'x', matchLabels: { x: 'y' } }]);
    const some: SelectableNode[] = [
      { name: 'n1', labels: { x: 'y' } },
      { name: 'n2', labels: {} },
    ];
    expect(uplinkReady(two, selectNodes(two, some), new Map())).toMatchObject({
      reason: 'NodeSelectorOverlap',
      message:
        '2 of 2 selected node(s) have readiness failures; examples: n1=NodeSelectorOverlap, n2=MissingUplinkState',
    });
  });

  it('a selector upstream cannot convert is InvalidSpec', () => {
    expect(uplinkReady(blue, selectNodes(blue, nodes), new Map(), 'bad')).toMatchObject({
      reason: 'InvalidSpec',
      message: 'Uplink is not ready because its spec is not accepted',
    });
  });
});

describe('CUDN UplinksReady', () => {
  const blue = uplink('blue', [{ hostInterfaceName: 'blue0', matchLabels: { group: 'a' } }]);
  const base = {
    cudn: 'tenant',
    uplinks: ['blue'],
    gatewayMode: 'shared',
    transport: 'Geneve',
    uplinkObjects: new Map([['blue', blue]]),
    invalidUplinks: new Map<string, string>(),
  };

  it('all active nodes resolved and configured make UplinksReady True', () => {
    const nodes = [{ name: 'n1', labels: { group: 'a' } }];
    expect(
      uplinksReady({ ...base, activeNodes: nodes, states: byName([resolvedState('blue', 'n1', 'blue0')]) }),
    ).toEqual(condition('UplinksReady', 'True', 'UplinksReady', 'Uplinks are ready for all active CUDN nodes'));
  });

  it('an active node the Uplink does not select is UplinkNotFoundForNode', () => {
    const nodes: SelectableNode[] = [
      { name: 'n1', labels: { group: 'a' } },
      { name: 'n2', labels: {} },
    ];
    expect(
      uplinksReady({ ...base, activeNodes: nodes, states: byName([resolvedState('blue', 'n1', 'blue0')]) }),
    ).toEqual(
      condition(
        'UplinksReady',
        'False',
        'UplinkNotFoundForNode',
        '1 active node/uplink readiness check(s) failed; examples: blue/n2=UplinkNotFoundForNode',
      ),
    );
  });

  it('different failure reasons give UplinksNotReady', () => {
    const nodes: SelectableNode[] = [
      { name: 'n1', labels: { group: 'a' } },
      { name: 'n2', labels: {} },
    ];
    const pending = resolvedState(
      'blue',
      'n1',
      'blue0',
      condition('GatewayReady', 'False', 'GatewayConfigurationPending', 'x'),
    );
    expect(uplinksReady({ ...base, activeNodes: nodes, states: byName([pending]) })).toMatchObject({
      reason: 'UplinksNotReady',
      message:
        '2 active node/uplink readiness check(s) failed; examples: blue/n1=GatewayConfigurationPending, blue/n2=UplinkNotFoundForNode',
    });
  });

  it('a missing Uplink, local gateway mode and EVPN are reported first', () => {
    expect(uplinksReady({ ...base, uplinks: ['red'], activeNodes: [], states: new Map() })).toMatchObject({
      reason: 'UplinkNotFound',
      message: 'Uplink red is missing',
    });
    expect(uplinksReady({ ...base, gatewayMode: 'local', activeNodes: [], states: new Map() })).toMatchObject({
      reason: 'UplinkUnsupportedGatewayMode',
      message: 'Uplink requires shared gateway mode, got local',
    });
    expect(uplinksReady({ ...base, transport: 'EVPN', activeNodes: [], states: new Map() })).toMatchObject({
      reason: 'UplinkUnsupportedTransport',
    });
  });

  it('no uplinks is True with its own message', () => {
    expect(uplinksReady({ ...base, uplinks: [], activeNodes: [], states: new Map() })).toMatchObject({
      status: 'True',
      message: 'CUDN does not reference an Uplink',
    });
  });
});

describe('GatewayReady', () => {
  it('no networks is True', () => {
    expect(gatewayReady(new Map())).toEqual(
      condition('GatewayReady', 'True', 'GatewayConfigured', 'No active CUDNs require Uplink gateway programming'),
    );
  });

  it('all ready counts the CUDNs', () => {
    expect(gatewayReady(new Map([['a', { phase: 'ready' }]]))).toMatchObject({
      status: 'True',
      message: 'Uplink gateway programming succeeded for 1 active CUDN(s)',
    });
  });

  it('a mapping failure outranks pending and examples carry the message', () => {
    const c = gatewayReady(
      new Map([
        ['b', { phase: 'pending' }],
        ['a', { phase: 'failed', reason: 'UplinkBridgeMappingFailed', message: 'm'.repeat(200) }],
        ['c', { phase: 'ready' }],
      ]),
    );
    expect(c.reason).toBe('UplinkBridgeMappingFailed');
    expect(c.message).toBe(
      `2 of 3 active CUDN(s) have incomplete Uplink gateway configuration; examples: a=UplinkBridgeMappingFailed: ${'m'.repeat(160)}, b=GatewayConfigurationPending: gateway reconciliation is pending`,
    );
  });
});
