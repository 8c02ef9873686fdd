/**
 * The Pulumi side of the plan's Uplink gateway warnings (runtime/warnings.ts): a CUDN component
 * with Uplinks says, once its Uplinks' UplinkStates are known, on which nodes its gateway is not
 * rendered and why in upstream's words. Nodes: the Inventory's, less those whose
 * `spec.nodes[].networks` leave the CUDN out (Dynamic UDN; a node without the list has every
 * network, as the planner has it: model/active.ts). While the states are unknown (a
 * preview before the UplinkState resources exist) nothing is said and nothing is rendered: the
 * rows resources render only at create and update, with the states known.
 */
import { listedActive } from '../../model/active';
import type { Warning } from '../../model/warnings';
import type { UplinkState } from '../../uplink/conditions';
import { physicalNetworkOf } from '../../uplink/names';
import { uplinkWaitWarning } from '../warnings';
import type { YamlObject } from './uplinkInput';

interface InventoryNodeShape {
  name?: unknown;
  networks?: unknown;
}

/**
 * The warnings of CUDN `network` (a ClusterUserDefinedNetwork object) given every state of its
 * Uplinks (the UplinkState resources' `uplinkState` outputs, upstream's objects).
 */
export function uplinkGatewayWarnings(
  inventory: YamlObject,
  network: YamlObject,
  objects: readonly object[],
): Warning[] {
  // a state not yet read back (mocks, an older state) is no state
  const states = objects.filter((o) => (o as Partial<UplinkState> | undefined)?.spec !== undefined) as UplinkState[];
  const name = String(network.metadata?.name);
  const uplinks = ((network.spec as { uplinks?: unknown })?.uplinks ?? []) as string[];
  const nodes = ((inventory.spec as { nodes?: InventoryNodeShape[] })?.nodes ?? []).filter(Boolean);
  const active = nodes.filter((n) => listedActive(Array.isArray(n.networks) ? n.networks : undefined, name));
  const stateOf = (uplink: string, node: string) =>
    states.find((s) => s.spec.uplinkName === uplink && s.spec.nodeName === node);
  return uplinks.flatMap((uplink) =>
    active.flatMap((n) => {
      const node = String(n.name);
      const ref = `ClusterUserDefinedNetwork/${name}`;
      return uplinkWaitWarning(ref, physicalNetworkOf(name), uplink, node, stateOf(uplink, node)) ?? [];
    }),
  );
}
