/**
 * The lab as other code sees it (`ovnk lab status -o json`, the tests' `inject('lab')`): its zone
 * layout, the OVSDB endpoints of each zone's databases (one zone per node in the per-node
 * layout, the zone `central` otherwise, whose endpoints also stand at the top level) and, per node,
 * its ids, SSH settings, Open_vSwitch socket,
 * encap IP, gateway bridge and gateway details (breth0's address, MAC and default next hop, as
 * upstream's l3-gateway-config has them). Pure: computed from the recorded state.
 */
import { CENTRAL_ZONE } from '../provider/model/zones';
import { centralNbRemote, centralSocket } from './central';
import {
  hasDataPlane,
  type LabLayout,
  nodeIp6,
  type OvnFlavor,
  UNDERLAY6_PREFIX,
  underlayGateway6,
  type ZoneLayout,
  zoneLayoutOf,
} from './layout';
import { isNbClustered, nbClusterRemotes } from './nbCluster';
import { GATEWAY_BRIDGE, GATEWAY_PREFIX, nodeDbSocket } from './node';
import type { LabState } from './state';
import { zoneOf } from './zones';

export { CENTRAL_ZONE };

export interface LabSshSettings {
  host: string;
  port: number;
  user: string;
  /** Path of the client private key (the key itself is never printed). */
  keyPath: string;
  /** OpenSSH `SHA256:...` fingerprint of the node's host key: pin it. */
  hostKeyFingerprint: string;
}

export interface LabNodeStatus {
  name: string;
  id: number;
  chassisId: string;
  ssh: LabSshSettings;
  /** The node's Open_vSwitch db as seen on the node (and from this machine: the path is shared). */
  ovsDb: string;
  encapIp: string;
  mgmtIp: string;
  gatewayBridge: string;
  /** breth0's addresses with prefix (`198.19.1.11/24`). */
  nodeIPs: string[];
  /** breth0's MAC (absent for a lab started before it was recorded). */
  gatewayMac?: string;
  /** The next hop of the node's default route. */
  gatewayNextHops: string[];
  /**
   * The IPv6 underlay: breth0's IPv6 address with prefix and the next hop of the node's IPv6
   * default route. Kept out of nodeIPs and gatewayNextHops, so the lab's Inventory stays IPv4
   * unless a file gives them (a dual-stack file lists both).
   */
  nodeIPs6: string[];
  gatewayNextHops6: string[];
  /** The node's network namespace on this machine. */
  namespace: string;
}

export interface LabZoneStatus {
  /** The node's name in the per-node layout; `central` otherwise. */
  name: string;
  /** A clustered Northbound's members, comma-separated (the clients follow the leader). */
  nb: string;
  sb: string;
  /** The central zone's tcp endpoints (the per-node zones listen on unix sockets only). */
  nbTcp?: string;
  sbTcp?: string;
}

export interface LabStatus {
  name: string;
  ovn: OvnFlavor;
  /** per-node: one NB, SB and northd per node (upstream's layout); central: one for all nodes. */
  zoneLayout: ZoneLayout;
  /** false: the nodes have no namespace, OVS, ovn-controller or sshd (a control-plane-only lab). */
  dataPlane: boolean;
  /** One entry per zone, in node order. */
  zones: LabZoneStatus[];
  /** The central layout's databases (absent in the per-node layout: see `zones`). */
  nb?: string;
  sb?: string;
  nbTcp?: string;
  sbTcp?: string;
  /** Set for the trixie OVN: run its own tools with `chroot <ovnRoot> ...`. */
  ovnRoot?: string;
  dir: string;
  nodes: LabNodeStatus[];
}

/** The central lab's status, as the test suite's shared lab has it. */
export type CentralLabStatus = LabStatus & Required<Pick<LabStatus, 'nb' | 'sb' | 'nbTcp' | 'sbTcp'>>;

function zoneStatuses(layout: LabLayout): LabZoneStatus[] {
  if (zoneLayoutOf(layout) === 'per-node') return layout.nodes.map((node) => zoneOf(layout, node));
  return [
    {
      name: CENTRAL_ZONE,
      nb: centralNbRemote(layout),
      sb: `unix:${centralSocket(layout, 'sb')}`,
      nbTcp: isNbClustered(layout) ? nbClusterRemotes(layout, 'tcp') : `tcp:${layout.centralIp}:${layout.nbPort}`,
      sbTcp: `tcp:${layout.centralIp}:${layout.sbPort}`,
    },
  ];
}

export function statusOf(state: LabState, ovnRoot?: string): LabStatus {
  const { layout } = state;
  const zones = zoneStatuses(layout);
  const central = zoneLayoutOf(layout) === 'central' ? zones[0]! : undefined;
  return {
    name: state.name,
    ovn: state.ovn,
    zoneLayout: zoneLayoutOf(layout),
    dataPlane: hasDataPlane(layout),
    zones,
    ...(central ? { nb: central.nb, sb: central.sb, nbTcp: central.nbTcp, sbTcp: central.sbTcp } : {}),
    ...(ovnRoot ? { ovnRoot } : {}),
    dir: layout.dir,
    nodes: layout.nodes.map((node) => ({
      name: node.name,
      id: node.id,
      chassisId: node.chassisId,
      ssh: {
        host: node.mgmtIp,
        port: 22,
        user: 'root',
        keyPath: layout.clientKeyPath,
        hostKeyFingerprint: state.hostKeyFingerprints[node.name] ?? '',
      },
      ovsDb: `unix:${nodeDbSocket(node)}`,
      encapIp: node.encapIp,
      mgmtIp: node.mgmtIp,
      gatewayBridge: GATEWAY_BRIDGE,
      nodeIPs: [`${node.encapIp}/${GATEWAY_PREFIX}`],
      ...(state.gatewayMacs?.[node.name] ? { gatewayMac: state.gatewayMacs[node.name] } : {}),
      gatewayNextHops: [layout.underlayGateway],
      nodeIPs6: [`${nodeIp6(layout, node)}/${UNDERLAY6_PREFIX}`],
      gatewayNextHops6: [underlayGateway6(layout)],
      namespace: node.namespace,
    })),
  };
}
