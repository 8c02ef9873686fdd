/**
 * Node-config selection (upstream's shared helper): per node, walk the nodeConfigs in order; the
 * first match is the node's config, a second match means overlap (no config). Over many nodes:
 * the selected nodes with their config, and the sorted list of overlapping nodes. Pure.
 */
import { compare } from '../model/cluster';
import { matchesSelector } from '../model/selector';
import type { Uplink, UplinkNodeConfig } from '../model/uplink';

export interface NodeSelection {
  /** The matching config and its index; undefined when none or several match. */
  config?: UplinkNodeConfig;
  index?: number;
  overlapping: boolean;
}

export interface SelectableNode {
  name: string;
  labels: Readonly<Record<string, string>>;
}

export function selectForNode(uplink: Uplink, labels: Readonly<Record<string, string>>): NodeSelection {
  let found: number | undefined;
  for (const [i, config] of uplink.nodeConfigs.entries()) {
    if (!matchesSelector(config.nodeSelector, labels)) continue;
    if (found !== undefined) return { overlapping: true };
    found = i;
  }
  return found === undefined
    ? { overlapping: false }
    : { config: uplink.nodeConfigs[found], index: found, overlapping: false };
}

export interface UplinkSelection {
  /** Node name -> its config, for nodes exactly one config selects. */
  selected: Map<string, UplinkNodeConfig>;
  /** Nodes several configs select, sorted. */
  conflicts: string[];
}

export function selectNodes(uplink: Uplink, nodes: readonly SelectableNode[]): UplinkSelection {
  const selected = new Map<string, UplinkNodeConfig>();
  const conflicts: string[] = [];
  for (const node of [...nodes].sort((a, b) => compare(a.name, b.name))) {
    const choice = selectForNode(uplink, node.labels);
    if (choice.overlapping) conflicts.push(node.name);
    else if (choice.config) selected.set(node.name, choice.config);
  }
  return { selected, conflicts };
}

/** Nodes an Uplink publishes an UplinkState for: selected or overlapping, sorted. */
export function stateNodes(selection: UplinkSelection): string[] {
  return [...selection.selected.keys(), ...selection.conflicts].sort(compare);
}
