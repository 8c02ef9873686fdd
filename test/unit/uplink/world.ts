/**
 * Plain-data builders for the uplink unit tests: a node's facts, Uplink model objects, and the
 * cluster most of them plan: Uplink `blue` beside its CUDNs over an Inventory's nodes.
 */
import { parse } from 'yaml';
import type { Uplink } from '../../../provider/model/uplink';
import type { NodeFacts } from '../../../provider/uplink';
import { clusterOf, cudn, inventory, type KubeObject, layer3, uplink as uplinkObject } from '../../support/objects';

/** CUDN `tenant`: a Layer3 10.1.0.0/16 on Uplink `blue`, in every namespace. */
export const tenant = cudn('tenant', layer3('10.1.0.0/16'), { uplinks: ['blue'] });

/**
 * Inventory `inv` (IPv4) over `nodes` (its `spec.nodes` as YAML, e.g. `[{ name: n1 }]`), Uplink
 * `blue` with `nodeConfigs`, and `networks`: built as the CLI builds them, problems beside.
 */
export const blueUplinkCluster = (nodes: string, nodeConfigs: object[], ...networks: KubeObject[]) =>
  clusterOf(
    inventory('inv', { ipFamilies: ['IPv4'], nodes: parse(nodes) }),
    uplinkObject('blue', nodeConfigs),
    ...networks,
  );

/** A node with br-blue (host port `blue0` internal, physical `eth2`) next to breth0 and br-int. */
export function nodeFacts(node = 'n1'): NodeFacts {
  return {
    node,
    links: [
      {
        name: 'blue0',
        mac: '0a:00:00:00:00:01',
        mtu: 1500,
        addresses: [
          { family: 4, address: '192.0.2.10', prefix: 24, scope: 'global', secondary: false, deprecated: false },
        ],
      },
      { name: 'eth2', mac: '0a:00:00:00:00:02', mtu: 1500, addresses: [] },
      {
        name: 'breth0',
        mac: '0a:00:00:00:00:03',
        mtu: 9000,
        addresses: [
          { family: 4, address: '198.19.1.11', prefix: 24, scope: 'global', secondary: false, deprecated: false },
        ],
      },
    ],
    routes: [
      { family: 4, dst: 'default', gateway: '198.19.1.1', dev: 'breth0', multipath: false },
      { family: 4, dst: 'default', gateway: '192.0.2.1', dev: 'blue0', multipath: false },
      { family: 4, dst: '192.0.2.0/24', dev: 'blue0', multipath: false },
    ],
    ovs: {
      bridges: [
        { name: 'breth0', ports: ['breth0', 'eth1'], externalIds: {} },
        { name: 'br-int', ports: ['br-int'], externalIds: {} },
        { name: 'br-blue', ports: ['br-blue', 'eth2', 'blue0'], externalIds: {} },
      ],
      ports: [
        { name: 'breth0', interfaces: ['breth0'] },
        { name: 'eth1', interfaces: ['eth1'] },
        { name: 'br-int', interfaces: ['br-int'] },
        { name: 'br-blue', interfaces: ['br-blue'] },
        { name: 'eth2', interfaces: ['eth2'] },
        { name: 'blue0', interfaces: ['blue0'] },
      ],
      interfaces: [
        { name: 'breth0', type: 'internal' },
        { name: 'eth1', type: '' },
        { name: 'br-int', type: 'internal' },
        { name: 'br-blue', type: 'internal' },
        { name: 'eth2', type: '' },
        { name: 'blue0', type: 'internal' },
      ],
      externalIds: { 'ovn-bridge-mappings': 'physnet:breth0' },
    },
  };
}

/** `nodeFacts(node)` whose br-blue already carries `networks`, mapped there by owner `o`. */
export function mappedFacts(node: string, networks: string[]): NodeFacts {
  const facts = nodeFacts(node);
  facts.ovs.externalIds = {
    'ovn-bridge-mappings': ['physnet:breth0', ...networks.map((n) => `${n}:br-blue`)].join(','),
    'ovnk.io/bridge-mappings/o': networks.join(','),
  };
  return facts;
}

export function uplink(
  name: string,
  configs: { hostInterfaceName: string; matchLabels?: Record<string, string>; type?: string }[],
): Uplink {
  return {
    ref: `Uplink/${name}`,
    name,
    nodeConfigs: configs.map((c) => ({
      type: c.type ?? 'OVSBridge',
      hostInterfaceName: c.hostInterfaceName,
      nodeSelector: { matchLabels: c.matchLabels ?? {}, matchExpressions: [] },
    })),
  };
}
