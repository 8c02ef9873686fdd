import { describe, expect, it } from 'vitest';
import { planTopology, type TopologyPlan } from '../../../provider/runtime/plan';
import { identityOf } from '../../../provider/topology/rows';

// Issue 25.4: a per-node zone holds every other node's remote ports and routes. They are built once
// per network and shared by every zone (provider/topology/remoteRows.ts), and past HELD_ROWS a zone
// renders its rows when read instead of holding them (provider/runtime/plan.ts). The golden and
// oracle tests hold the rows themselves to upstream's; these hold the sharing to the zones it serves.

const nodes = Array.from({ length: 5 }, (_, i) => `  - {name: node-${i}, chassisId: chassis-${i}}`).join('\n');

const text = `
apiVersion: ovnk/v1alpha1
kind: Inventory
metadata: {name: shared}
spec:
  clusterSubnets: [10.244.0.0/14]
  namespaces:
  - {name: red, labels: {net: red}}
  - {name: blue, labels: {net: blue}}
  nodes:
${nodes}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: red, labels: {joined: 'yes'}}
spec:
  namespaceSelector: {matchLabels: {net: red}}
  network: {topology: Layer3, layer3: {role: Primary, subnets: [{cidr: 10.64.0.0/14, hostSubnet: 26}]}}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterUserDefinedNetwork
metadata: {name: blue, labels: {joined: 'yes'}}
spec:
  namespaceSelector: {matchLabels: {net: blue}}
  network: {topology: Layer2, layer2: {role: Primary, subnets: [10.130.0.0/16]}}
---
apiVersion: k8s.ovn.org/v1
kind: ClusterNetworkConnect
metadata: {name: both}
spec:
  networkSelectors:
  - networkSelectionType: ClusterUserDefinedNetworks
    clusterUserDefinedNetworkSelector: {networkSelector: {matchLabels: {joined: 'yes'}}}
  connectSubnets: [{cidr: 192.168.0.0/16, networkPrefix: 20}]
  connectivity: [PodNetwork]
`;

function planned(options: Parameters<typeof planTopology>[2] = {}): TopologyPlan {
  const result = planTopology(text, undefined, options);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

const remotePorts = (plan: TopologyPlan, zone: string) =>
  plan.zones
    .find((z) => z.name === zone)!
    .rows.filter((r) => (r.columns.options as Record<string, string> | undefined)?.['requested-chassis'] !== undefined)
    .map((r) => r.columns.name as string)
    .sort();

describe('remote rows shared by every zone of a per-node plan', () => {
  it('gives each zone the remote rows of every other node and none of its own', () => {
    const plan = planned();
    expect(plan.zones.map((z) => z.name)).toEqual(['node-0', 'node-1', 'node-2', 'node-3', 'node-4']);
    for (const zone of plan.zones) {
      const names = remotePorts(plan, zone.name);
      // per other node: the red transit-switch port, the blue transit-router port and the connect port
      expect(names).toHaveLength(3 * 4);
      expect(names.some((n) => n.includes(zone.name))).toBe(false);
      for (const other of plan.zones.filter((z) => z !== zone))
        expect(names.filter((n) => n.includes(other.name))).toHaveLength(3);
    }
  });

  it('renders a zone planned alone exactly as the same zone of the whole plan', () => {
    const whole = planned();
    for (const name of ['node-0', 'node-3']) {
      const alone = planned({ zone: name });
      expect(alone.zones.map((z) => z.name)).toEqual([name]);
      expect(alone.zones[0]!.rows).toEqual(whole.zones.find((z) => z.name === name)!.rows);
    }
  });

  it('lists in each parent exactly the children the zone holds', () => {
    const children: Record<string, Record<string, string>> = {
      Logical_Switch: { ports: 'Logical_Switch_Port' },
      Logical_Router: { ports: 'Logical_Router_Port', static_routes: 'Logical_Router_Static_Route' },
    };
    for (const zone of planned().zones) {
      const held = new Set(zone.rows.map((r) => `${r.table}/${identityOf(r)}`));
      const referenced = new Set<string>();
      for (const parent of zone.rows.filter((r) => children[r.table] !== undefined))
        for (const [column, table] of Object.entries(children[parent.table]!))
          for (const id of parent.columns[column] as string[]) referenced.add(`${table}/${id}`);
      const childRows = [...held].filter((k) => /^Logical_(Switch_Port|Router_Port|Router_Static_Route)\//.test(k));
      // every child in a parent's column, and every child held by exactly a parent of the zone
      for (const id of referenced) expect(held).toContain(id);
      expect(childRows.filter((k) => !referenced.has(k))).toEqual(
        // the connect's ports on the networks' routers name those routers as parents instead
        zone.rows
          .filter((r) => r.parents !== undefined)
          .map((r) => `${r.table}/${identityOf(r)}`)
          .filter((k) => childRows.includes(k)),
      );
    }
  });
});

describe('zones that render their rows when read', () => {
  it('read the same rows, counts and notes as zones that hold them', () => {
    const held = planned({ holdRows: true });
    const lazy = planned({ holdRows: false });
    expect(lazy.zones.map((z) => z.name)).toEqual(held.zones.map((z) => z.name));
    lazy.zones.forEach((zone, i) => {
      expect(zone.rows).toEqual(held.zones[i]!.rows);
      expect(zone.rows).toEqual(zone.rows);
      expect(zone.notes).toEqual(held.zones[i]!.notes);
      expect(zone.tableCounts).toEqual(held.zones[i]!.tableCounts);
      const counts = new Map<string, number>();
      for (const row of zone.rows) counts.set(row.table, (counts.get(row.table) ?? 0) + 1);
      expect(zone.tableCounts).toEqual(counts);
    });
  });
});
