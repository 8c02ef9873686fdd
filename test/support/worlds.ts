/**
 * Worlds the Northbound tests share, so each test file states only what differs: one owner's
 * Layer3 network `blue` (10.10.0.0/16, /24 per node) over nodes n1..nN in a central zone, written
 * as a user writes it, and a real ovsdb-server with a connected client for the file's tests.
 */
import { afterAll, beforeAll } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { startOvsdbServer, type OvsdbServer } from './ovsdbServer';

/** Node `n<i>` with its chassis only. */
export const plainNode = (i: number): string => `{name: n${i}, chassisId: ch-${i}}`;

/** Node `n<i>` with the gateway fields its gateway router's external side needs. */
export const gatewayNode = (i: number): string =>
  `{name: n${i}, chassisId: ch-${i}, gatewayBridge: breth0, gatewayMac: "0a:00:00:00:00:0${i}", ` +
  `nodeIPs: [172.18.0.${i + 1}/16], gatewayNextHops: [172.18.0.1]}`;

/** The Inventory of `owner` and the CUDN `blue` over `nodes` (plainNode / gatewayNode entries). */
export function blueLayer3(owner: string, nodes: string[]): string {
  return `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: ${owner}}
spec:
  zones: central
  namespaces: [{name: blue, labels: {network: blue}}]
  nodes: [${nodes.join(', ')}]
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: blue}
spec:
  namespaceSelector: {matchLabels: {network: blue}}
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.10.0.0/16, hostSubnet: 24}]}}
`;
}

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
