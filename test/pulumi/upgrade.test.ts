import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { stateValue, withNetworkSubnets } from '../../provider/runtime/pulumi/clusterInputs';
import { unpack } from '../../provider/runtime/pulumi/pack';
import { useTestHost } from '../support/hostFixture';
import { dynamicUrn, type Props } from '../support/pulumiHost';

// Recorded state must stay readable: version 1 (fixtures/cluster-allocations.v1.json, when every
// resource carried the whole topology) is migrated or refused with a clear message; version 2
// (cluster-allocations.v2.json and connect-router.v2.json, recorded by check + create of this
// version) plans no change and is read, updated and deleted by the runtime.
const lab = inject('lab');
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as { id: string; outputs: Props };
const v1 = fixture('cluster-allocations.v1.json');
const v2 = fixture('cluster-allocations.v2.json');
const router = fixture('connect-router.v2.json');
const perNode = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'per-node.v2.json'), 'utf8')) as Record<
  'cluster' | 'zone',
  { id: string; outputs: Props }
>;
// each kind's `__provider` as every version before the one-line text stored it: the SDK's
// serialization of a provider object whose methods require ovnk-pulumi/runtime at call time
const serialized = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'provider-shims.v2.json'), 'utf8')) as Record<
  string,
  string
>;
const { host, shim } = useTestHost(['ClusterAllocations', 'NetworkRows', 'ConnectRouter', 'ZoneRows'], () => ({
  'ovnk:nb': lab.nb,
}));

const programOf = (outs: Props) => ({
  owner: outs.owner,
  inventory: outs.inventory,
  networks: outs.networks,
  connects: outs.connects,
});
const urnOf = (kind: string) => dynamicUrn(kind, 'upgrade');
type Slices = { networks: Record<string, { digest: string }>; connects: Record<string, { digest: string }> };

async function checkCluster(olds: Props): Promise<Props> {
  const checked = await host.check(urnOf('ClusterAllocations'), olds, {
    __provider: shim.ClusterAllocations,
    ...programOf(olds),
  });
  expect(checked.failures).toEqual([]);
  return checked.inputs;
}

/** The cluster's shared rows (the Copp every router references) written for the body, removed after. */
async function withSharedRows(olds: Props, body: () => Promise<void>): Promise<void> {
  const created = await host.create(
    urnOf('ClusterAllocations'),
    await checkCluster({ ...olds, __provider: shim.ClusterAllocations }),
  );
  try {
    await body();
  } finally {
    await host.delete(created.id, urnOf('ClusterAllocations'), created.properties);
  }
}

type Masqueraded = { cluster: { masqueradeSubnets: string[] } };
describe('state written by version 1', () => {
  it('ClusterAllocations: the same program keeps every allocation and plans an update (the migration), not a replacement', async () => {
    const olds = { ...v1.outputs, __provider: shim.ClusterAllocations };
    const inputs = await checkCluster(olds);
    expect(withNetworkSubnets(inputs.allocations)).toEqual(v1.outputs.allocations);
    expect(await host.diff(v1.id, urnOf('ClusterAllocations'), olds, inputs)).toEqual({
      changes: 2,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it('ClusterAllocations: update rewrites the state as version 2 with the slices, keeps the allocations, and delete removes the shared rows', async () => {
    const olds = { ...v1.outputs, __provider: shim.ClusterAllocations };
    const updated = await host.update(v1.id, urnOf('ClusterAllocations'), olds, await checkCluster(olds));
    expect(updated.properties.schemaVersion).toBe(2);
    expect(withNetworkSubnets(updated.properties.allocations)).toEqual(v1.outputs.allocations);
    // the fixture's inventory is per-node: its slices are the zone catalog only
    const slices = updated.properties.slices as Slices & { zone: { summary: { networks: number } } };
    expect(slices.networks).toEqual({});
    expect(slices.zone.summary.networks).toBe(2);
    const read = await host.read(v1.id, urnOf('ClusterAllocations'), updated.properties);
    expect(read.properties.drift).toEqual({ lines: [], count: 0 });
    await host.delete(v1.id, urnOf('ClusterAllocations'), updated.properties);
  });

  it('a per-zone resource of version 1 is refused by read with a message saying to run pulumi up first; its update and delete still work', async () => {
    // the fixture's inventory is per-node: its zones were ZoneRows, each holding the whole topology and state
    const owner = 'ovnk-pulumi.upgrade/zone/ovn-worker';
    const old = {
      ...programOf(v1.outputs),
      owner,
      zone: 'ovn-worker',
      state: v1.outputs.state,
      schemaVersion: 1,
      zones: ['ovn-worker'],
      drift: { lines: [], count: 0 },
      __provider: shim.ZoneRows,
    };
    await expect(host.read(owner, urnOf('ZoneRows'), old)).rejects.toThrow(
      /ZoneRows state of schemaVersion 1 holds the whole topology.*run `pulumi up`.*before `pulumi refresh`/,
    );
    const slice = (
      (await checkCluster({ ...v1.outputs, __provider: shim.ClusterAllocations })).slices as { zone: Props }
    ).zone;
    const news = (
      await host.check(urnOf('ZoneRows'), old, { __provider: shim.ZoneRows, owner, zone: 'ovn-worker', slice })
    ).inputs;
    expect(await host.diff(owner, urnOf('ZoneRows'), old, news)).toEqual({
      changes: 2,
      replaces: [],
      deleteBeforeReplace: false,
    });
    await withSharedRows(v1.outputs, async () => {
      const updated = await host.update(owner, urnOf('ZoneRows'), old, news);
      expect(updated.properties.schemaVersion).toBe(2);
      expect(updated.properties.state).toBeUndefined();
      expect(updated.properties.inventory).toBeUndefined();
      await host.delete(owner, urnOf('ZoneRows'), updated.properties);
      await host.delete(owner, urnOf('ZoneRows'), old);
    });
  });
});

describe('state written by version 2', () => {
  it("ClusterAllocations: the same program gives the same allocations, and the networks' slices move to the /17 masquerade default as an update", async () => {
    const olds = { ...v2.outputs, __provider: shim.ClusterAllocations };
    const inputs = await checkCluster(olds);
    expect(withNetworkSubnets(inputs.allocations)).toEqual(v2.outputs.allocations);
    // version 2 defaulted to upstream's built-in 169.254.169.0/29 and fd69::/125, which hold no
    // network's masquerade addresses (upstream fails to add the node); the default is now
    // 169.254.0.0/17 and fd69::/112, so the networks' rows change, in place
    const slices = inputs.slices as { networks: Record<string, unknown>; connects: unknown };
    const before = v2.outputs.slices as typeof slices;
    expect(slices.connects).toEqual(before.connects);
    for (const [ref, slice] of Object.entries(slices.networks)) {
      expect(unpack<Masqueraded>(slice).cluster.masqueradeSubnets).toEqual(['169.254.0.0/17', 'fd69::/112']);
      expect(unpack<Masqueraded>(before.networks[ref]).cluster.masqueradeSubnets).toEqual([
        '169.254.169.0/29',
        'fd69::/125',
      ]);
    }
    expect(await host.diff(v2.id, urnOf('ClusterAllocations'), olds, inputs)).toEqual({
      changes: 2,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it('ConnectRouter: the recorded state diffs clean against the same program, is updated onto the lab, read without drift, and deleted', async () => {
    const cluster = await checkCluster({ ...v2.outputs, __provider: shim.ClusterAllocations });
    const slices = cluster.slices as Slices & { networks: Record<string, Props>; connects: Record<string, Props> };
    const olds = { ...router.outputs, __provider: shim.ConnectRouter };
    const news = (
      await host.check(urnOf('ConnectRouter'), olds, {
        __provider: shim.ConnectRouter,
        owner: router.outputs.owner,
        zone: 'central',
        connect: 'colored-enterprise',
        connectSubnets: router.outputs.connectSubnets,
        slice: slices.connects['colored-enterprise'],
      })
    ).inputs;
    expect(await host.diff(router.id, urnOf('ConnectRouter'), olds, news)).toEqual({
      changes: 1,
      replaces: [],
      deleteBeforeReplace: false,
    });
    await withSharedRows(v2.outputs, async () => {
      // the connect's rows attach to the networks' routers: those come first, as the component's dependsOn orders them
      const networks: { id: string; outs: Props }[] = [];
      for (const [ref, slice] of Object.entries(slices.networks)) {
        const checked = await host.check(
          urnOf('NetworkRows'),
          {},
          {
            __provider: shim.NetworkRows,
            owner: `ovnk-pulumi.upgrade/network/${ref}`,
            zone: 'central',
            network: ref,
            slice,
          },
        );
        const created = await host.create(dynamicUrn('NetworkRows', ref), checked.inputs);
        networks.push({ id: created.id, outs: created.properties });
      }
      const updated = await host.update(router.id, urnOf('ConnectRouter'), olds, news);
      expect(updated.properties.rowCounts).toEqual(router.outputs.rowCounts);
      const read = await host.read(router.id, urnOf('ConnectRouter'), updated.properties);
      expect(read.properties.drift).toEqual({ lines: [], count: 0 });
      await host.delete(router.id, urnOf('ConnectRouter'), read.properties);
      for (const n of networks.reverse()) await host.delete(n.id, urnOf('NetworkRows'), n.outs);
    });
  });

  it('state from a newer version is refused with a message naming schemaVersion', async () => {
    await expect(
      host.read(v2.id, urnOf('ClusterAllocations'), {
        ...v2.outputs,
        schemaVersion: 99,
        __provider: shim.ClusterAllocations,
      }),
    ).rejects.toThrow(/schemaVersion 99.*upgrade the ovnk-pulumi package/);
    await expect(
      host.read(router.id, urnOf('ConnectRouter'), {
        ...router.outputs,
        schemaVersion: 99,
        __provider: shim.ConnectRouter,
      }),
    ).rejects.toThrow(/schemaVersion 99.*upgrade the ovnk-pulumi package/);
  });
});

type Zoned = { zone: { digest: string; summary: Props }; networks: Record<string, unknown> };
describe('per-node state written before the zone catalog was published', () => {
  it('ClusterAllocations: the same program plans no change; its allocations, state and zone catalog hold the same in their new shapes', async () => {
    const olds: Props = { ...perNode.cluster.outputs, __provider: shim.ClusterAllocations };
    const inputs = await checkCluster(olds);
    expect(withNetworkSubnets(inputs.allocations)).toEqual(olds.allocations);
    expect(stateValue(inputs.state)).toEqual(olds.state);
    const [slices, before] = [inputs.slices as Zoned, olds.slices as Zoned];
    expect(slices.zone.digest).toBe(before.zone.digest);
    // the central layout's slices are no longer in a per-node cluster's state
    expect(Object.keys(before.networks).length).toBeGreaterThan(0);
    expect(slices.networks).toEqual({});
    const diff = await host.diff(perNode.cluster.id, urnOf('ClusterAllocations'), olds, inputs);
    expect(diff).toEqual({ changes: 1, replaces: [], deleteBeforeReplace: false });
  });

  it('ZoneRows: the catalog it held and the reference the Cluster now gives it plan no change', async () => {
    const cluster = (await checkCluster({ ...perNode.cluster.outputs, __provider: shim.ClusterAllocations }))
      .slices as Zoned;
    const olds = { ...perNode.zone.outputs, __provider: shim.ZoneRows };
    const reference = {
      summary: cluster.zone.summary,
      digest: cluster.zone.digest,
      owner: 'ovnk-pulumi.upgrade/cluster',
    };
    const { owner, zone } = perNode.zone.outputs;
    const news = (
      await host.check(urnOf('ZoneRows'), olds, { __provider: shim.ZoneRows, owner, zone, slice: reference })
    ).inputs;
    expect(news.slice).toEqual(reference);
    const diff = await host.diff(perNode.zone.id, urnOf('ZoneRows'), olds, news);
    expect(diff).toEqual({ changes: 1, replaces: [], deleteBeforeReplace: false });
  });
});

describe('state whose __provider is the serialized shim of earlier versions', () => {
  it('ZoneRows: the same program plans no change; check answers with the new text, and diff ignores the old one', async () => {
    expect(serialized.ZoneRows!.length).toBeGreaterThan(2000);
    expect(shim.ZoneRows!.length).toBeLessThan(100);
    const cluster = (await checkCluster({ ...perNode.cluster.outputs, __provider: shim.ClusterAllocations }))
      .slices as Zoned;
    const { owner, zone } = perNode.zone.outputs;
    const slice = { summary: cluster.zone.summary, digest: cluster.zone.digest, owner: 'ovnk-pulumi.upgrade/cluster' };
    const program = { owner, zone, slice };
    const current = (await host.check(urnOf('ZoneRows'), {}, { __provider: shim.ZoneRows, ...program })).inputs;
    // the engine's olds: the stored state, which differs from the program's inputs in __provider only
    const olds = { ...perNode.zone.outputs, ...current, __provider: serialized.ZoneRows };
    const news = (await host.check(urnOf('ZoneRows'), olds, { __provider: shim.ZoneRows, ...program })).inputs;
    expect(news).toEqual(current);
    expect(await host.diff(perNode.zone.id, urnOf('ZoneRows'), olds, news)).toEqual({
      changes: 1,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it('ClusterAllocations: read and delete run through the stored serialized shim (a refresh or destroy before the next update)', async () => {
    const created = await host.create(
      urnOf('ClusterAllocations'),
      await checkCluster({ ...v2.outputs, __provider: shim.ClusterAllocations }),
    );
    const stored = { ...created.properties, __provider: serialized.ClusterAllocations };
    const read = await host.read(created.id, urnOf('ClusterAllocations'), stored);
    expect(read.properties.drift).toEqual({ lines: [], count: 0 });
    // the host keeps the stored text in what it returns
    expect(read.properties.__provider).toBe(serialized.ClusterAllocations);
    await host.delete(created.id, urnOf('ClusterAllocations'), stored);
    const gone = await host.read(created.id, urnOf('ClusterAllocations'), stored);
    expect(gone.properties.drift).not.toEqual({ lines: [], count: 0 });
  });
});
