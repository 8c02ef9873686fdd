import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { resourceCount } from '../../stacks/scale';
import { installMocks, type Registered, settle, valueOf } from './mocks';

describe('the stacks of the project under mocks', () => {
  let registered: Registered[] = [];
  beforeAll(() => {
    registered = installMocks(false);
  });

  async function runStack(config: Record<string, string>): Promise<Record<string, unknown>> {
    registered.length = 0;
    pulumi.runtime.setAllConfig(config);
    vi.resetModules();
    return import('../../stacks/index');
  }

  it('colored-enterprise reads its topology file and exports allocations, networks and connects', async () => {
    const stack = (await runStack({
      'ovnk-pulumi:topology': 'topologies/colored-enterprise.yaml',
      'ovnk-pulumi:zones': 'central',
    })) as {
      allocations: pulumi.Output<{ networkIds: Record<string, number> }>;
      connects: Record<string, { tunnelKey: pulumi.Output<number> }>;
    };
    const ids = await valueOf(stack.allocations.apply((a) => a.networkIds));
    expect(Object.keys(ids)).toHaveLength(3);
    expect(await valueOf(stack.connects['colored-enterprise']!.tunnelKey)).toBeGreaterThan(0);
    await settle(() => registered.length, 10);
    expect(registered.filter((r) => r.type === 'pulumi-nodejs:dynamic/ovnk:NetworkRows')).toHaveLength(3);
  });

  it('the scale stack registers the resources its formula says, growing with zones, not with rows', async () => {
    const spec = { networks: 3, connects: 2, nodes: 4 };
    const stack = (await runStack({ 'ovnk-pulumi:scale': JSON.stringify(spec), 'ovnk-pulumi:zones': 'per-node' })) as {
      allocations: pulumi.Output<unknown>;
    };
    await valueOf(stack.allocations);
    const expected = resourceCount(spec, 'per-node') - 1; // mocks do not register the stack itself
    await settle(() => registered.length, expected);
    expect(registered).toHaveLength(expected);
    expect(registered.filter((r) => r.type === 'pulumi-nodejs:dynamic/ovnk:ZoneRows')).toHaveLength(4);
  });

  it('the vrf-lite stack renders its Uplinks: an UplinkState per node each Uplink selects, and its RouteAdvertisements are left out', async () => {
    const nodes = [
      { name: 'ovn-worker', labels: { 'uplink.ovnk.io/group': 'a' } },
      { name: 'ovn-worker2', labels: { 'uplink.ovnk.io/group': 'a' } },
      { name: 'ovn-worker3', labels: { 'uplink.ovnk.io/group': 'b' } },
    ];
    const stack = (await runStack({
      'ovnk-pulumi:topology': 'vrf-lite.yaml',
      'ovnk-pulumi:zones': 'central',
      'ovnk-pulumi:nodes': JSON.stringify(nodes),
    })) as { allocations: pulumi.Output<{ networkIds: Record<string, number> }> };
    expect(Object.keys(await valueOf(stack.allocations.apply((a) => a.networkIds))).sort()).toEqual([
      'cluster_udn_blue',
      'cluster_udn_red',
    ]);
    await settle(() => registered.filter((r) => r.type.endsWith(':UplinkState')).length, 6);
    const states = registered
      .filter((r) => r.type === 'pulumi-nodejs:dynamic/ovnk:UplinkState')
      .map((r) => r.name)
      .sort();
    expect(states).toEqual(
      [
        'vrf-lite-uplink-br-blue-ovn-worker',
        'vrf-lite-uplink-br-blue-ovn-worker2',
        'vrf-lite-uplink-br-blue-ovn-worker3',
        'vrf-lite-uplink-br-red-ovn-worker',
        'vrf-lite-uplink-br-red-ovn-worker2',
        'vrf-lite-uplink-br-red-ovn-worker3',
      ].map((n) => n.replace('vrf-lite', 'test')),
    );
  });

  it('the kubernetes stack registers upstream objects through a provider on its kubeconfig context, and takes an Inventory written by ovnk inventory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ovnk-stack-'));
    const inventory = join(dir, 'inventory.yaml');
    // what `ovnk inventory` writes: upstream's node ids and the network id the NADs carry
    writeFileSync(
      inventory,
      [
        'apiVersion: ovnk/v1alpha1',
        'kind: Inventory',
        'metadata: {name: kind-ovn}',
        'spec:',
        '  zones: per-node',
        '  clusterSubnets: [10.244.0.0/16, "fd00:10:244::/48"]',
        '  serviceCIDRs: [10.96.0.0/16, "fd00:10:96::/112"]',
        '  namespaces: [{name: blue, labels: {tenant: blue}}, {name: green, labels: {tenant: green}}, {name: yellow}, {name: red}]',
        '  nodes: [{name: ovn-control-plane, id: 9}, {name: ovn-worker, id: 8}]',
        '  allocations: {networks: [{name: cluster_udn_green-network, id: 42}]}',
      ].join('\n'),
    );
    try {
      const stack = (await runStack({
        'ovnk-pulumi:topology': 'topologies/colored-enterprise.yaml',
        'ovnk-pulumi:target': 'kubernetes',
        'ovnk-pulumi:kubeconfigContext': 'kind-ovn',
        'ovnk-pulumi:inventory': inventory,
      })) as {
        allocations: pulumi.Output<{ networkIds: Record<string, number>; nodeIds: Record<string, number> }>;
        kubernetes: { divergence: pulumi.Output<string[]> };
      };
      const allocations = await valueOf(stack.allocations);
      expect(allocations.networkIds['cluster_udn_green-network']).toBe(42);
      expect(allocations.nodeIds).toEqual({ 'ovn-control-plane': 9, 'ovn-worker': 8 });
      await settle(() => registered.filter((r) => r.type.startsWith('kubernetes:')).length, 4);
      const provider = registered.find((r) => r.type === 'pulumi:providers:kubernetes')!;
      expect(provider.inputs.context).toBe('kind-ovn');
      expect(
        registered
          .filter((r) => r.type.startsWith('kubernetes:k8s.ovn.org/'))
          .map((r) => r.type)
          .sort(),
      ).toEqual([
        'kubernetes:k8s.ovn.org/v1:ClusterNetworkConnect',
        'kubernetes:k8s.ovn.org/v1:ClusterUserDefinedNetwork',
        'kubernetes:k8s.ovn.org/v1:ClusterUserDefinedNetwork',
        'kubernetes:k8s.ovn.org/v1:UserDefinedNetwork',
      ]);
      expect(
        registered.some(
          (r) => r.type.startsWith('pulumi-nodejs:dynamic/ovnk:') && !r.type.endsWith('ClusterPrediction'),
        ),
      ).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
