import { afterAll, describe, expect, inject, it } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { useTestHost } from '../support/hostFixture';
import { dynamicUrn, type Props } from '../support/pulumiHost';
import { renamedTopology, stackTopology } from './fixtures';

// The engine's calls for each kind, through @pulumi/pulumi's real dynamic-provider host, against
// the lab's Northbound. DiffChanges: 1 none, 2 some.
const lab = inject('lab');
const OWNER = 'ovnk-pulumi.host-test';
const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

const {
  host,
  shim,
  checkAndCreate: made,
} = useTestHost(['ClusterAllocations', 'NetworkRows', 'ConnectRouter', 'ZoneRows'], () => ({ 'ovnk:nb': lab.nb }));

/** check as a first `up` does (empty olds), then create; returns the checked inputs and the outputs. */
async function checkAndCreate(type: string, name: string, news: Props) {
  const { type: _type, ...resource } = await made(type, name, news);
  return resource;
}
const topology = renamedTopology('colored-enterprise', 'central', '-h');

async function ownedRows(owner: string): Promise<number> {
  const client = await OvsdbClient.connect(lab.nb);
  try {
    const tables = [
      'Logical_Router',
      'Logical_Switch',
      'Logical_Router_Port',
      'Logical_Switch_Port',
      'Logical_Router_Static_Route',
      'Logical_Router_Policy',
      'Copp',
      'Meter',
      'Meter_Band',
      'ACL',
    ];
    const results = await client.transact(
      'OVN_Northbound',
      tables.map((table) => ({
        op: 'select' as const,
        table,
        where: [['external_ids', 'includes', ['map', [['ovnk.io/owner', owner]]]]] as never,
      })),
    );
    return results.reduce((n, r) => n + (r.rows?.length ?? 0), 0);
  } finally {
    client.close();
  }
}

async function nbTransact(operations: unknown[]): Promise<void> {
  const client = await OvsdbClient.connect(lab.nb);
  try {
    await client.transact('OVN_Northbound', operations as never);
  } finally {
    client.close();
  }
}

describe('ClusterAllocations through the host', () => {
  it('check returns the allocations and tunnel keys, so preview shows them before create', async () => {
    const { inputs, failures } = await host.check(
      dynamicUrn('ClusterAllocations', 'a'),
      {},
      { __provider: shim.ClusterAllocations, owner: `${OWNER}/cluster`, ...topology },
    );
    expect(failures).toEqual([]);
    const allocations = inputs.allocations as {
      networkIds: Record<string, number>;
      connects: Record<string, { tunnelKey: number; accepted: boolean }>;
    };
    expect(Object.keys(allocations.networkIds).sort()).toEqual([
      'cluster_udn_blue-network-h',
      'cluster_udn_green-network-h',
      'yellow_yellow-network-h',
    ]);
    expect(allocations.connects['colored-enterprise-h']).toMatchObject({ accepted: true });
    expect(allocations.connects['colored-enterprise-h']!.tunnelKey).toBeGreaterThan(16_000_000);
    expect(inputs.__provider).toBe(shim.ClusterAllocations);
  });

  it('check refuses a connect subnet that overlaps a network, naming the property and the OKEP reason', async () => {
    const connects = structuredClone(topology.connects);
    (connects[0]!.spec as { connectSubnets: unknown[] }).connectSubnets[0] = {
      cidr: '103.103.0.0/16',
      networkPrefix: 24,
    };
    const { failures } = await host.check(
      dynamicUrn('ClusterAllocations', 'bad'),
      {},
      { __provider: shim.ClusterAllocations, owner: `${OWNER}/cluster`, ...topology, connects },
    );
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]!.property).toMatch(/^connects\[0\]/);
    expect(failures[0]!.reason).toMatch(
      /^(ConnectSubnetConflict|OverlappingNetworkSubnets|ConnectSubnetOverlap|InvalidSpec): .*103\.103\.0\.0\/16/,
    );
  });

  it('check and diff accept the preview sentinel anywhere and treat it as a change', async () => {
    const urn = dynamicUrn('ClusterAllocations', 'u');
    const news = { __provider: shim.ClusterAllocations, owner: `${OWNER}/cluster`, ...topology, networks: UNKNOWN };
    const { inputs, failures } = await host.check(urn, {}, news);
    expect(failures).toEqual([]);
    expect(inputs.allocations).toBeUndefined();
    const diff = await host.diff('x', urn, { owner: `${OWNER}/cluster`, ...topology, schemaVersion: 1 }, inputs);
    expect(diff.changes).toBe(2);
    expect(diff.replaces).toEqual([]);
  });

  it('an owner that is not a valid marker is refused by check, naming owner', async () => {
    const { failures } = await host.check(
      dynamicUrn('ClusterAllocations', 'o'),
      {},
      { __provider: shim.ClusterAllocations, owner: 'bad owner=1', ...topology },
    );
    expect(failures.map((f) => f.property)).toEqual(['owner']);
  });
});

describe('the central layout through the host: allocations, network rows and a connect router', () => {
  const created: { type: string; urn: string; id: string; outs: Props }[] = [];
  let cluster: { urn: string; id: string; inputs: Props; outs: Props };
  const slices = () => cluster.outs.slices as { networks: Record<string, Props>; connects: Record<string, Props> };
  const networkProps = (ref: string) => ({
    owner: `${OWNER}/network/${ref}`,
    zone: 'central',
    network: ref,
    slice: slices().networks[ref],
  });
  const connectProps = () => ({
    owner: `${OWNER}/connect/colored-enterprise-h`,
    zone: 'central',
    connect: 'colored-enterprise-h',
    connectSubnets: topology.connects[0]!.spec.connectSubnets,
    slice: slices().connects['colored-enterprise-h'],
  });

  afterAll(async () => {
    for (const r of created.reverse()) await host.delete(r.id, r.urn, r.outs).catch(() => undefined);
  });

  it('create writes the shared rows, then each network and the connect, one resource each', async () => {
    cluster = await checkAndCreate('ClusterAllocations', 'cluster', { owner: `${OWNER}/cluster`, ...topology });
    created.push({ type: 'ClusterAllocations', ...cluster });
    expect(cluster.outs.schemaVersion).toBe(2);
    expect(cluster.outs.zones).toEqual(['central']);
    expect(JSON.stringify(cluster.outs)).not.toContain(lab.nb);
    for (const n of topology.networks) {
      const ref = `${n.kind}/${n.metadata.namespace ? `${n.metadata.namespace}/` : ''}${n.metadata.name}`;
      const r = await checkAndCreate('NetworkRows', ref.replace(/\//g, '.'), networkProps(ref));
      created.push({ type: 'NetworkRows', ...r });
      expect(Object.values(r.outs.rowCounts as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
    }
    const connect = await checkAndCreate('ConnectRouter', 'connect', connectProps());
    created.push({ type: 'ConnectRouter', ...connect });
    expect((connect.outs.slice as { summary: { tunnelKey: number } }).summary.tunnelKey).toBe(
      (cluster.outs.allocations as { connects: Record<string, { tunnelKey: number }> }).connects[
        'colored-enterprise-h'
      ]!.tunnelKey,
    );
    expect(connect.outs.inventory).toBeUndefined();
    expect(connect.outs.state).toBeUndefined();
    expect(await ownedRows(`${OWNER}/connect/colored-enterprise-h`)).toBeGreaterThan(3);
  });

  it('read finds no drift and a diff with the same inputs is empty', async () => {
    for (const r of created) {
      const read = await host.read(r.id, r.urn, r.outs);
      expect(read.id).toBe(r.id);
      expect(read.properties.drift).toEqual({ lines: [], count: 0 });
      const again = await host.check(r.urn, r.outs, { ...r.outs });
      const diff = await host.diff(r.id, r.urn, read.properties, again.inputs);
      expect({ type: r.type, changes: diff.changes }).toEqual({ type: r.type, changes: 1 });
    }
  });

  it('refresh after a manual Northbound change reports the drift; update repairs it', async () => {
    const blue = created.find((r) => r.type === 'NetworkRows' && String(r.outs.network).endsWith('blue-network-h'))!;
    await nbTransact([
      {
        op: 'update',
        table: 'Logical_Router',
        where: [['name', '==', 'cluster_udn_blue.network.h_ovn_cluster_router']],
        row: { options: ['map', [['ovnk-test', 'hand-made']]] },
      },
    ]);
    const read = await host.read(blue.id, blue.urn, blue.outs);
    const drift = read.properties.drift as { lines: string[]; count: number };
    expect(drift.count).toBeGreaterThan(0);
    expect(drift.lines.join('\n')).toContain('cluster_udn_blue.network.h_ovn_cluster_router');
    const diff = await host.diff(blue.id, blue.urn, read.properties, blue.outs);
    expect(diff.changes).toBe(2);
    const updated = await host.update(blue.id, blue.urn, read.properties, { ...blue.outs });
    expect((updated.properties.drift as { count: number }).count).toBe(0);
    const after = await host.read(blue.id, blue.urn, updated.properties);
    expect((after.properties.drift as { count: number }).count).toBe(0);
  });

  it('a per-zone resource without its slice is refused by check, naming slice and why', async () => {
    const { failures } = await host.check(
      dynamicUrn('NetworkRows', 'none'),
      {},
      {
        __provider: shim.NetworkRows,
        owner: `${OWNER}/network/x`,
        zone: 'central',
        network: 'ClusterUserDefinedNetwork/nowhere',
      },
    );
    expect(failures).toEqual([
      {
        property: 'slice',
        reason: expect.stringMatching(/^InvalidSpec: network ClusterUserDefinedNetwork\/nowhere renders no rows/),
      },
    ]);
  });

  it("a changed network spec changes only that network's slice: its diff is an update, the others see no change", async () => {
    const changed = structuredClone(topology);
    (
      changed.networks.find((n) => n.metadata.name === 'green-network-h')!.spec as unknown as {
        network: { layer3: { mtu?: number } };
      }
    ).network.layer3.mtu = 1300;
    const checked = await host.check(cluster.urn, cluster.outs, {
      __provider: shim.ClusterAllocations,
      owner: `${OWNER}/cluster`,
      ...changed,
    });
    expect(checked.failures).toEqual([]);
    const next = checked.inputs.slices as { networks: Record<string, Props> };
    for (const r of created.filter((c) => c.type === 'NetworkRows')) {
      const ref = String(r.outs.network);
      const news = (
        await host.check(r.urn, r.outs, {
          __provider: shim.NetworkRows,
          ...networkProps(ref),
          slice: next.networks[ref],
        })
      ).inputs;
      const diff = await host.diff(r.id, r.urn, r.outs, news);
      expect({ ref, changes: diff.changes, replaces: diff.replaces }).toEqual({
        ref,
        changes: ref.endsWith('green-network-h') ? 2 : 1,
        replaces: [],
      });
    }
  });

  it('a changed connectSubnets replaces the connect router, deleting it first', async () => {
    const connect = created.find((r) => r.type === 'ConnectRouter')!;
    const news = { ...connect.outs, connectSubnets: [{ cidr: '192.169.0.0/16', networkPrefix: 24 }] };
    const diff = await host.diff(connect.id, connect.urn, connect.outs, news);
    expect(diff).toEqual({ changes: 2, replaces: ['connectSubnets'], deleteBeforeReplace: true });
  });

  it('delete removes exactly the owned rows and is idempotent', async () => {
    for (const r of [...created].reverse()) {
      await host.delete(r.id, r.urn, r.outs);
      expect(await ownedRows(String(r.outs.owner))).toBe(0);
      await host.delete(r.id, r.urn, r.outs);
    }
    created.length = 0;
  });
});

describe("ServiceNetwork in the central layout: each network owns its load balancers, the connect's group references them", () => {
  const services = stackTopology('colored-enterprise-services.yaml', 'central', '-s');
  const owner = `${OWNER}-services`;
  const created: { urn: string; id: string; outs: Props }[] = [];

  async function loadBalancers(): Promise<{ name: string; owner?: string }[]> {
    const client = await OvsdbClient.connect(lab.nb);
    try {
      const [result] = await client.transact('OVN_Northbound', [
        { op: 'select', table: 'Load_Balancer', where: [], columns: ['name', 'external_ids'] } as never,
      ]);
      return (result!.rows ?? [])
        .map((r) => ({ name: String(r.name), owner: (r.external_ids as Record<string, string>)['ovnk.io/owner'] }))
        .filter((r) => r.owner?.startsWith(owner));
    } finally {
      client.close();
    }
  }

  afterAll(async () => {
    for (const r of created.reverse()) await host.delete(r.id, r.urn, r.outs).catch(() => undefined);
  });

  it('create writes every load balancer once, owned by its network, and read finds no drift anywhere', async () => {
    const cluster = await checkAndCreate('ClusterAllocations', 'services', { owner: `${owner}/cluster`, ...services });
    created.push(cluster);
    const slices = cluster.outs.slices as { networks: Record<string, Props>; connects: Record<string, Props> };
    for (const [ref, slice] of Object.entries(slices.networks))
      created.push(
        await checkAndCreate('NetworkRows', `services.${ref}`, {
          owner: `${owner}/network/${ref.replace(/\//g, '.')}`,
          zone: 'central',
          network: ref,
          slice,
        }),
      );
    for (const c of services.connects) {
      const name = c.metadata.name;
      created.push(
        await checkAndCreate('ConnectRouter', `services.${name}`, {
          owner: `${owner}/connect/${name}`,
          zone: 'central',
          connect: name,
          connectSubnets: c.spec.connectSubnets,
          slice: slices.connects[name],
        }),
      );
    }
    const balancers = await loadBalancers();
    expect(balancers.length).toBeGreaterThan(0);
    expect(new Set(balancers.map((b) => b.name)).size).toBe(balancers.length);
    expect(balancers.every((b) => b.owner!.startsWith(`${owner}/network/`))).toBe(true);
    for (const r of created)
      expect((await host.read(r.id, r.urn, r.outs)).properties.drift).toEqual({ lines: [], count: 0 });
  });

  it('delete in reverse order leaves no load balancer of this stack', async () => {
    for (const r of created.reverse()) await host.delete(r.id, r.urn, r.outs);
    created.length = 0;
    expect(await loadBalancers()).toEqual([]);
  });
});
