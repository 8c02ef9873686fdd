import { afterAll, beforeAll, expect, it } from 'vitest';
import { OvsdbClient, type OvsdbDatabase } from '../../../provider/ovsdb/client';
import { applyZone, diffZone, planTopology } from '../../../provider/runtime';
import { startOvsdbServer, type OvsdbServer } from '../../support/ovsdbServer';

// A RAFT leader killed after it committed, before its answer arrived, makes the cluster client
// send the same transaction again to the next leader (provider/ovsdb/cluster.ts). Here a real
// server gets each writing transaction twice, in a row, as that resend does: the second must
// fail its guard and be recognised as our own commit, also on an owner's first apply (whose
// marker was absent), instead of writing its rows a second time.
const owner = 'resent';
const topology = `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: ${owner}}
spec:
  zones: central
  namespaces: [{name: blue, labels: {network: blue}}]
  nodes: [{name: n1, chassisId: ch-1}]
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: blue}
spec:
  namespaceSelector: {matchLabels: {network: blue}}
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.10.0.0/16, hostSubnet: 24}]}}
`;

let server: OvsdbServer;
let client: OvsdbClient;

beforeAll(async () => {
  server = await startOvsdbServer();
  client = await OvsdbClient.connect(server.unix);
  await client.transact('OVN_Northbound', [{ op: 'insert', table: 'NB_Global', row: {} }]);
});

afterAll(async () => {
  client?.close();
  await server?.stop();
});

/** Every writing transaction committed once, then sent again; the caller gets the second answer. */
function resending(sent: number[]): OvsdbDatabase {
  return {
    endpoint: client.endpoint,
    listDbs: () => client.listDbs(),
    getSchema: (db) => client.getSchema(db),
    transact: async (db, ops, options) => {
      if (ops.every((op) => op.op === 'select')) return client.transact(db, ops, options);
      await client.transact(db, ops, options);
      sent.push(ops.length);
      return client.transact(db, ops, options);
    },
    close: () => undefined,
  };
}

it("an owner's first apply, resent after it committed, is reported committed and its rows exist once", async () => {
  const planned = planTopology(topology);
  if (!planned.ok) throw new Error(planned.inputProblems[0]!.message);
  const zone = planned.plan.zones[0]!;
  const sent: number[] = [];
  const result = await applyZone(resending(sent), zone, owner, planned.plan.state);
  expect(result.sent).toBe(true);
  expect(sent).toHaveLength(1);
  const [routers] = await client.transact('OVN_Northbound', [
    { op: 'select', table: 'Logical_Router', where: [], columns: ['name'] },
  ]);
  const names = routers!.rows!.map((row) => String(row.name));
  expect(names.length).toBeGreaterThan(1);
  expect(names).toEqual([...new Set(names)]);
  expect((await diffZone(client, zone, owner)).lines).toEqual([]);
});
