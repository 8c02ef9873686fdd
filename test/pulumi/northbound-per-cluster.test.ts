/**
 * Northbound endpoints per Cluster (issue 29.5) through @pulumi/pulumi's dynamic-provider host: one
 * host process, as one program's, serves two deployments. The east cluster names a stack-config
 * namespace (`east:nb` and east's TLS material, secrets of the stack's config), the west one its
 * endpoint directly; each writes its shared rows into its own Northbound only, and neither the
 * checked inputs nor the outputs (what the engine stores as state) hold a key or a certificate.
 */
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { useTestHost } from '../support/hostFixture';
import { NB_SCHEMA, type OvsdbServer } from '../support/ovsdbServer';
import { dynamicUrn, type Props } from '../support/pulumiHost';
import { useZoneNorthbounds } from '../support/worlds';

const lab = inject('lab');
const schema = lab.ovnRoot ? join(lab.ovnRoot, 'usr', 'share', 'ovn', 'ovn-nb.ovsschema') : NB_SCHEMA;
const OWNER = 'ovnk-pulumi.two-deployments';
// stand-ins for PEM secrets: never read for a unix: endpoint, and never to be found in state
const SECRETS = { key: 'EAST-PRIVATE-KEY-MATERIAL', cert: 'EAST-CERTIFICATE', ca: 'EAST-CA' };

const topology = (name: string) => ({
  inventory: {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name },
    spec: { zones: 'central', clusterSubnets: ['10.244.0.0/16'], nodes: [{ name: 'node-1' }] },
  },
  networks: [],
  connects: [],
});

/** Copp rows the deployment's cluster owns in `server` (nb/shared.ts: one `ovnk.io/user/<owner>` key per owner). */
async function ownedCopps(server: OvsdbServer, deployment: string): Promise<number> {
  const client = await OvsdbClient.connect(server.unix);
  try {
    const where = [['external_ids', 'includes', ['map', [[`ovnk.io/user/${OWNER}.${deployment}/cluster`, 'true']]]]];
    const [result] = await client.transact('OVN_Northbound', [{ op: 'select', table: 'Copp', where } as never]);
    return result!.rows?.length ?? 0;
  } finally {
    client.close();
  }
}

const { servers } = useZoneNorthbounds(['east', 'west'], { schema });
const { host, shim } = useTestHost(['ClusterAllocations'], () => ({
  'east:nb': servers[0]!.unix,
  'east:tlsPrivateKey': SECRETS.key,
  'east:tlsCertificate': SECRETS.cert,
  'east:tlsCaCertificate': SECRETS.ca,
}));

const props = (deployment: string, northbound: unknown): Props => ({
  __provider: shim.ClusterAllocations,
  owner: `${OWNER}.${deployment}/cluster`,
  ...topology(deployment),
  northbound,
});

describe('two deployments from one program, each Cluster with its own Northbound', () => {
  const made: { urn: string; id: string; outs: Props }[] = [];

  it('each cluster writes into its own Northbound only, and no key or certificate reaches inputs or outputs', async () => {
    const deployments = { east: { config: 'east' }, west: { nb: servers[1]!.unix } };
    for (const [deployment, northbound] of Object.entries(deployments)) {
      const urn = dynamicUrn('ClusterAllocations', `${deployment}-allocations`);
      const checked = await host.check(urn, {}, props(deployment, northbound));
      expect(checked.failures).toEqual([]);
      expect(checked.inputs.northbound).toEqual(northbound);
      const created = await host.create(urn, checked.inputs);
      made.push({ urn, id: created.id, outs: created.properties });
      for (const text of [JSON.stringify(checked.inputs), JSON.stringify(created.properties)])
        for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    }
    expect([await ownedCopps(servers[0]!, 'east'), await ownedCopps(servers[0]!, 'west')]).toEqual([1, 0]);
    expect([await ownedCopps(servers[1]!, 'east'), await ownedCopps(servers[1]!, 'west')]).toEqual([0, 1]);
  });

  it('delete removes each cluster from its own Northbound', async () => {
    for (const m of made) await host.delete(m.id, m.urn, m.outs);
    expect([await ownedCopps(servers[0]!, 'east'), await ownedCopps(servers[1]!, 'west')]).toEqual([0, 0]);
  });

  it('check refuses a northbound that names no usable namespace, by its property', async () => {
    const urn = dynamicUrn('ClusterAllocations', 'bad-allocations');
    const checked = await host.check(urn, {}, props('bad', { config: 'east west' }));
    expect(checked.failures).toEqual([
      {
        property: 'northbound.config',
        reason: 'InvalidField: must name a stack-config namespace (letters, digits, . _ -), not "east west"',
      },
    ]);
  });
});
