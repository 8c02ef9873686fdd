/**
 * The diagram's legend: one sample of each kind of node and line the drawing holds, with what it
 * stands for, in a box of its own below the networks. Only the kinds present are listed, so the
 * legend of a plan without Uplinks says nothing of Uplinks.
 */
import type { Diagram, DiagramEdge, DiagramNode } from './graph';

type Sample = DiagramNode['kind'] | 'connect-router';

const nodeMeanings: Record<Sample, string[]> = {
  network: ['network', 'topology, role, subnets', '(/N per node: each node gets a /N)'],
  router: ['router', 'cluster, transit or', 'gateway router (GR <node>)'],
  gateways: ['gateway routers, collapsed', 'count, first .. last node', '(tooltip: every router)'],
  'connect-router': ['connect router', 'connectivity,', 'connect subnets /networkPrefix'],
  connect: ['connect, refused', 'its reasons'],
  uplink: ['Uplink', 'host interfaces, bridges'],
};

/** The lines, as a sample in their color and what they stand for (HTML-like label rows). */
const lineMeanings: Partial<Record<DiagramEdge['kind'], { sample: string; color: string; meaning: string }>> = {
  connect: { sample: '———', color: '#b45309', meaning: "connect link, labelled with the network's slices" },
  uplink: { sample: '– – –', color: '#2563eb', meaning: "Uplink of the network's gateway routers" },
};

/** Which column of the legend a sample sits in: as in the drawing, connects left, gateways right. */
export const legendColumn: Record<Sample, number> = {
  'connect-router': 0,
  connect: 0,
  network: 1,
  router: 1,
  gateways: 2,
  uplink: 2,
};

/** The kind a node is drawn as: a connect router is a router with its own shape. */
export function sampleOf(node: DiagramNode): Sample {
  return node.kind === 'router' && node.lines[1]?.startsWith('connect ') ? 'connect-router' : node.kind;
}

export interface Legend {
  /** One sample node per kind drawn (id `legend:<kind>`), with what it stands for as its lines. */
  nodes: { node: DiagramNode; sample: Sample }[];
  /** Each kind of line drawn: its sample in its color and what it stands for. */
  lines: { sample: string; color: string; meaning: string }[];
}

/** The legend of what `diagram` holds. */
export function legendOf(diagram: Diagram): Legend {
  const drawn = new Set([...diagram.groupNodes, ...diagram.nodes].map(sampleOf));
  const samples = (Object.keys(nodeMeanings) as Sample[]).filter((s) => drawn.has(s));
  const kinds = new Set(diagram.edges.map((e) => e.kind));
  return {
    nodes: samples.map((sample) => ({
      node: {
        id: `legend:${sample}`,
        kind: sample === 'connect-router' ? 'router' : sample,
        lines: nodeMeanings[sample],
      },
      sample,
    })),
    lines: (Object.keys(lineMeanings) as DiagramEdge['kind'][])
      .filter((k) => kinds.has(k))
      .map((k) => lineMeanings[k]!),
  };
}
