import { describe, expect, inject, it } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { type Made, useTestHost } from '../support/hostFixture';
import { dynamicUrn, type Props } from '../support/pulumiHost';
import { renamedTopology } from './fixtures';

// A changed connectSubnets through @pulumi/pulumi's dynamic-provider host, as the engine drives a
// preview and an up: ClusterAllocations' check allocates fresh slices (no refusal), ConnectRouter's
// diff asks for a delete-before-replace, and the up's delete then create leave the connect's
// ports on the new subnets in the lab's Northbound. DiffChanges: 1 none, 2 some.
const lab = inject('lab');
const OWNER = 'ovnk-pulumi.replace-test';
const CONNECT = 'colored-enterprise-r';
const topology = renamedTopology('colored-enterprise', 'central', '-r');
const moved = structuredClone(topology);
moved.connects[0]!.spec.connectSubnets = [
  { cidr: '172.31.0.0/16', networkPrefix: 24 },
  { cidr: 'fd01::/112', networkPrefix: 120 },
];

const {
  host,
  check,
  checkAndCreate: create,
  created,
} = useTestHost(['ClusterAllocations', 'NetworkRows', 'ConnectRouter', 'ZoneRows'], () => ({ 'ovnk:nb': lab.nb }), {
  deleteCreated: true,
});
type Created = Made;

/** Addresses of the connect router's ports, as the lab's Northbound holds them. */
async function connectPortNetworks(): Promise<string[]> {
  const client = await OvsdbClient.connect(lab.nb);
  try {
    const [ports] = await client.transact('OVN_Northbound', [
      { op: 'select', table: 'Logical_Router_Port', where: [], columns: ['name', 'networks'] } as never,
    ]);
    return (ports!.rows ?? [])
      .filter((r) => String(r.name).startsWith(`crtor-${CONNECT}_`))
      .flatMap((r) => (Array.isArray(r.networks) ? r.networks : [r.networks]).map(String))
      .sort();
  } finally {
    client.close();
  }
}

const connectProps = (slices: Props, subnets: unknown) => ({
  owner: `${OWNER}/connect/${CONNECT}`,
  zone: 'central',
  connect: CONNECT,
  connectSubnets: subnets,
  slice: (slices as { connects: Record<string, Props> }).connects[CONNECT],
});

describe('a changed connectSubnets through the host', () => {
  let cluster: Created;
  let router: Created;
  let next: Props;

  it('the first up creates the connect on the old subnets', async () => {
    cluster = await create('ClusterAllocations', 'cluster', { owner: `${OWNER}/cluster`, ...topology });
    const slices = cluster.outs.slices as { networks: Record<string, Props> };
    for (const [ref, slice] of Object.entries(slices.networks))
      await create('NetworkRows', ref.replace(/\//g, '.'), {
        owner: `${OWNER}/network/${ref}`,
        zone: 'central',
        network: ref,
        slice,
      });
    router = await create(
      'ConnectRouter',
      'router',
      connectProps(cluster.outs.slices as Props, topology.connects[0]!.spec.connectSubnets),
    );
    expect((await connectPortNetworks()).some((n) => n.startsWith('192.168.'))).toBe(true);
  });

  it('preview: ClusterAllocations checks with fresh slices of the new subnets and updates; the router is replaced, deleted first; no network changes', async () => {
    next = await check('ClusterAllocations', cluster.urn, cluster.outs, { owner: `${OWNER}/cluster`, ...moved });
    const annotations = (next.allocations as { connects: Record<string, { annotations: Record<string, string> }> })
      .connects[CONNECT]!.annotations;
    expect(annotations['k8s.ovn.org/network-connect-subnet']).toContain('"layer3_1":{"ipv4":"172.31.0.0/24"');
    const clusterDiff = await host.diff(cluster.id, cluster.urn, cluster.outs, next);
    expect(clusterDiff).toMatchObject({ changes: 2, replaces: [] });
    const routerNews = await check(
      'ConnectRouter',
      router.urn,
      router.outs,
      connectProps(next.slices as Props, moved.connects[0]!.spec.connectSubnets),
    );
    expect(await host.diff(router.id, router.urn, router.outs, routerNews)).toEqual({
      changes: 2,
      replaces: ['connectSubnets'],
      deleteBeforeReplace: true,
    });
    for (const r of created.filter((c) => c.type === 'NetworkRows')) {
      const ref = String(r.outs.network);
      const news = await check('NetworkRows', r.urn, r.outs, {
        ...r.outs,
        slice: (next.slices as { networks: Record<string, Props> }).networks[ref],
      });
      expect({ ref, changes: (await host.diff(r.id, r.urn, r.outs, news)).changes }).toEqual({ ref, changes: 1 });
    }
  });

  it('up: update the allocations, delete the old router, check again with empty olds, create the new one; its ports are on the new subnets and nothing drifts', async () => {
    const updated = await host.update(cluster.id, cluster.urn, cluster.outs, next);
    cluster.outs = updated.properties;
    await host.delete(router.id, router.urn, router.outs);
    created.splice(created.indexOf(router), 1);
    expect(await connectPortNetworks()).toEqual([]);
    router = await create(
      'ConnectRouter',
      'router',
      connectProps(cluster.outs.slices as Props, moved.connects[0]!.spec.connectSubnets),
    );
    const networks = await connectPortNetworks();
    expect(networks.length).toBeGreaterThan(0);
    expect(networks.filter((n) => !n.includes(':')).every((n) => n.startsWith('172.31.'))).toBe(true);
    for (const r of created)
      expect({ type: r.type, drift: (await host.read(r.id, r.urn, r.outs)).properties.drift }).toEqual({
        type: r.type,
        drift: { lines: [], count: 0 },
      });
  });
});

describe('the per-node layout', () => {
  it('a changed connectSubnets updates each zone in place: its ZoneRows diff is a change, never a replacement', async () => {
    const perNode = renamedTopology('colored-enterprise', 'per-node', '-r');
    const movedPerNode = structuredClone(perNode);
    movedPerNode.connects[0]!.spec.connectSubnets = moved.connects[0]!.spec.connectSubnets;
    const urn = dynamicUrn('ClusterAllocations', 'per-node');
    const owner = `${OWNER}-zones/cluster`;
    const before = await check('ClusterAllocations', urn, {}, { owner, ...perNode });
    const after = await check('ClusterAllocations', urn, before, { owner, ...movedPerNode });
    const zone = (slices: Props) => ({
      owner: `${OWNER}-zones/zone/ovn-worker`,
      zone: 'ovn-worker',
      slice: (slices as { zone: Props }).zone,
    });
    const zoneUrn = dynamicUrn('ZoneRows', 'zone');
    const olds = await check('ZoneRows', zoneUrn, {}, zone(before.slices as Props));
    const news = await check('ZoneRows', zoneUrn, olds, zone(after.slices as Props));
    expect(await host.diff('zone', zoneUrn, { ...olds, schemaVersion: 2 }, news)).toEqual({
      changes: 2,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
});
