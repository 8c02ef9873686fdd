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
});
