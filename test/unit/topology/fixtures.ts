/** Inputs of the reference's worked examples (udn-topology-upstream.md §11) and row lookups. */
import { expect } from 'vitest';
import { identityOf, type DesiredRow, type NodeInput, type RenderInput } from '../../../provider/topology';

/** The one row of `table` with this identity; fails the test when absent. */
export function rowOf(rows: DesiredRow[], table: string, identity: string): Record<string, any> {
  const found = rows.find((r) => r.table === table && identityOf(r) === identity);
  expect(found, `${table} ${identity}`).toBeDefined();
  return found!.columns as Record<string, any>;
}

export function rowsOf(rows: DesiredRow[], table: string): Record<string, any>[] {
  return rows.filter((r) => r.table === table).map((r) => r.columns as Record<string, any>);
}

export function has(rows: DesiredRow[], table: string, identity: string): boolean {
  return rows.some((r) => r.table === table && identityOf(r) === identity);
}

/** Routes of a router as "prefix policy nexthop [output]" lines, sorted. */
export function routeLines(rows: DesiredRow[], router: string): string[] {
  const ids = rowOf(rows, 'Logical_Router', router).static_routes as string[];
  return ids
    .map((id) => {
      const r = rowOf(rows, 'Logical_Router_Static_Route', id);
      return [r.ip_prefix, r.policy ?? 'dst-ip', r.nexthop, r.output_port].filter(Boolean).join(' ');
    })
    .sort();
}

/** Example A: upstream's Layer3 IC test (isolatednet, node test-node id 4). */
export function exampleA(): RenderInput {
  return {
    cluster: { ipFamilies: ['ipv4'], masqueradeSubnets: ['169.254.169.0/24'], gatewayMode: 'shared' },
    network: {
      name: 'isolatednet',
      topology: 'layer3',
      id: 2,
      mtu: 1400,
      subnets: [{ cidr: '192.168.0.0/16', hostSubnetLength: 24 }],
      joinSubnets: ['100.65.0.0/16'],
      nadKeys: ['namespace1/blue-net'],
    },
    nodes: [
      {
        name: 'test-node',
        id: 4,
        chassisId: 'cb9ec8fa-b409-4ef3-9f42-d9283c47aac6',
        hostSubnets: { isolatednet: ['192.168.1.0/24'] },
        // upstream's test annotates the transit-switch address .3 although the node id is 4
        transitSwitchIPs: ['100.88.0.3/16'],
        gateway: {
          bridge: 'breth0',
          mac: '0a:58:c0:a8:7e:ca',
          ips: ['192.168.126.202/24'],
          nextHops: ['192.168.126.1'],
        },
      },
    ],
    zone: { name: 'test-node', localNodes: ['test-node'], layout: 'per-node' },
    pods: [
      {
        name: 'myPod',
        namespace: 'namespace1',
        node: 'test-node',
        nadKey: 'namespace1/blue-net',
        ips: ['192.168.1.3'],
      },
    ],
  };
}

/** Example B: upstream's Layer2 IC test (isolatednet 100.200.0.0/16, node id 4, keys [16711685,16715780]). */
export function exampleB(): RenderInput {
  return {
    cluster: { ipFamilies: ['ipv4'], masqueradeSubnets: ['169.254.169.0/24'], gatewayMode: 'shared' },
    network: {
      name: 'isolatednet',
      topology: 'layer2',
      id: 2,
      mtu: 1400,
      subnets: [{ cidr: '100.200.0.0/16' }],
      joinSubnets: ['100.65.0.0/16'],
      transitSubnets: ['100.88.0.0/16'],
      tunnelKeys: { switch: 16711685, transitRouter: 16715780 },
      nadKeys: ['namespace1/blue-net'],
    },
    nodes: [
      {
        name: 'test-node',
        id: 4,
        chassisId: 'chassis-test',
        gateway: {
          bridge: 'breth0',
          mac: '0a:58:c0:a8:7e:ca',
          ips: ['192.168.126.202/24'],
          nextHops: ['192.168.126.1'],
        },
      },
      { name: 'stale-node', id: 5, chassisId: 'chassis-stale' },
    ],
    zone: { name: 'test-node', localNodes: ['test-node'], layout: 'per-node' },
  };
}

const threeNodes = (subnets: (i: number) => Record<string, string[]>): NodeInput[] =>
  ['node-a', 'node-b', 'node-c'].map((name, i) => ({
    name,
    id: i + 2,
    chassisId: `chassis-${name}`,
    hostSubnets: subnets(i),
    gateway: {
      bridge: 'breth0',
      mac: `02:42:ac:12:00:0${i + 2}`,
      ips: [`172.18.0.${i + 2}/16`],
      nextHops: ['172.18.0.1'],
    },
  }));

/** Example D: CUDN blue, Layer3 10.128.0.0/16 p24, net id 2, three nodes; zone of node-a by default. */
export function exampleD(localNodes = ['node-a'], layout: 'per-node' | 'central' = 'per-node'): RenderInput {
  return {
    cluster: { ipFamilies: ['ipv4'], masqueradeSubnets: ['169.254.0.0/17'], gatewayMode: 'shared' },
    network: {
      name: 'cluster_udn_blue',
      topology: 'layer3',
      id: 2,
      mtu: 1400,
      subnets: [{ cidr: '10.128.0.0/16', hostSubnetLength: 24 }],
      joinSubnets: ['100.65.0.0/16'],
      nadKeys: ['ns1/blue'],
    },
    nodes: threeNodes((i) => ({ cluster_udn_blue: [`10.128.${i}.0/24`] })),
    zone: { name: localNodes.join('+'), localNodes, layout },
  };
}

/** Example E: CUDN green, Layer2 10.100.0.0/16, net id 3, keys [16711686,16715779]. */
export function exampleE(localNodes = ['node-a'], layout: 'per-node' | 'central' = 'per-node'): RenderInput {
  return {
    cluster: { ipFamilies: ['ipv4'], masqueradeSubnets: ['169.254.0.0/17'], gatewayMode: 'shared' },
    network: {
      name: 'cluster_udn_green',
      topology: 'layer2',
      id: 3,
      mtu: 1400,
      subnets: [{ cidr: '10.100.0.0/16' }],
      joinSubnets: ['100.65.0.0/16'],
      transitSubnets: ['100.88.0.0/16'],
      tunnelKeys: { switch: 16711686, transitRouter: 16715779 },
      nadKeys: ['ns1/green'],
    },
    nodes: threeNodes(() => ({})),
    zone: { name: localNodes.join('+'), localNodes, layout },
  };
}
