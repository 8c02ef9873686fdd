import { describe, expect, it } from 'vitest';
import { buildCluster } from '../../../provider/model/cluster';
import { loadDocuments } from '../../../provider/model/load';
import { DEFAULT_LAYOUT, inventoryZones, zonesOf } from '../../../provider/model/zones';

describe('the zones of a cluster', () => {
  it('per-node gives one zone per node, named after it, in node order, that node alone local', () => {
    expect(zonesOf('per-node', ['b', 'a'])).toEqual([
      { name: 'b', layout: 'per-node', localNodes: ['b'] },
      { name: 'a', layout: 'per-node', localNodes: ['a'] },
    ]);
  });

  it('central gives one zone named central with every node local', () => {
    expect(zonesOf('central', ['b', 'a'])).toEqual([{ name: 'central', layout: 'central', localNodes: ['b', 'a'] }]);
  });

  it('an Inventory that names no layout gets per-node, as upstream runs', () => {
    expect(DEFAULT_LAYOUT).toBe('per-node');
    const { cluster, problems } = buildCluster(
      loadDocuments(`apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: lab}
spec:
  nodes: [{name: n1}, {name: n2}]
`).documents,
    );
    expect(problems).toEqual([]);
    expect(inventoryZones(cluster.inventory).map((z) => z.name)).toEqual(['n1', 'n2']);
  });
});
