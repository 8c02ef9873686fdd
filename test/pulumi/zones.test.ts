import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { useTestHost } from '../support/hostFixture';
import { NB_SCHEMA, type OvsdbServer } from '../support/ovsdbServer';
import { dynamicUrn, type Props } from '../support/pulumiHost';
import { useZoneNorthbounds } from '../support/worlds';
import { repoRoot } from './fixtures';

// The per-node layout through the engine's host: one Northbound per node (three real
// ovsdb-servers with the lab OVN's NB schema, named per zone in the stack config), the
// ClusterAllocations' shared rows and zone catalog in each, and one ZoneRows resource per zone
// rendered from the catalog its reference names (runtime/pulumi/catalog.ts), as the Cluster
// component gives it. Rows only: no ovn-northd reads these databases.
const nodes = ['ovn-worker', 'ovn-worker2', 'ovn-worker3'];
const lab = inject('lab');
// the rows use the newer OVN's columns (ACL tiers, NAT match): serve the schema of the lab's OVN
const schema = lab.ovnRoot ? join(lab.ovnRoot, 'usr', 'share', 'ovn', 'ovn-nb.ovsschema') : NB_SCHEMA;
const OWNER = 'ovnk-pulumi.zones-test';

function topology(): Props {
  const objects = parseAllDocuments(
    readFileSync(join(repoRoot, 'test', 'fixtures', 'networks-layer2.yaml'), 'utf8'),
  ).map((d) => d.toJS() as { kind: string; spec: Record<string, unknown> });
  const inventory = objects.find((o) => o.kind === 'Inventory')!;
  const inventoryNodes = nodes.map((name, i) => ({ name, id: i + 2, chassisId: `chassis-${i + 2}` }));
  return {
    inventory: { ...inventory, spec: { ...inventory.spec, zones: 'per-node', nodes: inventoryNodes } },
    networks: objects.filter((o) => o.kind !== 'Inventory'),
    connects: [],
  };
}

const TABLES = [
  'Logical_Router',
  'Logical_Switch',
  'Logical_Router_Port',
  'Logical_Switch_Port',
  'Logical_Router_Static_Route',
  'Logical_Router_Policy',
  'NAT',
  'ACL',
  'Copp',
  'Meter',
];

async function select(server: OvsdbServer, table: string, where: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = await OvsdbClient.connect(server.unix);
  try {
    const [result] = await client.transact('OVN_Northbound', [{ op: 'select', table, where } as never]);
    return result!.rows ?? [];
  } finally {
    client.close();
  }
}

async function ownedRows(server: OvsdbServer, owner: string): Promise<number> {
  let count = 0;
  for (const table of TABLES)
    count += (await select(server, table, [['external_ids', 'includes', ['map', [['ovnk.io/owner', owner]]]]])).length;
  return count;
}

const CATALOG_KEY = `ovnk.io/catalog/${OWNER}/cluster`;

async function catalogOf(server: OvsdbServer): Promise<string | undefined> {
  const [global] = await select(server, 'NB_Global');
  return (global?.external_ids as Record<string, string> | undefined)?.[CATALOG_KEY];
}

/** Sets or removes the published catalog by hand (as a person or a restored backup might). */
async function setCatalog(server: OvsdbServer, text: string | undefined): Promise<void> {
  const client = await OvsdbClient.connect(server.unix);
  try {
    const mutations: unknown[][] = [['external_ids', 'delete', ['set', [CATALOG_KEY]]]];
    if (text !== undefined) mutations.push(['external_ids', 'insert', ['map', [[CATALOG_KEY, text]]]]);
    await client.transact('OVN_Northbound', [{ op: 'mutate', table: 'NB_Global', where: [], mutations } as never]);
  } finally {
    client.close();
  }
}

// The servers start before the host and stop after it (the hooks run as a stack).
const { servers, endpoints } = useZoneNorthbounds(nodes, { schema });
const { host, shim } = useTestHost(['ClusterAllocations', 'ZoneRows'], () => ({ 'ovnk:zoneEndpoints': endpoints() }));

describe('ZoneRows: the per-node layout through the host, one Northbound per zone', () => {
  let cluster: { id: string; outs: Props };
  const zones: Record<string, { urn: string; id: string; outs: Props }> = {};
  const catalog = () => (cluster.outs.slices as { zone: { summary: Props; digest: string; data: string } }).zone;
  /** As components/cluster.ts makes them: the catalog's summary and digest, and its publisher. */
  const zoneProps = (node: string) => ({
    owner: `${OWNER}/zone/${node}`,
    zone: node,
    slice: { summary: catalog().summary, digest: catalog().digest, owner: `${OWNER}/cluster` },
  });

  it('create writes the shared rows into every zone, then each zone its own rows in its own Northbound', async () => {
    const urn = dynamicUrn('ClusterAllocations', 'zones');
    const checked = await host.check(
      urn,
      {},
      { __provider: shim.ClusterAllocations, owner: `${OWNER}/cluster`, ...topology() },
    );
    expect(checked.failures).toEqual([]);
    const created = await host.create(urn, checked.inputs);
    cluster = { id: created.id, outs: created.properties };
    expect(cluster.outs.zones).toEqual(nodes);
    for (const node of nodes) {
      const zoneUrn = dynamicUrn('ZoneRows', node);
      const zoneChecked = await host.check(zoneUrn, {}, { __provider: shim.ZoneRows, ...zoneProps(node) });
      expect(zoneChecked.failures).toEqual([]);
      const zone = await host.create(zoneUrn, zoneChecked.inputs);
      zones[node] = { urn: zoneUrn, id: zone.id, outs: zone.properties };
      expect(zone.properties.zones).toEqual([node]);
    }
    for (const [i, node] of nodes.entries())
      expect(await ownedRows(servers[i]!, `${OWNER}/zone/${node}`)).toBeGreaterThan(10);
  });

  it("each zone holds its own gateway router and remote transit-router ports bound to the other nodes' chassis", async () => {
    const names = (await select(servers[0]!, 'Logical_Router_Port')).map((p) => p.name as string);
    expect(names).toContain('rtotr-GR_cluster_udn_green_ovn-worker');
    expect(names).not.toContain('rtotr-GR_cluster_udn_green_ovn-worker2');
    const remote = (
      await select(servers[0]!, 'Logical_Router_Port', [['name', '==', 'trtor-GR_cluster_udn_green_ovn-worker2']])
    )[0];
    expect(remote?.options).toMatchObject({ 'requested-chassis': 'chassis-3' });
  });

  it('read finds no drift in any zone and a diff with the same inputs is empty', async () => {
    for (const node of nodes) {
      const z = zones[node]!;
      const read = await host.read(z.id, z.urn, z.outs);
      expect({ node, drift: read.properties.drift }).toEqual({ node, drift: { lines: [], count: 0 } });
      const again = await host.check(z.urn, z.outs, { __provider: shim.ZoneRows, ...zoneProps(node) });
      expect((await host.diff(z.id, z.urn, read.properties, again.inputs)).changes).toBe(1);
    }
  });

  it('a hand-set router option in one zone is drift of that zone only; update repairs it', async () => {
    const client = await OvsdbClient.connect(servers[1]!.unix);
    try {
      await client.transact('OVN_Northbound', [
        {
          op: 'mutate',
          table: 'Logical_Router',
          where: [['name', '==', 'GR_cluster_udn_green_ovn-worker2']],
          mutations: [['options', 'insert', ['map', [['ovnk-test', 'hand-made']]]]],
        } as never,
      ]);
    } finally {
      client.close();
    }
    const drifted = await host.read(zones['ovn-worker2']!.id, zones['ovn-worker2']!.urn, zones['ovn-worker2']!.outs);
    const drift = drifted.properties.drift as { lines: string[]; count: number };
    expect(drift.count).toBeGreaterThan(0);
    expect(drift.lines.join('\n')).toMatch(/^ovn-worker2: .*GR_cluster_udn_green_ovn-worker2/m);
    expect(
      (
        (await host.read(zones['ovn-worker']!.id, zones['ovn-worker']!.urn, zones['ovn-worker']!.outs)).properties
          .drift as { count: number }
      ).count,
    ).toBe(0);
    const z = zones['ovn-worker2']!;
    expect((await host.diff(z.id, z.urn, drifted.properties, z.outs)).changes).toBe(2);
    const updated = await host.update(z.id, z.urn, drifted.properties, z.outs);
    expect(((await host.read(z.id, z.urn, updated.properties)).properties.drift as { count: number }).count).toBe(0);
  });

  it('ClusterAllocations publishes the zone catalog in every zone; a ZoneRows state holds its reference, not the catalog', async () => {
    for (const server of servers) expect((await catalogOf(server))?.length).toBeGreaterThan(100);
    for (const server of servers) expect(await catalogOf(server)).toBe(catalog().data);
    for (const node of nodes) {
      const outs = zones[node]!.outs;
      expect(outs.slice).toEqual(zoneProps(node).slice);
      expect(JSON.stringify(outs)).not.toContain(catalog().data);
    }
  });

  it('a ZoneRows state of the earlier shape (the catalog itself) previews no change against the reference, and its update renders from that data', async () => {
    const z = zones['ovn-worker']!;
    const earlier = { ...z.outs, slice: catalog() };
    const checked = await host.check(z.urn, earlier, { __provider: shim.ZoneRows, ...zoneProps('ovn-worker') });
    expect(checked.failures).toEqual([]);
    expect((await host.diff(z.id, z.urn, earlier, checked.inputs)).changes).toBe(1);
    // without a published catalog (a stack written before ClusterAllocations published it), the stored data serves
    await setCatalog(servers[0]!, undefined);
    const updated = await host.update(z.id, z.urn, earlier, checked.inputs);
    expect(updated.properties.slice).toEqual(zoneProps('ovn-worker').slice);
    expect(updated.properties.digest).toBe(z.outs.digest);
    await setCatalog(servers[0]!, catalog().data);
  });

  it("a zone's missing catalog is drift of ClusterAllocations and of that zone's ZoneRows, and ClusterAllocations' update publishes it again", async () => {
    await setCatalog(servers[2]!, undefined);
    const urn = dynamicUrn('ClusterAllocations', 'zones');
    const read = await host.read(cluster.id, urn, cluster.outs);
    const drift = read.properties.drift as { lines: string[]; count: number };
    expect(drift.lines).toEqual([`ovn-worker3: NB_Global external_ids["ovnk.io/catalog/${OWNER}/cluster"]: missing`]);
    const z = zones['ovn-worker3']!;
    const zoneRead = (await host.read(z.id, z.urn, z.outs)).properties.drift as { lines: string[]; count: number };
    expect(zoneRead.count).toBe(1);
    expect(zoneRead.lines[0]).toMatch(
      /^ovn-worker3: slice: NB_Global.external_ids\["ovnk.io\/catalog\/.*"\] of zone ovn-worker3 is missing/,
    );
    expect((await host.diff(cluster.id, urn, read.properties, cluster.outs)).changes).toBe(2);
    await host.update(cluster.id, urn, read.properties, cluster.outs);
    expect(await catalogOf(servers[2]!)).toBe(catalog().data);
    expect(((await host.read(z.id, z.urn, z.outs)).properties.drift as { count: number }).count).toBe(0);
  });

  it('a ZoneRows for a zone the cluster does not have is refused at create, naming the zone', async () => {
    const urn = dynamicUrn('ZoneRows', 'nowhere');
    // given the catalog itself (the earlier shape), the zone is checked against its nodes
    const props = { __provider: shim.ZoneRows, ...zoneProps('nowhere'), slice: catalog() };
    const checked = await host.check(urn, {}, props);
    await expect(host.create(urn, checked.inputs)).rejects.toThrow(
      /zone: "nowhere" is not a zone of this per-node cluster \(zones: ovn-worker, ovn-worker2, ovn-worker3\)/,
    );
    // by reference, the catalog is read from the zone's own Northbound, which such a zone does not have
    const byReference = await host.check(urn, {}, { __provider: shim.ZoneRows, ...zoneProps('nowhere') });
    await expect(host.create(urn, byReference.inputs)).rejects.toThrow(/no Northbound endpoint for zone "nowhere"/);
  });

  it("delete empties each zone of its owner, idempotently, and the cluster's shared rows go last", async () => {
    for (const [i, node] of nodes.entries()) {
      const z = zones[node]!;
      await host.delete(z.id, z.urn, z.outs);
      await host.delete(z.id, z.urn, z.outs);
      expect(await ownedRows(servers[i]!, `${OWNER}/zone/${node}`)).toBe(0);
    }
    await host.delete(cluster.id, dynamicUrn('ClusterAllocations', 'zones'), cluster.outs);
    for (const server of servers) expect(await ownedRows(server, `${OWNER}/cluster`)).toBe(0);
    for (const server of servers) expect(await catalogOf(server)).toBeUndefined();
    for (const server of servers) expect(await select(server, 'Logical_Router_Port')).toEqual([]);
  });
});
