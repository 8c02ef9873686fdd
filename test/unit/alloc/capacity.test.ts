/**
 * The capacity forecast against the planner itself: each topology grows node by node (and network
 * by network) through runtime's planTopology, every step planned against the previous step's
 * state as apply would, until the planner refuses. The forecast made before growing must say
 * exactly how many more fit and which reasons and objects the refusal names.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  capacityOf,
  type Growth,
  planTopology,
  type RuntimeState,
  type TopologyPlan,
} from '../../../provider/runtime/cli';
import { cnc, namespaceCudn } from '../connect/world';

type Doc = Record<string, any>;

interface Topology {
  nodes: number;
  documents: Doc[];
  ipFamilies?: string[];
  /** The Inventory's spec to grow (a fixture's); else one made for the networks. */
  inventory?: Doc;
}

/** Networks the connect selects carry `connect: yes`; each serves a namespace of its own name. */
function l3(name: string, cidrs: string[], hostSubnet: number[], labels = { connect: 'yes' }): Doc {
  return namespaceCudn(
    name,
    name,
    cidrs.map((cidr, i) => ({ cidr, hostSubnet: hostSubnet[i] })),
    { labels },
  ) as Doc;
}

function l2(name: string, cidrs: string[], labels = { connect: 'yes' }): Doc {
  return namespaceCudn(name, name, cidrs, { topology: 'Layer2', labels }) as Doc;
}

function documentsOf(topology: Topology, extraNodes: number, extraNetworks: Doc[]): Doc[] {
  const networks = topology.documents.filter((d) => d.kind === 'ClusterUserDefinedNetwork');
  const nodes = Array.from({ length: topology.nodes + extraNodes }, (_, i) => ({
    name: i < topology.nodes ? `node-${i}` : `grown-${String(i).padStart(5, '0')}`,
  }));
  const made = {
    zones: 'central',
    ipFamilies: topology.ipFamilies ?? ['IPv4'],
    namespaces: networks.map((n) => ({ name: n.metadata.name })),
  };
  const base = topology.inventory ?? made;
  const namespaces = [...(base.namespaces ?? []), ...extraNetworks.map((n) => ({ name: n.metadata.name }))];
  const inventory = {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: 'grow' },
    spec: { ...base, namespaces, nodes },
  };
  return [inventory, ...topology.documents, ...extraNetworks];
}

function planOf(documents: Doc[], previous?: RuntimeState): TopologyPlan {
  const result = planTopology(JSON.stringify(documents), previous);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

const refusals = (plan: TopologyPlan) => new Set(plan.problems.map((p) => `${p.reason} ${p.object}`));
const named = (growth: Growth, newObject: string) =>
  new Set(growth.limits.map((l) => `${l.reason} ${l.ref ?? newObject}`));

/**
 * Walk a few steps one at a time, then (for long runs) jump to the forecast's count: all accepted;
 * one more is refused.
 */
function grow(
  topology: Topology,
  step: (n: number) => { nodes: number; networks: Doc[] },
  growth: Growth,
  newObject: (n: number) => string,
): void {
  let previous = planOf(documentsOf(topology, 0, [])).state;
  const walked = Math.min(growth.more, 20);
  for (let n = 1; n <= walked; n++) {
    const at = step(n);
    const plan = planOf(documentsOf(topology, at.nodes, at.networks), previous);
    expect(plan.problems, `step ${n} of ${growth.more}`).toEqual([]);
    previous = plan.state;
  }
  if (growth.more > walked) {
    const at = step(growth.more);
    const plan = planOf(documentsOf(topology, at.nodes, at.networks), previous);
    expect(plan.problems, `all ${growth.more} at once`).toEqual([]);
    previous = plan.state;
  }
  const at = step(growth.more + 1);
  const refused = planOf(documentsOf(topology, at.nodes, at.networks), previous);
  expect(refused.problems.length).toBeGreaterThan(0);
  expect(refusals(refused)).toEqual(named(growth, newObject(growth.more + 1)));
}

function forecastOf(topology: Topology) {
  const plan = planOf(documentsOf(topology, 0, []));
  expect(plan.problems).toEqual([]);
  return capacityOf(plan);
}

const growNodes = (topology: Topology) => {
  const forecast = forecastOf(topology);
  grow(
    topology,
    (n) => ({ nodes: n, networks: [] }),
    forecast.growth.nodes,
    () => 'Inventory',
  );
  return forecast.growth.nodes;
};

/** New networks made by `make(i)`, selected by the same connect as the topology's. */
const growNetworks = (topology: Topology, growth: Growth, make: (i: number) => Doc) =>
  grow(
    topology,
    (n) => ({ nodes: 0, networks: Array.from({ length: n }, (_, i) => make(i + 1)) }),
    growth,
    (n) => `ClusterUserDefinedNetwork/${make(n).metadata.name}`,
  );

const connect = (subnets: { cidr: string; networkPrefix: number }[], annotations?: Record<string, string>) =>
  cnc('c', { connectSubnets: subnets }, annotations) as Doc;

describe('growing by nodes', () => {
  it('stops where a Layer3 network runs out of host subnets: a /22 split into /24s takes 4 nodes', () => {
    const topology = {
      nodes: 2,
      documents: [
        l3('blue', ['10.10.0.0/22'], [24]),
        l3('green', ['10.20.0.0/16'], [24]),
        connect([{ cidr: '192.168.0.0/16', networkPrefix: 24 }]),
      ],
    };
    const growth = growNodes(topology);
    expect(growth.more).toBe(2);
    expect(growth.limits.map((l) => l.reason)).toEqual(['HostSubnetsExhausted']);
  });

  it('stops where the connect slices hold no more /31 pairs: a /28 slice takes node ids 2..7', () => {
    const topology = {
      nodes: 2,
      documents: [
        l3('blue', ['10.10.0.0/16'], [24]),
        l3('green', ['10.20.0.0/16'], [24]),
        connect([{ cidr: '192.168.0.0/24', networkPrefix: 28 }]),
      ],
    };
    const growth = growNodes(topology);
    expect(growth.more).toBe(4);
    expect(growth.limits.map((l) => `${l.reason} ${l.ref}`)).toEqual([
      'ConnectSubnetExhausted ClusterNetworkConnect/c',
    ]);
  });

  it("stops where a Layer3 slice's port key would pass OVN's 32,767: slice 6 of 10.0.0.0/16 p19 (maxNodes 5000) takes ids up to 2766", () => {
    const slice6 = '{"layer3_1":{"ipv4":"10.0.192.0/19"}}';
    const topology = {
      nodes: 2,
      documents: [
        l3('blue', ['10.10.0.0/16'], [28]),
        l3('green', ['10.20.0.0/16'], [28]),
        connect([{ cidr: '10.0.0.0/16', networkPrefix: 19 }], { 'k8s.ovn.org/network-connect-subnet': slice6 }),
      ],
    };
    const growth = growNodes(topology);
    expect(growth.more).toBe(2765 - 2);
    expect(growth.limits[0]!.message).toContain('port key 32768');
  }, 180_000);

  it('stops at the same count for several limits at once and names each (dual-stack host subnets of two networks)', () => {
    const topology = {
      nodes: 3,
      ipFamilies: ['IPv4', 'IPv6'],
      documents: [
        l3('blue', ['10.10.0.0/16', 'fd00:10::/60'], [24, 64]),
        l3('green', ['10.20.0.0/16', 'fd00:20::/60'], [24, 64]),
      ],
    };
    const growth = growNodes(topology);
    expect(growth.more).toBe(13);
    expect(growth.limits.map((l) => l.ref)).toEqual([
      'ClusterUserDefinedNetwork/blue',
      'ClusterUserDefinedNetwork/green',
    ]);
  });
});

describe('growing by networks', () => {
  const small = {
    nodes: 2,
    documents: [
      l3('blue', ['10.10.0.0/16'], [24]),
      l2('yellow', ['10.30.0.0/16']),
      connect([{ cidr: '192.168.0.0/24', networkPrefix: 28 }]),
    ],
  };

  it('Layer3: stops when the connect has no free slice (16 /28 slices, one held by blue, one by a Layer2 block)', () => {
    const forecast = forecastOf(small);
    const limit = forecast.connects[0]!.moreLayer3Networks;
    expect(limit.more).toBe(14);
    growNetworks(small, { more: limit.more, limits: [limit] }, (i) => l3(`new${i}`, [`10.${100 + i}.0.0/16`], [24]));
  });

  it('Layer2: fills the borrowed block, borrows the free slices block by block, then stops (7 + 14 x 8 /31s)', () => {
    const forecast = forecastOf(small);
    const limit = forecast.connects[0]!.moreLayer2Networks;
    expect(limit.more).toBe(7 + 14 * 8);
    expect(forecast.connects[0]!.layer2Blocks).toEqual([{ block: '192.168.0.16/28', size: 8, used: 1, free: 7 }]);
    growNetworks(small, { more: limit.more, limits: [limit] }, (i) => l2(`new${i}`, [`20.${i}.0.0/16`]));
  }, 180_000);

  it("Layer3: stops at the first slice whose port key passes OVN's 32,767 (index 128 of 192.168.0.0/16 p24)", () => {
    const topology = {
      nodes: 3,
      documents: [
        l3('blue', ['10.10.0.0/16'], [24]),
        l3('green', ['10.20.0.0/16'], [24]),
        connect([{ cidr: '192.168.0.0/16', networkPrefix: 24 }]),
      ],
    };
    const forecast = forecastOf(topology);
    const limit = forecast.connects[0]!.moreLayer3Networks;
    expect(limit.more).toBe(126);
    expect(limit.message).toContain('exceeds');
    growNetworks(topology, { more: limit.more, limits: [limit] }, (i) =>
      l3(`new${i}`, [`${11 + Math.floor(i / 200)}.${i % 200}.0.0/16`], [24]),
    );
  }, 180_000);

  it('the first limit of the cluster is the smallest of every scope', () => {
    const forecast = forecastOf(small);
    expect(forecast.growth.networks.more).toBe(14);
    expect(forecast.growth.networks.limits).toEqual([forecast.connects[0]!.moreLayer3Networks]);
    expect(forecast.ranges.networkIds).toEqual({ first: 1, last: 4095, used: 2, free: 4093 });
  });
});

describe("the OKEP's colored-enterprise", () => {
  const documents = parseAllDocuments(
    readFileSync(join(__dirname, '..', '..', 'fixtures', 'colored-enterprise.yaml'), 'utf8'),
  ).map((d) => d.toJS() as Doc);
  const inventory = documents.find((d) => d.kind === 'Inventory')!;
  const topology = {
    nodes: inventory.spec.nodes.length,
    inventory: inventory.spec,
    documents: documents.filter((d) => d.kind !== 'Inventory'),
  };

  it('grows by 13 nodes: the /60s of blue and green hold sixteen /64 host subnets each', () => {
    const growth = growNodes(topology);
    expect(growth.more).toBe(13);
    expect(growth.limits.map((l) => l.ref)).toEqual([
      'ClusterUserDefinedNetwork/blue-network',
      'ClusterUserDefinedNetwork/green-network',
    ]);
  }, 180_000);

  it('grows by 125 Layer3 networks: the slice at index 128 of 192.168.0.0/16 p24 passes port key 32,767', () => {
    const forecast = forecastOf(topology);
    expect(forecast.growth.networks.more).toBe(125);
    const limit = forecast.growth.networks.limits[0]!;
    const coloredL3 = (i: number) => {
      const network = namespaceCudn(
        `new${i}`,
        `new${i}`,
        [{ cidr: `${11 + Math.floor(i / 200)}.${i % 200}.0.0/16`, hostSubnet: 24 }],
        {
          labels: { enterprise: 'colored' },
        },
      ) as Doc;
      return network;
    };
    growNetworks(topology, { more: limit.more, limits: [limit] }, coloredL3);
  }, 180_000);
});
