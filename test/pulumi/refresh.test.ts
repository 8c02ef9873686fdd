import { afterAll, describe, expect, inject, it } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { DEFAULT_COPP } from '../../provider/topology/names';
import { useTestHost } from '../support/hostFixture';
import type { Props } from '../support/pulumiHost';
import { renamedTopology } from './fixtures';

// What the README's "What `pulumi refresh` detects" says, through the real dynamic-provider host
// against the lab's Northbound: a row of ours missing, an extra row carrying our marker and a
// hand-edited shared Copp are drift that the next update writes back in one go; a row without our
// marker is never reported and never touched.
const lab = inject('lab');
const OWNER = 'ovnk-pulumi.refresh-test';
const topology = renamedTopology('colored-enterprise', 'central', '-rf');
const BLUE = 'ClusterUserDefinedNetwork/blue-network-rf';
const FOREIGN = 'refresh-test-foreign-switch';
const EXTRA = 'refresh-test-extra-switch';
// blue's join switch and its port to the cluster router (upstream's names)
const JOIN_SWITCH = 'cluster_udn_blue.network.rf_join';
const JOIN_PORT = 'jtor-cluster_udn_blue.network.rf_ovn_cluster_router';

async function transact(operations: unknown[]): Promise<{ rows?: Record<string, unknown>[] }[]> {
  const client = await OvsdbClient.connect(lab.nb);
  try {
    return (await client.transact('OVN_Northbound', operations as never)) as { rows?: Record<string, unknown>[] }[];
  } finally {
    client.close();
  }
}

const switchNamed = async (name: string) =>
  (await transact([{ op: 'select', table: 'Logical_Switch', where: [['name', '==', name]], columns: ['name'] }]))[0]!
    .rows!.length;

const driftOf = (props: Props) => props.drift as { lines: string[]; count: number };

// Registered before the host's: runs after the host deleted what it made and stopped.
afterAll(async () => {
  await transact([{ op: 'delete', table: 'Logical_Switch', where: [['name', 'includes', FOREIGN]] }]).catch(
    () => undefined,
  );
});
const { host, checkAndCreate } = useTestHost(['ClusterAllocations', 'NetworkRows'], () => ({ 'ovnk:nb': lab.nb }), {
  deleteCreated: true,
});

describe('what refresh detects, as the README says', () => {
  let cluster: { urn: string; id: string; outs: Props };
  let blue: { urn: string; id: string; outs: Props };

  it('after create, read finds no drift in the network rows nor in the shared rows', async () => {
    cluster = await checkAndCreate('ClusterAllocations', 'cluster', { owner: `${OWNER}/cluster`, ...topology });
    const slice = (cluster.outs.slices as { networks: Record<string, Props> }).networks[BLUE];
    blue = await checkAndCreate('NetworkRows', 'blue', {
      owner: `${OWNER}/network/${BLUE}`,
      zone: 'central',
      network: BLUE,
      slice,
    });
    expect(driftOf((await host.read(blue.id, blue.urn, blue.outs)).properties)).toEqual({ lines: [], count: 0 });
    expect(driftOf((await host.read(cluster.id, cluster.urn, cluster.outs)).properties)).toEqual({
      lines: [],
      count: 0,
    });
  });

  it('the join port of ours removed, an extra switch with our marker and a switch without it: the first two are drift, in words, the third is not', async () => {
    const [joinSwitch, joinPort] = await transact([
      { op: 'select', table: 'Logical_Switch', where: [['name', '==', JOIN_SWITCH]], columns: ['_uuid'] },
      { op: 'select', table: 'Logical_Switch_Port', where: [['name', '==', JOIN_PORT]], columns: ['_uuid'] },
    ]);
    const uuidOf = (r: { rows?: Record<string, unknown>[] } | undefined) =>
      (r!.rows![0]!._uuid as { uuid: string }).uuid;
    await transact([
      // the port is not a root row: taken out of its switch, the server drops it
      {
        op: 'mutate',
        table: 'Logical_Switch',
        where: [['_uuid', '==', ['uuid', uuidOf(joinSwitch)]]],
        mutations: [['ports', 'delete', ['set', [['uuid', uuidOf(joinPort)]]]]],
      },
      {
        op: 'insert',
        table: 'Logical_Switch',
        row: { name: EXTRA, external_ids: ['map', [['ovnk.io/owner', `${OWNER}/network/${BLUE}`]]] },
      },
      { op: 'insert', table: 'Logical_Switch', row: { name: FOREIGN } },
    ]);
    const read = await host.read(blue.id, blue.urn, blue.outs);
    const drift = driftOf(read.properties);
    // the port missing and its switch's reference to it, the extra switch; nothing of the foreign one
    expect([...drift.lines].sort()).toEqual([
      `central: create Logical_Switch_Port "${JOIN_PORT}"`,
      `central: delete Logical_Switch "${EXTRA}"`,
      `central: update Logical_Switch "${JOIN_SWITCH}": ports + Logical_Switch_Port "${JOIN_PORT}"`,
    ]);
    expect(drift.count).toBe(3);
    expect((await host.diff(blue.id, blue.urn, read.properties, blue.outs)).changes).toBe(2);
    blue.outs = read.properties;
  });

  it("the shared Copp edited by hand is ClusterAllocations' drift", async () => {
    await transact([
      {
        op: 'mutate',
        table: 'Copp',
        where: [['name', '==', DEFAULT_COPP]],
        mutations: [['meters', 'delete', ['set', ['arp']]]],
      },
    ]);
    const read = await host.read(cluster.id, cluster.urn, cluster.outs);
    const drift = driftOf(read.properties);
    expect(drift.lines).toEqual([expect.stringMatching(new RegExp(`^central: update Copp "${DEFAULT_COPP}": meters`))]);
    expect(drift.count).toBe(1);
    cluster.outs = read.properties;
  });

  it('the next update writes everything back, and the switch without our marker is still there, untouched', async () => {
    const repairedCluster = await host.update(cluster.id, cluster.urn, cluster.outs, { ...cluster.outs });
    const repaired = await host.update(blue.id, blue.urn, blue.outs, { ...blue.outs });
    for (const [r, props] of [
      [cluster, repairedCluster.properties],
      [blue, repaired.properties],
    ] as const)
      expect(driftOf((await host.read(r.id, r.urn, props)).properties).count).toBe(0);
    expect(await switchNamed(EXTRA)).toBe(0);
    expect(await switchNamed(FOREIGN)).toBe(1);
    cluster.outs = repairedCluster.properties;
    blue.outs = repaired.properties;
  });
});
