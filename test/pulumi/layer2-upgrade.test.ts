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

// The Inventory's per-node layer2TopologyVersion through the engine's host (ClusterAllocations and
// one ZoneRows per zone, three real ovsdb-servers): ovn-worker2 not yet on the transit router renders
// the old topology in its zone and the transitional rows in ovn-worker's (OKEP-5094 "Rolling
// upgrade"); an update with both on "2.0" leaves what a network never on the old topology has.
const nodes = ['ovn-worker', 'ovn-worker2', 'ovn-worker3'];
const lab = inject('lab');
const schema = lab.ovnRoot ? join(lab.ovnRoot, 'usr', 'share', 'ovn', 'ovn-nb.ovsschema') : NB_SCHEMA;
const OWNER = 'ovnk-pulumi.layer2-upgrade-test';
const SWITCH = 'cluster_udn_green_ovn_layer2_switch';

function topology(old: string[]): Props {
  const objects = parseAllDocuments(
    readFileSync(join(repoRoot, 'test', 'fixtures', 'networks-layer2.yaml'), 'utf8'),
  ).map((d) => d.toJS() as { kind: string; spec: Record<string, unknown> });
  const inventory = objects.find((o) => o.kind === 'Inventory')!;
  const inventoryNodes = nodes.map((name, i) => ({
    name,
    id: i + 2,
    chassisId: `chassis-${i + 2}`,
    layer2TopologyVersion: old.includes(name) ? '1.0' : '2.0',
  }));
  return {
    inventory: { ...inventory, spec: { ...inventory.spec, zones: 'per-node', nodes: inventoryNodes } },
    networks: objects.filter((o) => o.kind !== 'Inventory'),
    connects: [],
  };
}

async function portNames(server: OvsdbServer, table: string): Promise<string[]> {
  const client = await OvsdbClient.connect(server.unix);
  try {
    const [result] = await client.transact('OVN_Northbound', [
      { op: 'select', table, where: [], columns: ['name'] } as never,
    ]);
    return (result!.rows ?? []).map((r) => r.name as string).sort();
  } finally {
    client.close();
  }
}

/** The Layer2 network's rows (the fixture's Layer3 network `gold` is beside it). */
const green = (names: string[]) => names.filter((n) => n.includes('green'));

const { servers, endpoints } = useZoneNorthbounds(nodes, { schema });
const { host, shim } = useTestHost(['ClusterAllocations', 'ZoneRows'], () => ({ 'ovnk:zoneEndpoints': endpoints() }));

describe("ZoneRows take the Inventory's layer2TopologyVersion per node", () => {
  const clusterUrn = dynamicUrn('ClusterAllocations', 'layer2-upgrade');
  let cluster: { id: string; outs: Props };
  const zones: Record<string, { urn: string; id: string; outs: Props }> = {};
  const zoneProps = (node: string) => ({
    __provider: shim.ZoneRows,
    owner: `${OWNER}/zone/${node}`,
    zone: node,
    slice: (cluster.outs.slices as { zone: Props }).zone,
  });

  it('renders the old topology in the zone of a node on "1.0" and the transitional rows in the upgraded one', async () => {
    const checked = await host.check(
      clusterUrn,
      {},
      { __provider: shim.ClusterAllocations, owner: `${OWNER}/cluster`, ...topology(['ovn-worker2']) },
    );
    expect(checked.failures).toEqual([]);
    const created = await host.create(clusterUrn, checked.inputs);
    cluster = { id: created.id, outs: created.properties };
    for (const node of nodes) {
      const urn = dynamicUrn('ZoneRows', node);
      const zoneChecked = await host.check(urn, {}, zoneProps(node));
      expect(zoneChecked.failures).toEqual([]);
      const zone = await host.create(urn, zoneChecked.inputs);
      zones[node] = { urn, id: zone.id, outs: zone.properties };
    }
    // layer2Upgrade.ts ensureUpgradeTopology; layer2Legacy.ts createGWRouterPort
    expect(await portNames(servers[0]!, 'Logical_Router_Port')).toContain(`trtos-${SWITCH}-upgrade`);
    expect(await portNames(servers[0]!, 'Logical_Switch_Port')).toContain(`stor-${SWITCH}_ovn-worker2`);
    expect(await portNames(servers[1]!, 'Logical_Router_Port')).toContain(`rtos-${SWITCH}`);
    expect(green(await portNames(servers[1]!, 'Logical_Router'))).toEqual(['GR_cluster_udn_green_ovn-worker2']);
  });

  it('an update with every node on "2.0" removes the old and transitional rows, and nothing drifts', async () => {
    const news = await host.check(clusterUrn, cluster.outs, {
      __provider: shim.ClusterAllocations,
      owner: `${OWNER}/cluster`,
      ...topology([]),
    });
    cluster.outs = (await host.update(cluster.id, clusterUrn, cluster.outs, news.inputs)).properties;
    for (const node of nodes) {
      const z = zones[node]!;
      const zoneNews = await host.check(z.urn, z.outs, zoneProps(node));
      z.outs = (await host.update(z.id, z.urn, z.outs, zoneNews.inputs)).properties;
      expect((await host.read(z.id, z.urn, z.outs)).properties.drift).toEqual({ lines: [], count: 0 });
    }
    for (const server of servers) {
      const ports = [
        ...(await portNames(server, 'Logical_Router_Port')),
        ...(await portNames(server, 'Logical_Switch_Port')),
      ];
      expect(
        ports.filter((p) => p.startsWith(`rtos-${SWITCH}`) || p.startsWith(`stor-${SWITCH}`) || p.endsWith('-upgrade')),
      ).toEqual([]);
    }
    expect(green(await portNames(servers[1]!, 'Logical_Router'))).toEqual([
      'GR_cluster_udn_green_ovn-worker2',
      'cluster_udn_green_transit_router',
    ]);
  });

  it('delete empties every zone', async () => {
    for (const node of nodes) await host.delete(zones[node]!.id, zones[node]!.urn, zones[node]!.outs);
    await host.delete(cluster.id, clusterUrn, cluster.outs);
    for (const server of servers) expect(await portNames(server, 'Logical_Router_Port')).toEqual([]);
  });
});
