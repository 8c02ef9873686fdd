/**
 * A Diagram (graph.ts) as Graphviz DOT text: each network a colored box (a `cluster` subgraph)
 * holding its routers, networks no connect joins inside one grey dashed box of their own, connect
 * routers and Uplinks between them. Every node carries its diagram id as its Graphviz `id` and its
 * kind as `class`, so the SVG names what it draws; a collapsed node lists its routers as tooltip.
 * Graphviz does the layout (render.ts); nothing here places anything.
 */
import type { Diagram, DiagramEdge, DiagramGroup, DiagramNode } from './graph';

/** A DOT double-quoted string: backslashes and quotes escaped, newlines as `\n`. */
export function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

const palette = ['#dbeafe', '#dcfce7', '#fef9c3', '#fce7f3', '#ede9fe', '#ffedd5', '#cffafe', '#e0e7ff'];

const shapes: Record<DiagramNode['kind'], string> = {
  network: 'box, style="rounded,filled", fillcolor=white',
  router: 'ellipse, style=filled, fillcolor=white',
  gateways: 'box3d, style=filled, fillcolor=white',
  connect: 'octagon, style=filled, fillcolor="#fee2e2"',
  uplink: 'cylinder, style=filled, fillcolor="#f3f4f6"',
};

function nodeLine(node: DiagramNode): string {
  const connectRouter = node.kind === 'router' && node.lines[1]?.startsWith('connect ');
  const shape = connectRouter ? 'doubleoctagon, style=filled, fillcolor="#fde68a"' : shapes[node.kind];
  const attrs = [
    `id=${dotString(node.id)}`,
    `class=${dotString(connectRouter ? 'connect-router' : node.kind)}`,
    `label=${dotString(node.lines.join('\n'))}`,
    `shape=${shape}`,
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

function edgeLine(edge: DiagramEdge): string {
  const label = edge.label ? `, label=${dotString(edge.label)}` : '';
  return `${dotString(edge.from)} -> ${dotString(edge.to)} [${edgeStyles[edge.kind]}${label}];`;
}

function groupLines(group: DiagramGroup, index: number, nodes: Map<string, DiagramNode>, indent: string): string[] {
  return [
    `${indent}subgraph ${dotString(`cluster_${group.id}`)} {`,
    `${indent}  label=${dotString(group.label)}; style="rounded,filled"; fillcolor=${dotString(palette[index % palette.length]!)}; color="#9ca3af";`,
    ...group.nodes.map((id) => `${indent}  ${nodeLine(nodes.get(id)!)}`),
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
    `  graph [label=${dotString(`ovnk: ${diagram.title}`)}, labelloc=t, fontname="DejaVu Sans", rankdir=TB, compound=true, newrank=true, nodesep=0.4, ranksep=0.7];`,
    `  node [fontname="DejaVu Sans", fontsize=11];`,
    `  edge [fontname="DejaVu Sans", fontsize=10];`,
    ...diagram.connected.flatMap((g) => groupLines(g, colorOf(g), nodes, '  ')),
    ...apart,
    ...diagram.nodes.map((n) => `  ${nodeLine(n)}`),
    ...diagram.edges.map((e) => `  ${edgeLine(e)}`),
    '}',
    '',
  ].join('\n');
}
