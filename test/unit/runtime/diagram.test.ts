/**
 * The diagram of a plan, as Graphviz lays it out: the SVG parses as XML, draws every router of
 * the plan (its Logical_Router rows, in every zone) and every network in use exactly once, and
 * draws two networks as connected exactly when a connect joins both (connects are not
 * transitive). Gateway routers beyond three per network collapse into one node that lists them,
 * labelled first .. last in natural order. A legend names each kind drawn. The PNG decodes and
 * has a sensible size (its readability at a pull request's width: test/unit/cli/diagram.test.ts).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  diagramDot,
  diagramOf,
  type DiagramOptions,
  dotToSvg,
  plannedRouters,
  planTopology,
  svgToPng,
  type TopologyPlan,
} from '../../../provider/runtime/cli';
import type { UplinkState } from '../../../provider/uplink/conditions';
import { uplinkState } from '../../support/objects';
import { cnc, namespaceCudn } from '../connect/world';

type Doc = Record<string, any>;

function inventory(nodes: number, zones: 'central' | 'per-node', namespaces: string[], extra: Doc = {}): Doc {
  return {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'pictures' },
    spec: {
      zones,
      ipFamilies: ['IPv4'],
      namespaces: namespaces.map((name) => ({ name })),
      nodes: Array.from({ length: nodes }, (_, i) => ({ name: `node-${i}` })),
      ...extra,
    },
  };
}

const l3 = (name: string, octet: number, labels: Record<string, string>) =>
  namespaceCudn(name, name, [{ cidr: `10.${octet}.0.0/16`, hostSubnet: 24 }], { labels }) as Doc;
const l2 = (name: string, octet: number, labels: Record<string, string>) =>
  namespaceCudn(name, name, [`10.${octet}.0.0/16`], { topology: 'Layer2', labels }) as Doc;
/** A connect selecting CUDNs labelled `<name>: yes`. */
const connect = (name: string, cidr: string) =>
  cnc(name, {
    networkSelectors: [
      {
        networkSelectionType: 'ClusterUserDefinedNetworks',
        clusterUserDefinedNetworkSelector: { networkSelector: { matchLabels: { [name]: 'yes' } } },
      },
    ],
    connectSubnets: [{ cidr, networkPrefix: 24 }],
  }) as Doc;

/** A chain: c1 joins red and blue, c2 blue and yellow (Layer2); grey is joined by none. */
function chain(nodes: number, zones: 'central' | 'per-node' = 'central'): Doc[] {
  return [
    inventory(nodes, zones, ['red', 'blue', 'yellow', 'grey']),
    l3('red', 1, { c1: 'yes' }),
    l3('blue', 2, { c1: 'yes', c2: 'yes' }),
    l2('yellow', 3, { c2: 'yes' }),
    l3('grey', 4, {}),
    connect('c1', '192.168.0.0/16'),
    connect('c2', '192.169.0.0/16'),
  ];
}

function planOf(documents: Doc[], uplinkStates: UplinkState[] = []): TopologyPlan {
  const result = planTopology(JSON.stringify(documents), undefined, { uplinkStates });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  expect(result.plan.problems).toEqual([]);
  return result.plan;
}

interface Drawn {
  /** Graphviz node id -> class and tooltip. */
  nodes: Map<string, { kind: string; tooltip?: string }>;
  edges: [string, string][];
}

/** Nodes and edges of Graphviz's SVG, read with an XML parser (ids, classes, titles). */
function drawnOf(svg: string): Drawn {
  expect(XMLValidator.validate(svg)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    htmlEntities: true,
    isArray: (name) => name === 'g',
  });
  const root = parser.parse(svg).svg;
  const groups: any[] = [];
  const walk = (g: any) => {
    groups.push(g);
    for (const child of g.g ?? []) walk(child);
  };
  for (const g of root.g) walk(g);
  const nodes = new Map<string, { kind: string; tooltip?: string }>();
  const edges: [string, string][] = [];
  for (const g of groups) {
    const classes = String(g.class ?? '').split(' ');
    if (classes[0] === 'node') {
      expect(nodes.has(g.id), `node ${g.id} drawn twice`).toBe(false);
      const tooltip = g.g?.[0]?.a?.['xlink:title'];
      nodes.set(g.id, { kind: classes[1] ?? '', ...(tooltip ? { tooltip } : {}) });
    }
    if (classes[0] === 'edge') {
      const [from, to] = String(g.title).split('->');
      edges.push([from!, to!]);
    }
  }
  return { nodes, edges };
}

async function drawn(plan: TopologyPlan, options: DiagramOptions = {}): Promise<Drawn> {
  return drawnOf(await dotToSvg(diagramDot(diagramOf(plan, options))));
}

/** Every router the drawing names: its own node, or a member of a collapsed one. */
function routersDrawn(d: Drawn): string[] {
  return [...d.nodes].flatMap(([id, n]) =>
    id.startsWith('router:')
      ? [id.slice('router:'.length)]
      : id.startsWith('gateways:')
        ? String(n.tooltip).split('\n')
        : [],
  );
}

/** Network pairs the drawing connects: a connect router's edge reaches each network's router. */
function connectedPairs(d: Drawn): Set<string> {
  const neighbours = (id: string) => d.edges.flatMap(([a, b]) => (a === id ? [b] : b === id ? [a] : []));
  const networkOf = (id: string) =>
    id.startsWith('network:') ? [id] : neighbours(id).filter((n) => n.startsWith('network:'));
  const pairs = new Set<string>();
  for (const [id, n] of d.nodes) {
    if (n.kind !== 'connect-router' && n.kind !== 'connect') continue;
    const joined = neighbours(id).flatMap(networkOf).sort();
    for (const a of joined) for (const b of joined) if (a < b) pairs.add(`${a} ${b}`);
  }
  return pairs;
}

describe('the diagram of a plan', () => {
  for (const zones of ['central', 'per-node'] as const)
    it(`draws every router of the plan's rows and every network exactly once (${zones} zones)`, async () => {
      const plan = planOf(chain(3, zones));
      const d = await drawn(plan);
      const routers = plannedRouters(plan).map((r) => r.name);
      // Layer3: cluster router and 3 GRs; Layer2: transit router and 3 GRs; 2 connects
      expect(routers.length).toBe(3 * 4 + 4 + 2);
      expect(routersDrawn(d).sort()).toEqual([...routers].sort());
      const networks = [...d.nodes.keys()].filter((id) => id.startsWith('network:')).sort();
      expect(networks).toEqual(plan.cluster.networks.map((n) => `network:${n.name}`).sort());
    });

  it('draws two networks as connected exactly when a connect joins both, and the unconnected one apart', async () => {
    const plan = planOf(chain(2));
    const d = await drawn(plan);
    expect(connectedPairs(d)).toEqual(
      new Set([
        'network:cluster_udn_blue network:cluster_udn_red',
        'network:cluster_udn_blue network:cluster_udn_yellow',
      ]),
    );
    const dot = diagramDot(diagramOf(plan));
    const apart = dot.slice(dot.indexOf('subgraph "cluster_unconnected"'));
    expect(apart).toContain('"network:cluster_udn_grey"');
    expect(apart.slice(0, apart.indexOf('\n  }'))).not.toContain('"network:cluster_udn_red"');
  });

  it('labels each connect edge with the slices the connect gave that network', async () => {
    const plan = planOf(chain(2));
    const dot = diagramDot(diagramOf(plan));
    const slices = plan.allocation.connects.c1!.networks;
    for (const a of Object.values(slices)) expect(dot).toContain(String(a.subnets.ipv4));
    expect(dot).toContain('PodNetwork');
  });

  it('collapses the gateway routers of a network beyond three nodes into one node listing them all', async () => {
    const plan = planOf(chain(6));
    const d = await drawn(plan);
    const collapsed = [...d.nodes].filter(([id]) => id.startsWith('gateways:'));
    expect(collapsed).toHaveLength(4);
    expect(String(collapsed[0]![1].tooltip).split('\n')).toHaveLength(6);
    expect(routersDrawn(d).sort()).toEqual(
      plannedRouters(plan)
        .map((r) => r.name)
        .sort(),
    );
  });

  it('labels collapsed gateway routers with their first and last node in natural order (node-0 .. node-10)', () => {
    const diagram = diagramOf(planOf(chain(11)));
    const collapsed = diagram.groupNodes.filter((n) => n.kind === 'gateways');
    expect(collapsed).toHaveLength(4);
    for (const node of collapsed) {
      expect(node.lines).toEqual(['11 gateway routers', 'GR node-0 .. node-10']);
      expect(node.members!.map((m) => m.slice(m.lastIndexOf('_') + 1))).toEqual(
        Array.from({ length: 11 }, (_, i) => `node-${i}`),
      );
    }
  });

  it('draws a legend of each kind of node and line the picture holds, and of no other', async () => {
    const legendOf = (d: Drawn) =>
      [...d.nodes]
        .filter(([, n]) => n.kind === 'legend')
        .map(([id]) => id)
        .sort();
    const connected = planOf(chain(6));
    expect(legendOf(await drawn(connected))).toEqual([
      'legend:connect-router',
      'legend:gateways',
      'legend:lines',
      'legend:network',
      'legend:router',
    ]);
    const dot = diagramDot(diagramOf(connected));
    expect(dot).toContain("connect link, labelled with the network's slices");
    expect(dot).not.toContain('Uplink');
    const uplink = {
      apiVersion: 'k8s.ovn.org/v1alpha1',
      kind: 'Uplink',
      metadata: { name: 'br-blue' },
      spec: { nodeConfigs: [{ type: 'OVSBridge', nodeSelector: {}, hostInterfaceName: 'blue0' }] },
    };
    const blue = l2('blue', 2, {});
    blue.spec.uplinks = ['br-blue'];
    const alone = planOf([inventory(2, 'central', ['blue']), blue, uplink]);
    expect(legendOf(await drawn(alone))).toEqual(['legend:lines', 'legend:network', 'legend:router', 'legend:uplink']);
    expect(diagramDot(diagramOf(alone))).toContain("Uplink of the network's gateway routers");
    expect(diagramDot(diagramOf(alone))).not.toContain('connect link');
  });

  it('with a connect named, draws only that connect and the networks it joins', async () => {
    const d = await drawn(planOf(chain(2)), { connect: 'c2' });
    const networks = [...d.nodes.keys()].filter((id) => id.startsWith('network:')).sort();
    expect(networks).toEqual(['network:cluster_udn_blue', 'network:cluster_udn_yellow']);
    expect([...d.nodes.keys()].filter((id) => id.includes('connect_router'))).toEqual(['router:connect_router_c2']);
  });

  it("draws each Uplink a CUDN names, linked from that network's gateway routers", async () => {
    const uplink = {
      apiVersion: 'k8s.ovn.org/v1alpha1',
      kind: 'Uplink',
      metadata: { name: 'br-blue' },
      spec: { nodeConfigs: [{ type: 'OVSBridge', nodeSelector: {}, hostInterfaceName: 'blue0' }] },
    };
    const blue = l2('blue', 2, {});
    blue.spec.uplinks = ['br-blue'];
    // resolved states: a node waiting for its UplinkState has no gateway router to link
    const resolved = (node: string) =>
      uplinkState('br-blue', node, {
        hostInterfaceName: 'br-blue',
        macAddress: '02:42:ac:12:00:02',
        ipAddresses: ['192.0.2.10/24'],
        defaultGateways: ['192.0.2.1'],
        conditions: [{ type: 'Resolved', status: 'True', reason: 'Resolved', message: '' }],
      });
    const plan = planOf([inventory(2, 'central', ['blue']), blue, uplink], [resolved('node-0'), resolved('node-1')]);
    const d = await drawn(plan, { bridges: { 'br-blue': { 'node-0': 'br-blue' } } });
    expect(d.nodes.get('uplink:br-blue')?.kind).toBe('uplink');
    const into = d.edges.filter(([, to]) => to === 'uplink:br-blue').map(([from]) => from);
    expect(into.sort()).toEqual(['router:GR_cluster_udn_blue_node-0', 'router:GR_cluster_udn_blue_node-1']);
    expect(diagramDot(diagramOf(plan))).toContain('host interface blue0');
    // the bridge each node resolved the Uplink to (plan --lab asks the nodes), shown when known
    expect(diagramDot(diagramOf(plan, { bridges: { 'br-blue': { 'node-0': 'br-blue' } } }))).toContain(
      'bridge br-blue',
    );
    expect(diagramDot(diagramOf(plan))).not.toContain('bridge br-blue');
  });

  it('draws a refused connect as the connect object, marked refused with its reason, joining nothing', async () => {
    const documents = chain(2).map((d) => (d.metadata?.name === 'c2' ? connect('c2', '10.2.0.0/16') : d)); // blue's own subnet
    const result = planTopology(JSON.stringify(documents));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.plan.problems.map((p) => p.reason)).toContain('ConnectSubnetConflict');
    const d = await drawn(result.plan);
    expect(d.nodes.get('connect:c2')?.kind).toBe('connect');
    expect(d.edges.filter(([a, b]) => a === 'connect:c2' || b === 'connect:c2')).toEqual([]);
    expect(diagramDot(diagramOf(result.plan))).toMatch(
      /"connect:c2" \[[^\n]*REFUSED\\nPodNetwork[^\n]*ConnectSubnetConflict/,
    );
  });

  it('renders a PNG that decodes, of a sensible size, not blank', async () => {
    const png = PNG.sync.read(await svgToPng(await dotToSvg(diagramDot(diagramOf(planOf(chain(3)))))));
    expect(png.width).toBeGreaterThan(400);
    expect(png.width).toBeLessThan(10_000);
    expect(png.height).toBeGreaterThan(200);
    expect(png.height).toBeLessThan(10_000);
    let dark = 0;
    for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! < 100) dark++;
    expect(dark).toBeGreaterThan(1000);
  });

  it('writes names that need quoting as DOT strings Graphviz reads back', async () => {
    const plan = planOf(chain(2));
    const graph = diagramOf(plan);
    graph.title = 'a "quoted" \\ title';
    const svg = await dotToSvg(diagramDot(graph));
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('a &quot;quoted&quot; \\ title');
  });
});
