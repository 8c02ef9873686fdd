import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OvsdbClient } from '../../provider/ovsdb/client';
import { applyZone, destroyZone, planTopology, readZoneStates } from '../../provider/runtime/cli';
import { useTestHost } from '../support/hostFixture';
import { startNbUnderTest, stopNbUnderTest } from '../support/nbUnderTest';
import { inventory, labelledNamespace, layer2, layer3, networkFor, ownedNetworks } from '../support/objects';
import type { OvsdbServer } from '../support/ovsdbServer';
import { dynamicUrn } from '../support/pulumiHost';
import { blueLayer3, chassisNode } from '../support/worlds';

// A stack and an `ovnk apply` file in one Northbound. The stack's check allocates with no I/O,
// so it cannot see the file's owner: ClusterAllocations' create, the stack's first write, refuses
// a network id that owner holds (naming it) before any row is written, and publishes the stack's
// allocations in the Northbound so the CLI takes them as taken.
const OWNER = 'ovnk-pulumi.owners-test/cluster';
const STATE_KEY = `ovnk.io/state/${OWNER}`;
let server: OvsdbServer;
let client: OvsdbClient;

const stack = (annotations: Record<string, string> = {}, l2?: Record<string, string>) => ({
  inventory: inventory('owners-test', {
    zones: 'central',
    namespaces: [labelledNamespace('teal'), labelledNamespace('plum')],
    nodes: [{ name: 'n1', id: 2, chassisId: 'c1' }],
  }),
  networks: [
    networkFor('teal', layer3('10.50.0.0/16', 24), { annotations }),
    ...(l2 ? [networkFor('plum', layer2(['10.60.0.0/16']), { annotations: l2 })] : []),
  ],
  connects: [],
});

const cliFile = blueLayer3('cli-owner', [chassisNode(1, 'c1')]);

/** Another file's owner with a primary Layer2 network: its transit router holds the first dynamic tunnel key. */
const cliLayer2File = ownedNetworks(
  'cli-l2',
  { zones: 'central', nodes: [chassisNode(1, 'c1')] },
  networkFor('green', layer2(['10.30.0.0/16'])),
);

async function globalKeys(): Promise<Record<string, string>> {
  const [result] = await client.transact('OVN_Northbound', [
    { op: 'select', table: 'NB_Global', where: [], columns: ['external_ids'] },
  ]);
  return (result!.rows?.[0]?.external_ids ?? {}) as Record<string, string>;
}

beforeAll(async () => {
  ({ server, client } = await startNbUnderTest());
  const planned = planTopology(cliFile);
  if (!planned.ok) throw new Error('bad CLI file');
  await applyZone(client, planned.plan.zones[0]!, 'cli-owner', planned.plan.state);
}, 60_000);

afterAll(() => stopNbUnderTest({ server, client }));
// Started after the Northbound above and the CLI owner's apply; stopped before the server stops.
const { host, shim } = useTestHost(['ClusterAllocations'], () => ({
  'ovnk:zoneEndpoints': JSON.stringify({ central: server.unix }),
}));

describe('a stack beside an ovnk apply owner in one Northbound', () => {
  const urn = dynamicUrn('ClusterAllocations', 'owners');

  it("refuses, at ClusterAllocations' create, a network id the other owner holds, naming it, and writes nothing", async () => {
    const checked = await host.check(urn, {}, { __provider: shim.ClusterAllocations, owner: OWNER, ...stack() });
    expect(checked.failures).toEqual([]);
    expect((checked.inputs.allocations as { networkIds: unknown }).networkIds).toEqual({ cluster_udn_teal: 1 });
    await expect(host.create(urn, checked.inputs)).rejects.toThrow(
      /network id 1 of network "cluster_udn_teal" is also held by owner "cli-owner" \(network "cluster_udn_blue"\); nothing was written: .*check does no I\/O; preview again after pinning values free of every owner: on cluster_udn_teal metadata.annotations\["k8s.ovn.org\/network-id"\]: "2"$/,
    );
    const keys = await globalKeys();
    expect(Object.keys(keys).filter((k) => k.includes(OWNER))).toEqual([]);
  });

  it('once the other owner is gone, creates and publishes its allocations, which the CLI then takes as taken', async () => {
    await destroyZone(client, 'central', 'cli-owner');
    const checked = await host.check(urn, {}, { __provider: shim.ClusterAllocations, owner: OWNER, ...stack() });
    const created = await host.create(urn, checked.inputs);
    const published = JSON.parse((await globalKeys())[STATE_KEY]!);
    expect(published.allocation.networkIds).toEqual({ cluster_udn_teal: 1 });
    const { others } = await readZoneStates(client, 'cli-owner');
    const planned = planTopology(cliFile, undefined, { others });
    if (!planned.ok) throw new Error('bad CLI file');
    expect(planned.plan.allocation.networkIds).toEqual({ cluster_udn_blue: 2 });
    await host.delete(created.id, urn, created.properties);
    expect((await globalKeys())[STATE_KEY]).toBeUndefined();
  });

  it('names, refusing a transit router tunnel key the other owner holds, the pins that are free, and takes them', async () => {
    const planned = planTopology(cliLayer2File);
    if (!planned.ok) throw new Error('bad CLI file');
    await applyZone(client, planned.plan.zones[0]!, 'cli-l2', planned.plan.state);
    const checked = await host.check(urn, {}, { __provider: shim.ClusterAllocations, owner: OWNER, ...stack({}, {}) });
    expect(checked.failures).toEqual([]);
    const refused = await host.create(urn, checked.inputs).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(refused).toContain(
      'network id 1 of network "cluster_udn_plum" is also held by owner "cli-l2" (network "cluster_udn_green"); tunnel key 16715779 of transit-router/cluster_udn_plum is also held by owner "cli-l2" (transit-router/cluster_udn_green); nothing was written',
    );
    const pins =
      'on cluster_udn_plum metadata.annotations["k8s.ovn.org/network-id"]: "3" and metadata.annotations["k8s.ovn.org/tunnel-keys"]: "[16711686,16715780]"; on cluster_udn_teal metadata.annotations["k8s.ovn.org/network-id"]: "2"';
    expect(refused.endsWith(`preview again after pinning values free of every owner: ${pins}`)).toBe(true);
    expect(Object.keys(await globalKeys()).filter((k) => k.includes(OWNER))).toEqual([]);
    const pinned = stack(
      { 'k8s.ovn.org/network-id': '2' },
      { 'k8s.ovn.org/network-id': '3', 'k8s.ovn.org/tunnel-keys': '[16711686,16715780]' },
    );
    const again = await host.check(urn, {}, { __provider: shim.ClusterAllocations, owner: OWNER, ...pinned });
    expect(again.failures).toEqual([]);
    const created = await host.create(urn, again.inputs);
    const published = JSON.parse((await globalKeys())[STATE_KEY]!).allocation;
    expect(published.networkIds).toEqual({ cluster_udn_plum: 3, cluster_udn_teal: 2 });
    expect(published.tunnelKeys.keys).toEqual({ 'transit-router/cluster_udn_plum': 16715780 });
    await host.delete(created.id, urn, created.properties);
    await destroyZone(client, 'central', 'cli-l2');
  });
});
