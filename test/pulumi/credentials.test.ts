import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OvsdbClient } from '../../provider/ovsdb/client';
import { NB_SCHEMA, startOvsdbServer, type OvsdbServer } from '../support/ovsdbServer';
import { dynamicUrn, linkedConsumer, type Props, PulumiHost, providerText } from '../support/pulumiHost';
import { renamedTopology } from './fixtures';

// Endpoints and credentials come from stack config in configure(): an ssl: Northbound with the
// TLS client key, certificate and CA, and an ssh:// Northbound tunnelled to a lab node with the
// SSH key and a pinned host key. Every secret value must be absent from everything the engine
// gets back (Check, Create, Read, Update), which is what lands in the stack's state.
const lab = inject('lab');
const schema = lab.ovnRoot ? join(lab.ovnRoot, 'usr', 'share', 'ovn', 'ovn-nb.ovsschema') : NB_SCHEMA;
const topology = renamedTopology('colored-enterprise', 'central', '-c');
const consumer = { dir: '', remove: () => undefined } as { dir: string; remove: () => void };
const shim: Record<string, string> = {};
const hosts: PulumiHost[] = [];
let server: OvsdbServer;

async function startHost(config: Record<string, string>): Promise<PulumiHost> {
  const host = await PulumiHost.start(consumer.dir);
  hosts.push(host);
  await host.configure(config);
  return host;
}

async function ownedRows(client: OvsdbClient, owner: string): Promise<number> {
  const [result] = await client.transact('OVN_Northbound', [
    {
      op: 'select',
      table: 'Logical_Router',
      where: [['external_ids', 'includes', ['map', [['ovnk.io/owner', owner]]]]],
    } as never,
  ]);
  return result!.rows?.length ?? 0;
}

/** The engine's whole conversation for a cluster and one network; returns every reply and the network's outputs. */
async function lifecycle(host: PulumiHost, owner: string): Promise<{ replies: unknown[]; network: Props }> {
  const replies: unknown[] = [];
  const clusterUrn = dynamicUrn('ClusterAllocations', owner);
  const checked = await host.check(
    clusterUrn,
    {},
    { __provider: shim.ClusterAllocations, owner: `${owner}/cluster`, ...topology },
  );
  expect(checked.failures).toEqual([]);
  const cluster = await host.create(clusterUrn, checked.inputs);
  const ref = 'ClusterUserDefinedNetwork/blue-network-c';
  const slice = (cluster.properties.slices as { networks: Record<string, Props> }).networks[ref];
  const urn = dynamicUrn('NetworkRows', owner);
  const netChecked = await host.check(
    urn,
    {},
    { __provider: shim.NetworkRows, owner: `${owner}/network`, zone: 'central', network: ref, slice },
  );
  const network = await host.create(urn, netChecked.inputs);
  const read = await host.read(network.id, urn, network.properties);
  const updated = await host.update(network.id, urn, read.properties, netChecked.inputs);
  replies.push(
    checked,
    cluster,
    netChecked,
    network,
    read,
    updated,
    await host.read(cluster.id, clusterUrn, cluster.properties),
  );
  await host.delete(network.id, urn, updated.properties);
  await host.delete(cluster.id, clusterUrn, cluster.properties);
  return { replies, network: updated.properties };
}

beforeAll(async () => {
  Object.assign(consumer, linkedConsumer());
  for (const kind of ['ClusterAllocations', 'NetworkRows']) shim[kind] = providerText(kind);
  server = await startOvsdbServer({
    schema,
    ssl: true,
    remotes: [`punix:${join(dirname(lab.nodes[0]!.ovsDb.replace(/^unix:/, '')), 'ovnk-pulumi-test-nb.sock')}`],
  });
}, 60_000);

afterAll(async () => {
  for (const host of hosts) await host.stop();
  consumer.remove();
  await server?.stop();
  rmSync(join(dirname(lab.nodes[0]!.ovsDb.replace(/^unix:/, '')), 'ovnk-pulumi-test-nb.sock'), { force: true });
});

describe('credentials from stack config', () => {
  it('an ssl: Northbound is written with the configured TLS material, and no secret or endpoint appears in any reply', async () => {
    const tls = server.tls!;
    const sshKey =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAnot-a-real-key-secret-marker\n-----END OPENSSH PRIVATE KEY-----';
    const host = await startHost({
      'ovnk:nb': server.ssl!,
      'ovnk:tlsPrivateKey': tls.key,
      'ovnk:tlsCertificate': tls.cert,
      'ovnk:tlsCaCertificate': tls.ca,
      'ovnk:sshPrivateKey': sshKey,
      'ovnk:sshHostKeyFingerprint': 'SHA256:c2VjcmV0LWZpbmdlcnByaW50',
    });
    const client = await OvsdbClient.connect(server.unix);
    try {
      const { replies, network } = await lifecycle(host, 'ovnk-pulumi.tls');
      expect(Object.values(network.rowCounts as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
      const text = JSON.stringify(replies);
      for (const secret of [tls.key, tls.cert, tls.ca, sshKey, server.ssl!]) expect(text.includes(secret)).toBe(false);
      expect(text).not.toContain('secret-marker');
      expect(text).not.toContain('BEGIN');
      expect(await ownedRows(client, 'ovnk-pulumi.tls/network')).toBe(0);
    } finally {
      client.close();
    }
  });

  it('an ssl: endpoint without TLS material is refused, naming the zone, the endpoint and what is missing', async () => {
    const host = await startHost({ 'ovnk:nb': server.ssl! });
    const urn = dynamicUrn('ClusterAllocations', 'no-tls');
    const checked = await host.check(
      urn,
      {},
      { __provider: shim.ClusterAllocations, owner: 'ovnk-pulumi.no-tls/cluster', ...topology },
    );
    await expect(host.create(urn, checked.inputs)).rejects.toThrow(
      `zone central: "${server.ssl}" an ssl: endpoint needs TLS material (key, cert, ca)`,
    );
  });

  it('incomplete TLS material is refused at the first call, naming the missing keys and never a value', async () => {
    const host = await startHost({ 'ovnk:nb': server.ssl!, 'ovnk:tlsPrivateKey': server.tls!.key });
    const error = await host
      .check(
        dynamicUrn('ClusterAllocations', 'half'),
        {},
        { __provider: shim.ClusterAllocations, owner: 'x/cluster', ...topology },
      )
      .catch((e: Error) => e);
    expect(String(error)).toMatch(/TLS material is incomplete: ovnk:tlsCertificate, ovnk:tlsCaCertificate not set/);
    expect(String(error)).not.toContain(server.tls!.key.slice(40, 80));
  });

  it('an ssh:// Northbound is reached through the SSH tunnel with the configured key and pinned host key', async () => {
    const node = lab.nodes[0]!;
    const socket = join(dirname(node.ovsDb.replace(/^unix:/, '')), 'ovnk-pulumi-test-nb.sock');
    const endpoint = `ssh://${node.ssh.user}@${node.ssh.host}:${node.ssh.port}/unix:${socket}`;
    const key = readFileSync(node.ssh.keyPath, 'utf8');
    const host = await startHost({
      'ovnk:nb': endpoint,
      'ovnk:sshPrivateKey': key,
      'ovnk:sshHostKeyFingerprint': node.ssh.hostKeyFingerprint,
    });
    const { replies } = await lifecycle(host, 'ovnk-pulumi.ssh');
    const text = JSON.stringify(replies);
    expect(text.includes(key)).toBe(false);
    expect(text).not.toContain(endpoint);
    expect((replies[3] as { properties: Props }).properties.zones).toEqual(['central']);
  });

  it('an ssh:// Northbound whose host key does not match the pin is refused and nothing is written', async () => {
    const node = lab.nodes[0]!;
    const socket = join(dirname(node.ovsDb.replace(/^unix:/, '')), 'ovnk-pulumi-test-nb.sock');
    const host = await startHost({
      'ovnk:nb': `ssh://${node.ssh.user}@${node.ssh.host}:${node.ssh.port}/unix:${socket}`,
      'ovnk:sshPrivateKey': readFileSync(node.ssh.keyPath, 'utf8'),
      'ovnk:sshHostKeyFingerprint': 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    const urn = dynamicUrn('ClusterAllocations', 'bad-pin');
    const checked = await host.check(
      urn,
      {},
      { __provider: shim.ClusterAllocations, owner: 'ovnk-pulumi.bad-pin/cluster', ...topology },
    );
    await expect(host.create(urn, checked.inputs)).rejects.toThrow(
      /cannot reach the Northbound at ssh:\/\/.*host key/i,
    );
    const client = await OvsdbClient.connect(server.unix);
    try {
      const [copp] = await client.transact('OVN_Northbound', [
        {
          op: 'select',
          table: 'Copp',
          where: [['external_ids', 'includes', ['map', [['ovnk.io/owner', 'ovnk-pulumi.bad-pin/cluster']]]]],
        } as never,
      ]);
      expect(copp!.rows).toEqual([]);
    } finally {
      client.close();
    }
  });
});
