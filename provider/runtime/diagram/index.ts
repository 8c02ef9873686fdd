/** `ovnk diagram` and the Cluster component's drawing: graph of a plan, DOT text, SVG and PNG. */
export { type Diagram, diagramOf, type DiagramOptions, plannedRouters } from './graph';
export { diagramDot, dotString } from './dot';
export { dotToSvg, svgToPng } from './render';
export { clusterDiagramDot, type ClusterDiagramObjects } from './cluster';
