import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { ClusterAllocations } from '../../components/internal';
import { repoRoot, topologyArgs } from './fixtures';
import { installMocks, type Registered, settle, valueOf } from './mocks';

describe('components under mocks', () => {
  let registered: Registered[] = [];
  let components: typeof import('../../components');
  beforeAll(async () => {
    registered = installMocks(false);
    components = await import('../../components');
  });
  const named = (prefix: string) => registered.filter((r) => r.name.startsWith(prefix));

  it('a central cluster has one allocations resource, a component per network and connect, and their rows resources', async () => {
    const cluster = new components.Cluster('c1', topologyArgs('colored-enterprise', 'central'));
    await valueOf(cluster.allocations);
    await settle(() => named('c1').length, 10);
    const types = named('c1')
      .map((r) => `${r.type} ${r.name}`)
      .sort();
    expect(types).toEqual([
      'ovnk:cluster:Cluster c1',
      'ovnk:connect:NetworkConnect c1-colored-enterprise',
      'ovnk:network:Layer2Network c1-yellow/yellow-network',
      'ovnk:network:Layer3Network c1-blue-network',
      'ovnk:network:Layer3Network c1-green-network',
      'pulumi-nodejs:dynamic/ovnk:ClusterAllocations c1-allocations',
      'pulumi-nodejs:dynamic/ovnk:ConnectRouter c1-colored-enterprise-router',
      'pulumi-nodejs:dynamic/ovnk:NetworkRows c1-blue-network-rows',
      'pulumi-nodejs:dynamic/ovnk:NetworkRows c1-green-network-rows',
      'pulumi-nodejs:dynamic/ovnk:NetworkRows c1-yellow/yellow-network-rows',
    ]);
  });

  it('children are parented: their URNs carry the component type chain', async () => {
    const cluster = new components.Cluster('c2', topologyArgs('colored-enterprise', 'central'));
    const blue = cluster.networks['blue-network']!;
    expect(await valueOf(blue.urn)).toBe(
      'urn:pulumi:test::ovnk-pulumi::ovnk:cluster:Cluster$ovnk:network:Layer3Network::c2-blue-network',
    );
    expect(await valueOf(cluster.allocationsResource.urn)).toContain(
      'ovnk:cluster:Cluster$pulumi-nodejs:dynamic/ovnk:ClusterAllocations::c2-allocations',
    );
  });

  it('outputs carry the allocations check computed: network ids, routers, tunnel keys', async () => {
    const cluster = new components.Cluster('c3', topologyArgs('colored-enterprise', 'central'));
    const ids = await valueOf(cluster.allocations.apply((a) => a.networkIds));
    expect(Object.keys(ids).sort()).toEqual([
      'cluster_udn_blue-network',
      'cluster_udn_green-network',
      'yellow_yellow-network',
    ]);
    expect(await valueOf(cluster.networks['blue-network']!.networkId)).toBe(ids['cluster_udn_blue-network']);
    expect(await valueOf(cluster.networks['blue-network']!.routerName)).toBe(
      'cluster_udn_blue.network_ovn_cluster_router',
    );
    expect(await valueOf(cluster.networks['yellow/yellow-network']!.routerName)).toBe(
      'yellow_yellow.network_transit_router',
    );
    const connect = cluster.connects['colored-enterprise']!;
    expect(await valueOf(connect.routerName)).toBe('connect_router_colored-enterprise');
    expect(await valueOf(connect.tunnelKey)).toBeGreaterThan(0);
    expect(await valueOf(connect.accepted)).toBe(true);
  });

  it("a Cluster's own Northbound reaches each of its resources as their northbound input", async () => {
    const cluster = new components.Cluster('c9', {
      ...topologyArgs('colored-enterprise', 'central'),
      northbound: { config: 'east', nb: pulumi.output('ssl:10.0.0.10:6641') },
    });
    await valueOf(cluster.allocations);
    await settle(() => named('c9').length, 10);
    const dynamic = registered.filter((r) => r.name.startsWith('c9') && r.type.startsWith('pulumi-nodejs'));
    expect(dynamic.length).toBeGreaterThan(3);
    for (const r of dynamic) expect(r.inputs.northbound).toEqual({ config: 'east', nb: 'ssl:10.0.0.10:6641' });
  });

  it('the per-network resources get the owner, the zone, the network reference, their own slice and the shim, not the topology', async () => {
    const cluster = new components.Cluster('c4', topologyArgs('colored-enterprise', 'central'));
    await valueOf(cluster.allocations);
    await settle(() => named('c4').length, 10);
    const rows = registered.find((r) => r.name === 'c4-blue-network-rows')!;
    expect(rows.inputs.owner).toBe('ovnk-pulumi.test/network/ClusterUserDefinedNetwork/blue-network');
    expect(rows.inputs.zone).toBe('central');
    expect(rows.inputs.network).toBe('ClusterUserDefinedNetwork/blue-network');
    const slices = await valueOf((cluster.allocationsResource as ClusterAllocations).slices);
    expect(rows.inputs.slice).toEqual(slices.networks['ClusterUserDefinedNetwork/blue-network']);
    expect((rows.inputs.slice as { summary: { networkName: string } }).summary.networkName).toBe(
      'cluster_udn_blue-network',
    );
    expect(Object.keys(rows.inputs).sort()).toEqual(['__provider', 'network', 'owner', 'slice', 'zone']);
    // one line that requires the runtime by package name from the project's node_modules, nothing captured
    expect(rows.inputs.__provider).toBe(
      'exports.handler = () => require("ovnk-pulumi/runtime").pulumiKinds.NetworkRows;\n',
    );
    const router = registered.find((r) => r.name === 'c4-colored-enterprise-router')!;
    expect(router.inputs.slice).toEqual(slices.connects['colored-enterprise']);
    expect(router.inputs.connectSubnets).toEqual([
      { cidr: '192.168.0.0/16', networkPrefix: 24 },
      { cidr: 'fd01::/112', networkPrefix: 120 },
    ]);
  });

  it('a per-node cluster has one ZoneRows resource per node and no per-network rows', async () => {
    const cluster = new components.Cluster('c5', topologyArgs('colored-enterprise', 'per-node'));
    await valueOf(cluster.allocations);
    await settle(() => named('c5').length, 9);
    const dynamic = named('c5')
      .filter((r) => r.type.startsWith('pulumi-nodejs'))
      .map((r) => r.name)
      .sort();
    expect(dynamic).toEqual([
      'c5-allocations',
      'c5-zone-ovn-control-plane',
      'c5-zone-ovn-worker',
      'c5-zone-ovn-worker2',
    ]);
    expect(Object.keys(cluster.zones).sort()).toEqual(['ovn-control-plane', 'ovn-worker', 'ovn-worker2']);
    // each ZoneRows references the zone catalog ClusterAllocations publishes, never carries it
    const { zone } = await valueOf((cluster.allocationsResource as ClusterAllocations).slices);
    for (const r of named('c5-zone-'))
      expect(r.inputs.slice).toEqual({
        summary: zone!.summary,
        digest: zone!.digest,
        owner: 'ovnk-pulumi.test/cluster',
      });
  });

  it('Uplinks get one UplinkState per selected node, holding only that node, and the CUDNs naming them see their states', async () => {
    const objects = parseAllDocuments(readFileSync(join(repoRoot, 'test', 'fixtures', 'uplink-lab.yaml'), 'utf8')).map(
      (d) => d.toJS(),
    );
    const of = (kind: string) => objects.filter((o) => o.kind === kind);
    const cluster = new components.Cluster('u1', {
      inventory: of('Inventory')[0],
      networks: of('ClusterUserDefinedNetwork'),
      uplinks: of('Uplink'),
    });
    await valueOf(cluster.allocations);
    expect(cluster.uplinks.red!.nodes).toEqual(['ovn-worker', 'ovn-worker2', 'ovn-worker3']);
    expect(cluster.uplinks.blue!.nodes).toEqual(['ovn-worker', 'ovn-worker2', 'ovn-worker3']);
    await settle(() => named('u1').filter((r) => r.type.endsWith(':UplinkState')).length, 6);
    const states = named('u1').filter((r) => r.type === 'pulumi-nodejs:dynamic/ovnk:UplinkState');
    expect(states.map((r) => r.name).sort()).toEqual([
      'u1-uplink-blue-ovn-worker',
      'u1-uplink-blue-ovn-worker2',
      'u1-uplink-blue-ovn-worker3',
      'u1-uplink-red-ovn-worker',
      'u1-uplink-red-ovn-worker2',
      'u1-uplink-red-ovn-worker3',
    ]);
    const red2 = states.find((r) => r.name === 'u1-uplink-red-ovn-worker2')!;
    expect(red2.inputs.owner).toBe('ovnk-pulumi.test/uplink/red/ovn-worker2');
    expect((red2.inputs.inventory as { spec: { nodes: { name: string }[] } }).spec.nodes.map((n) => n.name)).toEqual([
      'ovn-worker2',
    ]);
    expect((red2.inputs.networks as { metadata: { name: string } }[]).map((n) => n.metadata.name)).toEqual([
      'tenant-red',
    ]);
    expect(await valueOf(cluster.uplinks.red!.urn)).toBe(
      'urn:pulumi:test::ovnk-pulumi::ovnk:cluster:Cluster$ovnk:uplink:Uplink::u1-uplink-red',
    );
    expect(await valueOf(cluster.uplinks.red!.states['ovn-worker2']!.urn)).toBe(
      'urn:pulumi:test::ovnk-pulumi::ovnk:uplink:Uplink$pulumi-nodejs:dynamic/ovnk:UplinkState::u1-uplink-red-ovn-worker2',
    );
    expect(await valueOf(cluster.networks['tenant-red']!.uplinkStates)).toHaveLength(3);
  });
});
