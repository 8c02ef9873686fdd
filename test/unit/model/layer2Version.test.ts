import { describe, expect, it } from 'vitest';
import { clusterOf, gatewayNode, inventory, layer2, networkFor } from '../../support/objects';

const blue = networkFor('blue', layer2(['10.20.0.0/16']));
const withNode = (node: Record<string, unknown>) =>
  clusterOf(inventory('inv', { zones: 'per-node', nodes: [{ ...gatewayNode(1), ...node }] }), blue);

describe("the Inventory's per-node Layer2 topology fields", () => {
  it('defaults to the transit router and takes "1.0" with pinned gateway port keys', () => {
    expect(withNode({}).cluster.inventory.nodes[0]!.layer2TopologyVersion).toBeUndefined();
    const { cluster, problems } = withNode({
      layer2TopologyVersion: '1.0',
      layer2GatewayTunnelIds: { cluster_udn_blue: 9 },
    });
    expect(problems).toEqual([]);
    expect(cluster.inventory.nodes[0]).toMatchObject({
      layer2TopologyVersion: '1.0',
      layer2GatewayTunnelIds: { cluster_udn_blue: 9 },
    });
  });

  it('refuses a version upstream does not have and a key outside its allocator, naming the field', () => {
    const version = withNode({ layer2TopologyVersion: '3.0' }).problems.map((p) => `${p.path} ${p.message}`);
    expect(version.join('\n')).toMatch(/spec\.nodes\[0\]\.layer2TopologyVersion/);
    const key = withNode({ layer2GatewayTunnelIds: { cluster_udn_blue: 40000 } }).problems.map(
      (p) => `${p.path} ${p.message}`,
    );
    expect(key.join('\n')).toMatch(/spec\.nodes\[0\]\.layer2GatewayTunnelIds\.cluster_udn_blue/);
  });
});
