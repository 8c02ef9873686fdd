import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { applyUplinks, destroyUplinks, discoverUplinks } from '../../provider/runtime/uplink';
import { findCondition } from '../../provider/uplink';
import '../setup/lab';
import {
  bridgeMappings,
  closeNodes,
  externalIds,
  fixture,
  labCluster,
  onNode,
  restoreExternalIds,
} from './uplink-helpers';

const lab = inject('lab');
const [first, second, third] = lab.nodes as [(typeof lab.nodes)[0], (typeof lab.nodes)[0], (typeof lab.nodes)[0]];
const cli = path.resolve(__dirname, '../../dist/cli/main.js');

function ovnk(...args: string[]): { code: number; json: Record<string, any> } {
  const result = spawnSync(process.execPath, [cli, ...args, '-o', 'json'], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status ?? -1, json: JSON.parse(result.stdout) };
}

/** Run `body` and put every node's Open_vSwitch external_ids back afterwards. */
async function restoring(body: () => Promise<void>): Promise<void> {
  const saved = await Promise.all(lab.nodes.map(externalIds));
  try {
    await body();
  } finally {
    await Promise.all(lab.nodes.map((n, i) => restoreExternalIds(n, saved[i]!)));
  }
}

afterAll(async () => {
  await closeNodes();
});

describe('Uplink bridge mappings on the lab nodes', () => {
  it('merges the CUDN mappings after entries of others and removes only its own', async () => {
    await restoring(async () => {
      await onNode(
        first,
        'ovs-vsctl',
        'set',
        'Open_vSwitch',
        '.',
        'external_ids:ovn-bridge-mappings=physnet:breth0,other:br-other',
      );
      const cluster = labCluster(lab);
      const applied = await applyUplinks(cluster, 'uplink-lab');
      expect(await bridgeMappings(first)).toBe(
        'physnet:breth0,other:br-other,cluster_udn_tenant-blue:br-blue,cluster_udn_tenant-red:br-red',
      );
      // ovn-worker3 does not resolve blue (MTU): only red is mapped there
      expect(await bridgeMappings(third)).toBe('physnet:breth0,cluster_udn_tenant-red:br-red');
      expect(applied.written[third.name]).toEqual({ set: ['cluster_udn_tenant-red:br-red'], removed: [] });
      const gateway = findCondition(
        applied.uplinkStates.find((s) => s.metadata.name === `red.${first.name}`)!.status.conditions,
        'GatewayReady',
      );
      expect(gateway).toEqual({
        type: 'GatewayReady',
        status: 'True',
        reason: 'GatewayConfigured',
        message: 'Uplink gateway programming succeeded for 1 active CUDN(s)',
        lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      });
      expect(applied.networks['cluster_udn_tenant-red']!.conditions[0]).toMatchObject({
        status: 'True',
        reason: 'UplinksReady',
      });

      const again = await applyUplinks(cluster, 'uplink-lab');
      expect(again.written).toEqual({});

      await destroyUplinks(cluster, 'uplink-lab');
      expect(await bridgeMappings(first)).toBe('physnet:breth0,other:br-other');
      expect(await bridgeMappings(third)).toBe('physnet:breth0');
      expect(await onNode(first, 'ovs-vsctl', 'get', 'Open_vSwitch', '.', 'external_ids')).not.toContain(
        'ovnk.io/bridge-mappings',
      );
    });
  });

  it('leaves a mapping of the same network that it did not write alone when no longer wanted', async () => {
    await restoring(async () => {
      await onNode(
        second,
        'ovs-vsctl',
        'set',
        'Open_vSwitch',
        '.',
        'external_ids:ovn-bridge-mappings=physnet:breth0,cluster_udn_tenant-red:br-red',
      );
      await destroyUplinks(labCluster(lab), 'uplink-lab');
      expect(await bridgeMappings(second)).toBe('physnet:breth0,cluster_udn_tenant-red:br-red');
    });
  });

  it('refuses a node whose host key differs from the pin, and discovers the others', async () => {
    const cluster = labCluster(lab);
    const wrong = { ...cluster.inventory.targets!.nodes[second.name]!, hostKey: `SHA256:${'A'.repeat(43)}` };
    cluster.inventory.targets!.nodes[second.name] = wrong;
    const result = await discoverUplinks(cluster, 'uplink-lab');
    const step = result.nodes.find((n) => n.node === second.name)!;
    expect(step.error).toMatchObject({ reason: 'HostKeyRejected' });
    expect(step.error!.message).toContain('refusing to connect');
    expect(result.uplinkStates.map((s) => s.metadata.name)).not.toContain(`red.${second.name}`);
    expect(result.uplinks.find((u) => u.metadata.name === 'red')!.status.conditions[0]).toMatchObject({
      reason: 'MissingUplinkState',
      message: `1 of 3 selected node(s) have readiness failures; examples: ${second.name}=MissingUplinkState`,
    });
    expect(
      findCondition(
        result.uplinkStates.find((s) => s.metadata.name === `red.${first.name}`)!.status.conditions,
        'Resolved',
      )!.status,
    ).toBe('True');
  });

  it('fails an unreachable node alone while the others get their mappings', async () => {
    await restoring(async () => {
      const cluster = labCluster(lab);
      cluster.inventory.targets!.nodes[third.name] = { ...cluster.inventory.targets!.nodes[third.name]!, port: 2 };
      const result = await applyUplinks(cluster, 'uplink-lab');
      expect(result.nodes.find((n) => n.node === third.name)!.error).toMatchObject({ reason: 'HostUnreachable' });
      expect(result.nodes.find((n) => n.node === third.name)!.error!.message).toContain(':2');
      expect(await bridgeMappings(first)).toContain('cluster_udn_tenant-red:br-red');
      expect(await bridgeMappings(third)).toBe('physnet:breth0');
      expect(result.networks['cluster_udn_tenant-red']!.conditions[0]).toMatchObject({
        reason: 'UplinkNotResolvedForNode',
        message: `1 active node/uplink readiness check(s) failed; examples: red/${third.name}=UplinkNotResolvedForNode`,
      });
    });
  });

  it('ovnk diff reports a mapping removed by hand and ovnk apply restores it', async () => {
    await restoring(async () => {
      try {
        const applied = ovnk('apply', '-f', fixture, '--lab', lab.name);
        expect(applied.code).toBe(0);
        expect(applied.json.uplinkStates.map((s: { metadata: { name: string } }) => s.metadata.name)).toContain(
          `red.${first.name}`,
        );
        expect(applied.json.networks['cluster_udn_tenant-red'].conditions[0]).toMatchObject({ reason: 'UplinksReady' });
        expect(ovnk('diff', '-f', fixture, '--lab', lab.name).code).toBe(0);

        await onNode(
          second,
          'ovs-vsctl',
          'set',
          'Open_vSwitch',
          '.',
          'external_ids:ovn-bridge-mappings=physnet:breth0,cluster_udn_tenant-blue:br-blue',
        );
        const drift = ovnk('diff', '-f', fixture, '--lab', lab.name);
        expect(drift.code).toBe(2);
        // without its mapping ovn-controller removed red's patch port: our flows on br-red name a port that is gone
        // (red's 10: commonFlows' 6 and uplinkHostServiceFlows' 4; the bridge's 6 shared, table 3 included)
        expect(drift.json.uplinkDrift).toEqual([
          `node ${second.name}: ovn-bridge-mappings lacks cluster_udn_tenant-red:br-red`,
          `node ${second.name}: bridge br-red: 0 gateway flow(s) missing, 16 not planned`,
        ]);

        const repaired = ovnk('apply', '-f', fixture, '--lab', lab.name);
        expect(repaired.json.uplinkNodes.find((n: { node: string }) => n.node === second.name).change).toBeUndefined();
        expect(await bridgeMappings(second)).toBe(
          'physnet:breth0,cluster_udn_tenant-blue:br-blue,cluster_udn_tenant-red:br-red',
        );
        expect(ovnk('diff', '-f', fixture, '--lab', lab.name).code).toBe(0);
      } finally {
        const destroyed = ovnk('destroy', '-f', fixture, '--lab', lab.name);
        expect(destroyed.code).toBe(0);
      }
      expect(await bridgeMappings(second)).toBe('physnet:breth0');
    });
  });
});
