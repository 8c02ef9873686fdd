import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { useTestHost } from '../support/hostFixture';
import { NB_SCHEMA, type OvsdbServer } from '../support/ovsdbServer';
import { dynamicUrn } from '../support/pulumiHost';
import { useZoneNorthbounds } from '../support/worlds';

// A resource whose rows span zones (ClusterAllocations' shared rows, one copy per zone in the
// per-node layout) writes every zone at once through the engine's host: a zone whose Northbound
// is down fails alone, named with the zones that were applied, and the others hold their rows.
const nodes = ['ovn-worker', 'ovn-worker2', 'ovn-worker3'];
const lab = inject('lab');
const schema = lab.ovnRoot ? join(lab.ovnRoot, 'usr', 'share', 'ovn', 'ovn-nb.ovsschema') : NB_SCHEMA;
const OWNER = 'ovnk-pulumi.zones-parallel-test';

const topology = () => ({
  inventory: {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'zones-parallel' },
    spec: {
      zones: 'per-node',
      clusterSubnets: ['10.244.0.0/16'],
      nodes: nodes.map((name, i) => ({ name, id: i + 2, chassisId: `chassis-${i + 2}` })),
    },
  },
  networks: [],
  connects: [],
});

/** The shared Copp rows this owner uses (nb/shared.ts: one `ovnk.io/user/<owner>` key per owner). */
async function ownedCopps(server: OvsdbServer): Promise<number> {
  const client = await OvsdbClient.connect(server.unix);
  try {
    const where = [['external_ids', 'includes', ['map', [[`ovnk.io/user/${OWNER}/cluster`, 'true']]]]];
    const [result] = await client.transact('OVN_Northbound', [{ op: 'select', table: 'Copp', where } as never]);
    return result!.rows?.length ?? 0;
  } finally {
    client.close();
  }
}

// The servers start before the host and stop after it (the hooks run as a stack).
const { servers, endpoints } = useZoneNorthbounds(nodes, { schema });
const { host, shim } = useTestHost(['ClusterAllocations'], () => ({ 'ovnk:zoneEndpoints': endpoints() }));

describe('a resource over several zones through the host, one Northbound down', () => {
  it('create fails naming the zone that is down and the zones applied; those hold their rows', async () => {
    await servers[0]!.kill();
    const urn = dynamicUrn('ClusterAllocations', 'zones-parallel');
    const checked = await host.check(
      urn,
      {},
      { __provider: shim.ClusterAllocations, owner: `${OWNER}/cluster`, ...topology() },
    );
    expect(checked.failures).toEqual([]);
    const created = host.create(urn, checked.inputs);
    await expect(created).rejects.toThrow(/zone ovn-worker: cannot reach the Northbound at unix:/);
    await expect(created).rejects.toThrow(/\(applied: ovn-worker2, ovn-worker3\)/);
    expect(await ownedCopps(servers[1]!)).toBe(1);
    expect(await ownedCopps(servers[2]!)).toBe(1);
  });
});
