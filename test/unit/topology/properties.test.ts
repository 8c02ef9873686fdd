import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assignPodIPs,
  identityOf,
  PER_LAYOUT_COLUMNS,
  renderNetwork,
  renderSharedRows,
  type DesiredRow,
  type NodeInput,
  type RenderInput,
} from '../../../provider/topology';

interface World {
  topology: 'layer3' | 'layer2' | 'localnet';
  /** A localnet network is secondary whatever this says. */
  secondary: boolean;
  dual: boolean;
  local: boolean;
  withGateway: boolean[];
  ids: number[];
  pods: { node: number; name: string }[];
}

const worldArb: fc.Arbitrary<World> = fc.record({
  topology: fc.constantFrom<'layer3' | 'layer2' | 'localnet'>('layer3', 'layer2', 'localnet'),
  secondary: fc.boolean(),
  dual: fc.boolean(),
  local: fc.boolean(),
  ids: fc.uniqueArray(fc.integer({ min: 2, max: 60 }), { minLength: 1, maxLength: 5 }),
  withGateway: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  pods: fc.uniqueArray(fc.record({ node: fc.nat(4), name: fc.constantFrom('p1', 'p2', 'p3', 'web', 'db') }), {
    maxLength: 5,
    selector: (p) => p.name,
  }),
});

function nodesOf(w: World): NodeInput[] {
  return w.ids.map((id, i) => ({
    name: `node-${id}`,
    id,
    chassisId: `chassis-${id}`,
    hostSubnets: { net: w.dual ? [`10.128.${i}.0/24`, `fd00:10:${i}::/64`] : [`10.128.${i}.0/24`] },
    gateway: w.withGateway[i]
      ? {
          bridge: 'breth0',
          mac: `02:00:00:00:00:${(16 + i).toString(16)}`,
          ips: [`172.18.0.${id}/16`, ...(w.dual ? [`fc00::${id}/64`] : [])],
          nextHops: ['172.18.0.1'],
        }
      : undefined,
  }));
}

/** The input of world `w` for the zone of `localNodes` (all nodes: central). */
function inputOf(w: World, localNodes?: string[]): RenderInput {
  const nodes = nodesOf(w);
  const l2 = w.topology !== 'layer3';
  const secondary = w.secondary || w.topology === 'localnet';
  const podList = w.pods.map((p) => ({ ...p, node: nodes[p.node % nodes.length]!.name }));
  const ips = (node: string, i: number): Record<string, string[]> =>
    assignPodIPs({
      pods: podList.filter((p) => l2 || p.node === node).map((p) => ({ namespace: 'ns', name: p.name })),
      subnets: l2 ? (w.dual ? ['10.100.0.0/16', 'fd00:20::/64'] : ['10.100.0.0/16']) : nodes[i]!.hostSubnets!.net!,
    });
  const pods = podList.map((p) => ({
    name: p.name,
    namespace: 'ns',
    node: p.node,
    nadKey: 'ns/net',
    tunnelId: w.topology === 'layer2' ? 5 + w.pods.indexOf(w.pods.find((q) => q.name === p.name)!) : undefined,
    ips: ips(
      p.node,
      nodes.findIndex((n) => n.name === p.node),
    )[`ns/${p.name}`]!,
  }));
  const all = nodes.map((n) => n.name);
  return {
    cluster: {
      ipFamilies: w.dual ? ['ipv4', 'ipv6'] : ['ipv4'],
      masqueradeSubnets: ['169.254.0.0/17', 'fd69::/112'],
      gatewayMode: w.local ? 'local' : 'shared',
    },
    network: {
      name: 'net',
      topology: w.topology,
      role: secondary ? 'secondary' : 'primary',
      id: 3,
      mtu: 1400,
      subnets: l2
        ? w.dual
          ? [{ cidr: '10.100.0.0/16' }, { cidr: 'fd00:20::/64' }]
          : [{ cidr: '10.100.0.0/16' }]
        : [
            { cidr: '10.128.0.0/16', hostSubnetLength: 24 },
            ...(w.dual ? [{ cidr: 'fd00:10::/48', hostSubnetLength: 64 }] : []),
          ],
      joinSubnets: ['100.65.0.0/16', 'fd99::/64'],
      transitSubnets: w.topology === 'layer2' ? ['100.88.0.0/16', 'fd97::/64'] : undefined,
      tunnelKeys: w.topology === 'layer2' ? { switch: 16711686, transitRouter: 16715779 } : undefined,
      nadKeys: ['ns/net'],
    },
    nodes,
    pods,
    zone: localNodes
      ? { name: localNodes[0]!, localNodes, layout: 'per-node' }
      : { name: 'central', localNodes: all, layout: 'central' },
  };
}

function zones(w: World): RenderInput[] {
  return [inputOf(w), ...w.ids.map((id) => inputOf(w, [`node-${id}`]))];
}

const REFERENCE_COLUMNS: Record<string, Record<string, string>> = {
  Logical_Router: {
    ports: 'Logical_Router_Port',
    static_routes: 'Logical_Router_Static_Route',
    policies: 'Logical_Router_Policy',
    nat: 'NAT',
    copp: 'Copp',
    load_balancer_group: 'Load_Balancer_Group',
  },
  Logical_Switch: { ports: 'Logical_Switch_Port', acls: 'ACL', load_balancer_group: 'Load_Balancer_Group' },
  Port_Group: { ports: 'Logical_Switch_Port', acls: 'ACL' },
  Load_Balancer_Group: { load_balancer: 'Load_Balancer' },
  Logical_Router_Port: { gateway_chassis: 'Gateway_Chassis' },
  NAT: { gateway_port: 'Logical_Router_Port' },
  ACL: { meter: 'Meter' },
};

const ids = (rows: DesiredRow[], table: string): Set<string> =>
  new Set(rows.filter((r) => r.table === table).map(identityOf));
const addr = (cidr: string): string => cidr.split('/')[0]!;

describe('rendering properties', () => {
  it('is deterministic and independent of node and pod order', () => {
    fc.assert(
      fc.property(worldArb, (w) => {
        for (const input of zones(w)) {
          const reversed = { ...input, nodes: [...input.nodes].reverse(), pods: [...(input.pods ?? [])].reverse() };
          expect(renderNetwork(reversed)).toEqual(renderNetwork(input));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('gives every row an identity unique within its table', () => {
    fc.assert(
      fc.property(worldArb, (w) => {
        for (const input of zones(w)) {
          const keys = renderNetwork(input).map((r) => `${r.table} ${identityOf(r)}`);
          expect(new Set(keys).size).toBe(keys.length);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('resolves every reference within the rendered set or the shared rows, and every peer to a rendered port', () => {
    const shared = renderSharedRows();
    fc.assert(
      fc.property(worldArb, (w) => {
        for (const input of zones(w)) {
          const rows = [...renderNetwork(input), ...shared];
          for (const r of rows) {
            for (const [column, target] of Object.entries(REFERENCE_COLUMNS[r.table] ?? {})) {
              const value = r.columns[column];
              if (value === undefined) continue;
              for (const id of Array.isArray(value) ? value : [value])
                expect(ids(rows, target).has(id as string), `${r.table}.${column} -> ${id}`).toBe(true);
            }
            if (r.table === 'Logical_Router_Port' && r.columns.peer !== undefined) {
              const peer = rows.find((p) => p.table === 'Logical_Router_Port' && identityOf(p) === r.columns.peer);
              expect(peer?.columns.peer).toBe(r.columns.name);
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('never gives two ports of one router the same address', () => {
    fc.assert(
      fc.property(worldArb, (w) => {
        for (const input of zones(w)) {
          const rows = renderNetwork(input);
          for (const router of rows.filter((r) => r.table === 'Logical_Router')) {
            const ports = (router.columns.ports as string[]).map((id) =>
              rows.find((p) => p.table === 'Logical_Router_Port' && identityOf(p) === id)!,
            );
            const addresses = ports.flatMap((p) => (p.columns.networks as string[]).map(addr));
            expect(new Set(addresses).size).toBe(addresses.length);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('agrees between central and per-node layouts on every row both render, except per-layout and reference columns', () => {
    const isStandIn = (r: DesiredRow): boolean => {
      const e = (r.columns.external_ids ?? {}) as Record<string, string>;
      return r.columns.type === 'remote' || e['k8s.ovn.org/node'] !== undefined || e['ic-node'] !== undefined;
    };
    const comparable = (r: DesiredRow): Record<string, unknown> => {
      const skip = new Set([
        ...(PER_LAYOUT_COLUMNS[r.table] ?? []),
        ...Object.keys(REFERENCE_COLUMNS[r.table] ?? {}).filter((c) => c !== 'copp' && c !== 'meter'),
      ]);
      return Object.fromEntries(Object.entries(r.columns).filter(([c]) => !skip.has(c)));
    };
    fc.assert(
      fc.property(worldArb, (w) => {
        const [central, ...perNode] = zones(w).map(renderNetwork);
        const byId = new Map(central!.map((r) => [`${r.table} ${identityOf(r)}`, r]));
        let shared = 0;
        for (const rows of perNode) {
          for (const r of rows.filter((x) => !isStandIn(x))) {
            const twin = byId.get(`${r.table} ${identityOf(r)}`);
            if (!twin) continue;
            shared += 1;
            expect(comparable(r), `${r.table} ${identityOf(r)}`).toEqual(comparable(twin));
          }
        }
        expect(shared).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });
});
