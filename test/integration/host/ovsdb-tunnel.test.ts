import { afterAll, describe, expect, inject, it } from 'vitest';
import type { LabNodeStatus } from '../../../lab';
import { HostPool, openUnixSocketStream } from '../../../provider/host';
import { OvsdbClient } from '../../../provider/ovsdb/client';
import { closeConnections, nbConnection } from '../../../provider/runtime/connections';
import '../../setup/lab';

const lab = inject('lab');
const pool = new HostPool();

const runnerOf = (node: LabNodeStatus) =>
  pool.runner({
    host: node.ssh.host,
    port: node.ssh.port,
    user: node.ssh.user,
    keyPath: node.ssh.keyPath,
    hostKey: { fingerprint: node.ssh.hostKeyFingerprint },
  });

afterAll(async () => {
  await pool.closeAll();
  await closeConnections();
});

describe('OVSDB over SSH', () => {
  it("opens each node's Open_vSwitch database through the SSH stream and reads that node's own rows", async () => {
    for (const node of lab.nodes) {
      const socketPath = node.ovsDb.replace(/^unix:/, '');
      const endpoint = openUnixSocketStream(runnerOf(node), socketPath);
      expect(endpoint.describe).toBe(`ssh://root@${node.ssh.host}:22/unix:${socketPath}`);
      const client = await OvsdbClient.connect(endpoint);
      try {
        expect(await client.listDbs()).toContain('Open_vSwitch');
        const [ovs] = await client.transact('Open_vSwitch', [
          { op: 'select', table: 'Open_vSwitch', where: [], columns: ['external_ids'] },
        ]);
        expect(ovs.rows?.[0].external_ids).toMatchObject({ 'system-id': node.chassisId, hostname: node.name });
        const [bridges] = await client.transact('Open_vSwitch', [
          {
            op: 'select',
            table: 'Bridge',
            where: [['name', '==', node.gatewayBridge]],
            columns: ['name', 'datapath_type'],
          },
        ]);
        expect(bridges.rows).toEqual([{ name: node.gatewayBridge, datapath_type: 'netdev' }]);
      } finally {
        client.close();
      }
    }
  });

  it('runs commands and database streams side by side on one connection', async () => {
    const node = lab.nodes[0];
    const runner = runnerOf(node);
    const client = await OvsdbClient.connect(openUnixSocketStream(runner, node.ovsDb.replace(/^unix:/, '')));
    try {
      const [dbs, name] = await Promise.all([client.listDbs(), runner.run(['hostname'])]);
      expect(dbs).toContain('Open_vSwitch');
      expect(name.stdout.trim()).toBe(node.name);
    } finally {
      client.close();
    }
  });

  it('fails clearly when the remote socket does not exist', async () => {
    const endpoint = openUnixSocketStream(runnerOf(lab.nodes[1]), '/nonexistent/db.sock');
    await expect(OvsdbClient.connect(endpoint)).rejects.toThrow(/nonexistent\/db\.sock/);
  });

  it('gives a second caller with another host-key pin its own connection, which that pin refuses', async () => {
    // two clusters of one program naming one ssh:// endpoint: the pooled connection of the first
    // must not stand in for the second, whose pin (here a wrong one) is checked on its own
    const node = lab.nodes[0]!;
    const endpoint = `ssh://${node.ssh.user}@${node.ssh.host}:${node.ssh.port}/unix:${node.ovsDb.replace(/^unix:/, '')}`;
    const ssh = (fingerprint: string) => ({ ssh: { keyPath: node.ssh.keyPath, hostKey: { fingerprint } } });
    const trusted = await nbConnection(endpoint, 'zone a', ssh(node.ssh.hostKeyFingerprint));
    expect(await trusted.listDbs()).toContain('Open_vSwitch');
    const otherPin = `SHA256:${'A'.repeat(43)}`;
    await expect(nbConnection(endpoint, 'zone b', ssh(otherPin))).rejects.toThrow(/is pinned: refusing to connect/);
    expect(await nbConnection(endpoint, 'zone a', ssh(node.ssh.hostKeyFingerprint))).toBe(trusted);
  });
});
