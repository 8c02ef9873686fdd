/**
 * Upstream's NB names for a network's datapaths and ports. `P` is the network prefix (network
 * name with `-` and `/` turned into `.`, plus a trailing `_`). P follows the role prefix for most
 * ports (`rtos-<P><node>`), but precedes it for the Layer3 transit-switch ports
 * (`<P>tstor-<node>`, `<P>rtots-<node>`); plain datapaths are `<P><base>`.
 */

/** The name prefix of a network (or of a NAD key, for pod ports). */
export function networkPrefix(networkOrNadKey: string): string {
  return networkOrNadKey.replace(/[-/]/g, '.') + '_';
}

export const clusterRouterName = (p: string): string => `${p}ovn_cluster_router`;
export const joinSwitchName = (p: string): string => `${p}join`;
export const transitSwitchName = (p: string): string => `${p}transit_switch`;
export const nodeSwitchName = (p: string, node: string): string => `${p}${node}`;
export const gatewayRouterName = (p: string, node: string): string => `GR_${p}${node}`;
export const externalSwitchName = (p: string, node: string): string => `ext_${p}${node}`;
export const layer2SwitchName = (p: string): string => `${p}ovn_layer2_switch`;
export const transitRouterName = (p: string): string => `${p}transit_router`;
/** A Localnet network's one switch and its localnet port (types.OVNLocalnetSwitch, OVNLocalnetPort). */
export const localnetSwitchName = (p: string): string => `${p}ovn_localnet_switch`;
export const localnetNetworkPort = (p: string): string => `${p}ovn_localnet_port`;

/** Router port on the cluster router towards a node switch, and its switch-side peer. */
export const routerToSwitchPort = (p: string, node: string): string => `rtos-${p}${node}`;
export const switchToRouterPort = (p: string, node: string): string => `stor-${p}${node}`;
/** Join ports: `rtoj-<router>` on a router, `jtor-<router>` on the join switch. */
export const routerToJoinPort = (router: string): string => `rtoj-${router}`;
export const joinToRouterPort = (router: string): string => `jtor-${router}`;
/** Gateway router's external side. */
export const routerToExternalPort = (gatewayRouter: string): string => `rtoe-${gatewayRouter}`;
export const externalToRouterPort = (gatewayRouter: string): string => `etor-${gatewayRouter}`;
export const localnetPort = (bridge: string, p: string, node: string): string => `${bridge}_${p}${node}`;
/** Layer3 interconnect ports (P before the role). */
export const transitSwitchToRouterPort = (p: string, node: string): string => `${p}tstor-${node}`;
export const routerToTransitSwitchPort = (p: string, node: string): string => `${p}rtots-${node}`;
/** Layer2: transit router <-> layer2 switch, and transit router <-> gateway router. */
export const transitRouterToSwitchPort = (p: string): string => `trtos-${layer2SwitchName(p)}`;
export const switchToTransitRouterPort = (p: string): string => `stotr-${layer2SwitchName(p)}`;
export const transitRouterToGatewayPort = (p: string, node: string): string => `trtor-${gatewayRouterName(p, node)}`;
export const gatewayToTransitRouterPort = (p: string, node: string): string => `rtotr-${gatewayRouterName(p, node)}`;
/**
 * Layer2 before the transit router (layer2Legacy.ts): the GR's `rtos-` port and its `stor-` peer
 * on the layer2 switch, another node's `remote` stand-in, and the transitional `-upgrade` pair an
 * upgraded zone adds while old nodes remain (layer2Upgrade.ts).
 */
export const legacyGatewayToSwitchPort = (p: string): string => `rtos-${layer2SwitchName(p)}`;
export const legacySwitchToGatewayPort = (p: string): string => `stor-${layer2SwitchName(p)}`;
export const legacyRemoteGatewayPort = (p: string, node: string): string => `stor-${layer2SwitchName(p)}_${node}`;
export const upgradeRouterPort = (p: string): string => `${transitRouterToSwitchPort(p)}-upgrade`;
export const upgradeSwitchPort = (p: string): string => `${switchToTransitRouterPort(p)}-upgrade`;
/** The management port's LSP (node-scoped in both topologies). */
export const managementPort = (p: string, node: string): string => `k8s-${p}${node}`;
/** A Gateway_Chassis row name: `<port>-<chassis>`. */
export const gatewayChassisName = (port: string, chassisId: string): string => `${port}-${chassisId}`;
/** A pod's LSP: the NAD key's prefix + `<namespace>_<pod>`. */
export const podPort = (nadKey: string, namespace: string, pod: string): string =>
  `${networkPrefix(nadKey)}${namespace}_${pod}`;
/** The owner-controller name upstream writes into ACL ids of a network. */
export const networkControllerName = (network: string): string => `${network}-network-controller`;
/** The host-side OVS internal port of a network's management port (15 chars at most). */
export const managementInterface = (networkId: number): string => `ovn-k8s-mp${networkId}`.slice(0, 15);

/** Shared rows every network references. */
export const DEFAULT_COPP = 'ovnkube-default';
export const ACL_LOGGING_METER = 'acl-logging';
