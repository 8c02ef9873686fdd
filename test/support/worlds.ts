/**
 * Worlds the Northbound tests share, so each test file states only what differs: one owner's
 * Layer3 network `blue` (10.10.0.0/16, /24 per node) over nodes n1..nN in a central zone, an
 * owner's Layer3 network of a given subnet, an owner's Layer3 and Layer2 pair, all written as a
 * user writes them (test/support/objects.ts), and a real ovsdb-server with a connected client for
 * the file's tests.
 */
import { afterAll, beforeAll } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import type { Condition, UplinkState } from '../../provider/uplink/conditions';
import {
  cudn,
  inventory,
  layer2,
  layer3,
  networkFor,
  ovsBridgeConfig,
  ownedNetworks,
  uplink,
  uplinkState,
  yamlOf,
} from './objects';
import { type ServerOptions, startOvsdbServer, type OvsdbServer } from './ovsdbServer';

export { chassisNode, gatewayNode } from './objects';

/** The Inventory of `owner` and the CUDN `blue` over `nodes` (chassisNode / gatewayNode entries). */
export const blueLayer3 = (owner: string, nodes: object[]): string =>
  ownedNetworks(owner, { zones: 'central', nodes }, networkFor('blue', layer3('10.10.0.0/16', 24)));

/** One Layer3 network `name` (`cidr`, /24 per node) of owner `owner` over n1 and n2 in one central zone. */
export const oneLayer3 = (owner: string, name: string, cidr: string): string =>
  ownedNetworks(
    owner,
    { zones: 'central', nodes: [{ name: 'n1' }, { name: 'n2' }] },
    networkFor(name, layer3(cidr, 24)),
  );

/**
 * Owner `owner`'s Layer3 network `l3` (10.10.0.0/16) and primary Layer2 `l2` (10.20.0.0/16, so it
 * gets a transit router tunnel key) in per-node zones over `nodes`; `pins` annotate the two CUDNs.
 */
export const layer3AndLayer2 = (
  owner: string,
  [l3, l2]: [string, string],
  nodes: object[],
  [l3Pins, l2Pins]: (Record<string, string> | undefined)[] = [],
): string =>
  ownedNetworks(
    owner,
    { zones: 'per-node', nodes },
    networkFor(l3, layer3('10.10.0.0/16', 24), { annotations: l3Pins }),
    networkFor(l2, layer2(['10.20.0.0/16']), { annotations: l2Pins }),
  );

/** Node `node-a` of upstream's uplink_gateway_test.go; its own gateway (br-ex, 10.0.0.5/24) is not the Uplink's. */
export const uplinkGatewayNode = {
  name: 'node-a',
  id: 2,
  chassisId: 'chassis-a',
  gatewayBridge: 'br-ex',
  gatewayMac: '0a:58:0a:00:00:05',
  nodeIPs: ['10.0.0.5/24'],
  gatewayNextHops: ['10.0.0.1'],
};

/**
 * testUplinkState of upstream's uplink_gateway_test.go: Uplink `blue` on `node-a` resolved to
 * bridge breth0 with `macAddress` (02:42:ac:12:00:02 there), 192.0.2.10/24 and gateway 192.0.2.1.
 */
export const testUplinkState = (conditions: Condition[], macAddress = '02:42:ac:12:00:02'): UplinkState =>
  uplinkState('blue', 'node-a', {
    hostInterfaceName: 'breth0',
    macAddress,
    ipAddresses: ['192.0.2.10/24'],
    defaultGateways: ['192.0.2.1'],
    conditions,
  });

/** testUplinkState with only its Resolved condition, `True` or not. */
export const resolvedUplinkState = (resolved: 'True' | 'False'): UplinkState =>
  testUplinkState([{ type: 'Resolved', status: resolved, reason: 'Resolved', message: '' }]);

/**
 * Uplink `blue` (bridge breth0 on every node) and two CUDNs on it, Layer3 `l3` (network id 2) and
 * Layer2 `l2` (3), over uplinkGatewayNode in its per-node zone: the world of testUplinkState.
 */
export const uplinkGatewayWorld = (() => {
  const onBlue = (id: string) => ({ uplinks: ['blue'], annotations: { 'k8s.ovn.org/network-id': id } });
  return yamlOf(
    inventory('upl', {
      ipFamilies: ['IPv4'],
      masqueradeSubnets: ['169.254.169.0/24'],
      namespaces: [{ name: 'tenant' }],
      nodes: [uplinkGatewayNode],
    }),
    uplink('blue', [ovsBridgeConfig('breth0')]),
    cudn('l3', layer3('10.100.0.0/16', 24), onBlue('2')),
    cudn('l2', layer2(['10.200.0.0/16']), onBlue('3')),
  );
})();

export interface Northbound {
  server: OvsdbServer;
  client: OvsdbClient;
}

/** A real ovsdb-server and a client, started before the file's tests and stopped after them. */
export function useNorthbound(): Northbound {
  const world = {} as Northbound;
  beforeAll(async () => {
    world.server = await startOvsdbServer();
    world.client = await OvsdbClient.connect(world.server.unix);
  });
  afterAll(async () => {
    world.client?.close();
    await world.server?.stop();
  });
  return world;
}

export interface ZoneNorthbounds {
  /** The servers, in the order of the zones. */
  servers: OvsdbServer[];
  /** The stack config `ovnk:zoneEndpoints` naming each zone's server. */
  endpoints: () => string;
}

/** One real ovsdb-server per zone (per-node layout), started before the file's tests and stopped after them. */
export function useZoneNorthbounds(zones: string[], options: ServerOptions = {}): ZoneNorthbounds {
  const servers: OvsdbServer[] = [];
  beforeAll(async () => {
    for (let i = 0; i < zones.length; i++) servers.push(await startOvsdbServer(options));
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });
  const endpoints = () => JSON.stringify(Object.fromEntries(zones.map((z, i) => [z, servers[i]!.unix])));
  return { servers, endpoints };
}
