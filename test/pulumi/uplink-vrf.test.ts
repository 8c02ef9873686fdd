import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { pulumiKinds, uplinkStateInputs } from '../../provider/runtime/pulumi';
import { routeAdvertisements } from '../support/objects';
import { repoRoot } from './fixtures';
import { installMocks, type Registered, settle, valueOf } from './mocks';

// The VRF inputs of UplinkState without any node: the Cluster passes RouteAdvertisements and
// ClusterAllocations' network ids to each UplinkState (mocks), and check narrows and validates them.
const objects = parseAllDocuments(readFileSync(join(repoRoot, 'test', 'fixtures', 'uplink-lab.yaml'), 'utf8')).map(
  (d) => d.toJS(),
);
const of = (kind: string) => objects.filter((o) => o.kind === kind);
const labelled = () =>
  of('ClusterUserDefinedNetwork').map((n) => ({
    ...n,
    metadata: { ...n.metadata, labels: { 'k8s.ovn.org/metadata.name': n.metadata.name } },
  }));
/** RouteAdvertisements `<cudn>-ra` of that one CUDN's pod network into its own VRF. */
const autoRa = (cudn: string) =>
  routeAdvertisements(`${cudn}-ra`, { 'k8s.ovn.org/metadata.name': cudn }, { targetVRF: 'auto' });

describe('UplinkState VRF inputs', () => {
  let registered: Registered[] = [];
  let components: typeof import('../../components');
  beforeAll(async () => {
    registered = installMocks(false);
    components = await import('../../components');
  });

  it('a Cluster with RouteAdvertisements gives each UplinkState them and the allocated network ids', async () => {
    const cluster = new components.Cluster('v1', {
      inventory: of('Inventory')[0],
      networks: labelled(),
      uplinks: of('Uplink'),
      routeAdvertisements: [autoRa('tenant-red')],
    });
    const allocations = await valueOf(cluster.allocations);
    const ids = allocations.networkIds;
    await settle(() => registered.filter((r) => r.name.startsWith('v1-uplink-red')).length, 3);
    const red2 = registered.find((r) => r.name === 'v1-uplink-red-ovn-worker2')!;
    expect((red2.inputs.routeAdvertisements as { metadata: { name: string } }[]).map((r) => r.metadata.name)).toEqual([
      'tenant-red-ra',
    ]);
    expect(red2.inputs.networkIds).toEqual(ids);
    expect(ids['cluster_udn_tenant-red']).toEqual(expect.any(Number));
    // the routed flows of an advertised Layer3 network match its node subnet (check narrows them)
    expect(red2.inputs.hostSubnets).toEqual(allocations.hostSubnets);
    expect(allocations.hostSubnets['cluster_udn_tenant-red']?.['ovn-worker2']).toEqual([expect.any(String)]);
  });

  it('a Cluster without RouteAdvertisements leaves VRF out of its UplinkStates', async () => {
    new components.Cluster('v2', { inventory: of('Inventory')[0], networks: labelled(), uplinks: of('Uplink') });
    await settle(() => registered.filter((r) => r.name.startsWith('v2-uplink-red')).length, 3);
    const red = registered.find((r) => r.name === 'v2-uplink-red-ovn-worker')!;
    expect(red.inputs.routeAdvertisements).toBeUndefined();
    expect(red.inputs.networkIds).toBeUndefined();
  });

  const red = of('Uplink').find((u) => u.metadata.name === 'red');
  const props = (extra: Record<string, unknown>) => ({
    owner: 'o/uplink/red/ovn-worker',
    ...uplinkStateInputs(of('Inventory')[0], red, labelled(), 'ovn-worker'),
    ...extra,
  });

  it('check keeps only the RouteAdvertisements advertising its CUDNs and only their ids', async () => {
    const { inputs, failures } = await pulumiKinds.UplinkState.check(
      {},
      props({
        routeAdvertisements: [autoRa('tenant-red'), autoRa('tenant-blue')],
        networkIds: { 'cluster_udn_tenant-red': 2, 'cluster_udn_tenant-blue': 3 },
      }),
    );
    expect(failures ?? []).toEqual([]);
    expect((inputs!.routeAdvertisements as { metadata: { name: string } }[]).map((r) => r.metadata.name)).toEqual([
      'tenant-red-ra',
    ]);
    expect(inputs!.networkIds).toEqual({ 'cluster_udn_tenant-red': 2 });
  });

  it("check keeps only this node's subnets of its advertised Layer3 networks, for their routed flows", async () => {
    const hostSubnets = {
      'cluster_udn_tenant-red': { 'ovn-worker': ['10.11.1.0/24'], 'ovn-worker2': ['10.11.2.0/24'] },
      'cluster_udn_tenant-blue': { 'ovn-worker': ['10.12.1.0/24'] },
    };
    const ids = { 'cluster_udn_tenant-red': 2, 'cluster_udn_tenant-blue': 3 };
    const { inputs, failures } = await pulumiKinds.UplinkState.check(
      {},
      props({ routeAdvertisements: [autoRa('tenant-red')], networkIds: ids, hostSubnets }),
    );
    expect(failures ?? []).toEqual([]);
    expect(inputs!.hostSubnets).toEqual({ 'cluster_udn_tenant-red': { 'ovn-worker': ['10.11.1.0/24'] } });
    // another node's subnets change: this node's resource's inputs stay as they are
    const moved = {
      ...hostSubnets,
      'cluster_udn_tenant-red': { ...hostSubnets['cluster_udn_tenant-red'], 'ovn-worker2': [] },
    };
    const again = await pulumiKinds.UplinkState.check(
      {},
      props({ routeAdvertisements: [autoRa('tenant-red')], networkIds: ids, hostSubnets: moved }),
    );
    expect(again.inputs!.hostSubnets).toEqual(inputs!.hostSubnets);
  });

  it('check refuses a malformed RouteAdvertisements and a bad network id, naming each', async () => {
    const bad = autoRa('tenant-red');
    bad.spec.targetVRF = 7 as unknown as string;
    const { failures } = await pulumiKinds.UplinkState.check(
      {},
      props({ routeAdvertisements: [autoRa('tenant-blue'), bad], networkIds: { 'cluster_udn_tenant-red': -1 } }),
    );
    expect(failures).toEqual([
      {
        property: 'routeAdvertisements[1]',
        reason: expect.stringMatching(/^InvalidField: RouteAdvertisements\/tenant-red-ra: spec\.targetVRF: /),
      },
      {
        property: 'networkIds.cluster_udn_tenant-red',
        reason: 'InvalidField: network id -1 is not a non-negative integer',
      },
    ]);
  });

  it('check refuses routeAdvertisements that are not a list', async () => {
    const { failures } = await pulumiKinds.UplinkState.check({}, props({ routeAdvertisements: 'blue-ra' }));
    expect(failures).toEqual([
      {
        property: 'routeAdvertisements',
        reason: 'InvalidField: routeAdvertisements must be a list of RouteAdvertisements objects, not "blue-ra"',
      },
    ]);
  });
});
