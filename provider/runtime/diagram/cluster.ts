/**
 * The Cluster component's drawing: its objects planned with the allocation state its
 * ClusterAllocations resource keeps (what preview shows), drawn as DOT exactly as
 * `ovnk diagram -o dot` draws a file of the same objects. Pure: no I/O, no Graphviz.
 */
import { planTopology } from '../plan';
import { parseState } from '../state';
import { diagramDot } from './dot';
import { diagramOf } from './graph';

export interface ClusterDiagramObjects {
  inventory: unknown;
  networks?: unknown[];
  connects?: unknown[];
  uplinks?: unknown[];
}

/** The DOT text; undefined when the objects do not plan (ClusterAllocations' check names why). */
export function clusterDiagramDot(objects: ClusterDiagramObjects, state: unknown): string | undefined {
  const previous = state === undefined || state === null ? undefined : parseState(JSON.stringify(state), 'state');
  const { inventory, networks = [], connects = [], uplinks = [] } = objects;
  const documents = [inventory, ...networks, ...connects, ...uplinks];
  const result = planTopology({ objects: documents }, previous);
  return result.ok ? diagramDot(diagramOf(result.plan)) : undefined;
}
