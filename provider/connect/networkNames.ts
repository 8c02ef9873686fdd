/**
 * The network-side names a connect attaches to, from provider/topology's names (never
 * re-derived): the network router (Layer3 cluster router, Layer2 transit router), the inport of
 * pod traffic on it (policy matches) and the switch that pods sit on (LBG and ACL attachments).
 */
import {
  clusterRouterName,
  layer2SwitchName,
  networkPrefix,
  nodeSwitchName,
  routerToSwitchPort,
  transitRouterName,
  transitRouterToSwitchPort,
} from '../topology/names';
import type { ConnectedNetwork } from './input';

export function networkRouter(network: ConnectedNetwork): string {
  const p = networkPrefix(network.name);
  return network.topology === 'layer3' ? clusterRouterName(p) : transitRouterName(p);
}

/** Layer3: `rtos-<P><node>`; Layer2: `trtos-<P>ovn_layer2_switch`. */
export function podInport(network: ConnectedNetwork, node: string): string {
  const p = networkPrefix(network.name);
  return network.topology === 'layer3' ? routerToSwitchPort(p, node) : transitRouterToSwitchPort(p);
}

/** Is the network active on `node` (Dynamic UDN)? */
export function isActiveOn(network: ConnectedNetwork, node: string): boolean {
  return network.activeNodes === undefined || network.activeNodes.includes(node);
}

/**
 * The network's switches holding the zone's pods: one per local node it is active on (Layer3),
 * or the one Layer2 switch when it is active on a local node.
 */
export function podSwitches(network: ConnectedNetwork, localNodes: string[]): string[] {
  const p = networkPrefix(network.name);
  const active = localNodes.filter((n) => isActiveOn(network, n));
  if (network.topology === 'layer3') return active.map((n) => nodeSwitchName(p, n));
  return active.length > 0 ? [layer2SwitchName(p)] : [];
}
