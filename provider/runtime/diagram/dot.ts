/**
 * A Diagram (graph.ts) as Graphviz DOT text, laid out to be read at a pull request's width: left
 * to right, so each network is one row (a colored `cluster` box: the network and its own router
 * in one column, its gateway routers in the next), the networks a connect joins stacked beside
 * their connect router, networks no connect joins inside one grey dashed box of their own, and a
 * legend (legend.ts) below. Every node carries its diagram id as its Graphviz `id` and its kind
 * as `class`, so the SVG names what it draws; a collapsed node lists its routers as tooltip.
 * Graphviz does the layout (render.ts); nothing here places anything.
 */
import type { Diagram, DiagramEdge, DiagramGroup, DiagramNode } from './graph';
import { legendColumn, legendOf, sampleOf } from './legend';

/** A DOT double-quoted string: backslashes and quotes escaped, newlines as `\n`. */
export function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

const palette = ['#dbeafe', '#dcfce7', '#fef9c3', '#fce7f3', '#ede9fe', '#ffedd5', '#cffafe', '#e0e7ff'];

const shapes: Record<ReturnType<typeof sampleOf>, string> = {
  network: 'box, style="rounded,filled", fillcolor=white',
  router: 'ellipse, style=filled, fillcolor=white',
  gateways: 'box3d, style=filled, fillcolor=white',
  connect: 'octagon, style="filled,dashed", color="#dc2626", fillcolor="#fee2e2"',
  'connect-router': 'doubleoctagon, style=filled, fillcolor="#fde68a"',
  uplink: 'cylinder, style=filled, fillcolor="#f3f4f6"',
};

function nodeLine(node: DiagramNode, sample = sampleOf(node)): string {
  const attrs = [
    `id=${dotString(node.id)}`,
    `class=${dotString(node.id.startsWith('legend:') ? 'legend' : sample)}`,
    `label=${dotString(node.lines.join('\n'))}`,
    `shape=${shapes[sample]}`,
    ...(node.members ? [`tooltip=${dotString(node.members.join('\n'))}`] : []),
    ...(node.refused ? ['color="#dc2626"', 'style="filled,dashed"', 'fillcolor="#fee2e2"'] : []),
  ];
  return `${dotString(node.id)} [${attrs.join(', ')}];`;
}

const edgeStyles: Record<DiagramEdge['kind'], string> = {
  attach: 'dir=none, color="#374151"',
  join: 'dir=none, color="#6b7280"',
  connect: 'dir=none, penwidth=2, color="#b45309", fontcolor="#b45309"',
  uplink: 'style=dashed, color="#2563eb", arrowhead=none',
};

/** An edge; a network's line to its router runs from the router, which puts the network above it. */
function edgeLine(edge: DiagramEdge): string {
  const label = edge.label ? `, label=${dotString(edge.label)}` : '';
  const [from, to] = edge.kind === 'attach' ? [edge.to, edge.from] : [edge.from, edge.to];
  return `${dotString(from)} -> ${dotString(to)} [${edgeStyles[edge.kind]}${label}];`;
}

/**
 * The network and its own router first, then its gateway routers reversed: Graphviz's left-to-right
 * layout stacks a column bottom-up in the order given, so they read top-down in natural order.
 */
function drawOrder(group: DiagramGroup): string[] {
  const lead = (id: string) => id === group.id || id === group.hub;
  return [...group.nodes.filter(lead), ...group.nodes.filter((id) => !lead(id)).reverse()];
}

function groupLines(group: DiagramGroup, index: number, nodes: Map<string, DiagramNode>, indent: string): string[] {
  return [
    `${indent}subgraph ${dotString(`cluster_${group.id}`)} {`,
    `${indent}  label=${dotString(group.label)}; style="rounded,filled"; fillcolor=${dotString(palette[index % palette.length]!)}; color="#9ca3af";`,
    ...drawOrder(group).map((id) => `${indent}  ${nodeLine(nodes.get(id)!)}`),
    ...(group.hub ? [`${indent}  { rank=same; ${dotString(group.id)}; ${dotString(group.hub)}; }`] : []),
    `${indent}}`,
  ];
}

export function diagramDot(diagram: Diagram): string {
  const nodes = new Map(diagram.groupNodes.map((n) => [n.id, n]));
  const groups = [...diagram.connected, ...diagram.unconnected];
  const colorOf = (g: DiagramGroup) => groups.indexOf(g);
  const apart =
    diagram.unconnected.length === 0
      ? []
      : [
          `  subgraph "cluster_unconnected" {`,
          `    label="not connected"; style="dashed"; color="#6b7280"; fontcolor="#6b7280";`,
          ...diagram.unconnected.flatMap((g) => groupLines(g, colorOf(g), nodes, '    ')),
          `  }`,
        ];
  return [
    `digraph ${dotString(diagram.title)} {`,
    `  graph [label=${dotString(`ovnk: ${diagram.title}`)}, labelloc=t, fontname="DejaVu Sans", rankdir=LR, compound=true, newrank=true, nodesep=0.3, ranksep=0.8];`,
    `  node [fontname="DejaVu Sans", fontsize=11];`,
    `  edge [fontname="DejaVu Sans", fontsize=10];`,
    // first in the text, last in Graphviz's order of a column: the legend lands below the networks
    ...legendLines(diagram),
    ...diagram.connected.flatMap((g) => groupLines(g, colorOf(g), nodes, '  ')),
    ...apart,
    ...diagram.nodes.map((n) => `  ${nodeLine(n)}`),
    ...diagram.edges.map((e) => `  ${edgeLine(e)}`),
    '}',
    '',
  ].join('\n');
}

/** The legend's box, in the drawing's three columns: samples of each kind drawn, then the lines. */
function legendLines(diagram: Diagram): string[] {
  const legend = legendOf(diagram);
  const columns = [0, 1, 2].map((c) => legend.nodes.filter((n) => legendColumn[n.sample] === c).map((n) => n.node.id));
  if (legend.lines.length > 0) columns[0]!.push('legend:lines');
  const rows = legend.lines.map(
    (l) => `<TR><TD ALIGN="LEFT"><FONT COLOR="${l.color}"><B>${l.sample}</B></FONT> ${htmlText(l.meaning)}</TD></TR>`,
  );
  const heads = columns.filter((c) => c.length > 0).map((c) => dotString(c[0]!));
  return [
    `  subgraph "cluster_legend" {`,
    `    label="legend"; style="rounded"; color="#9ca3af"; fontcolor="#4b5563"; node [fontsize=10];`,
    ...legend.nodes.map((n) => `    ${nodeLine(n.node, n.sample)}`),
    ...(rows.length > 0
      ? [
          `    "legend:lines" [id="legend:lines", class="legend", shape=plaintext, label=<<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1">${rows.join('')}</TABLE>>];`,
        ]
      : []),
    ...columns.filter((c) => c.length > 1).map((c) => `    { rank=same; ${c.map(dotString).join('; ')}; }`),
    ...(heads.length > 1 ? [`    ${heads.join(' -> ')} [style=invis];`] : []),
    `  }`,
  ];
}

/** Text inside an HTML-like label: &, < and > escaped. */
function htmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
