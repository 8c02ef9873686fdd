/**
 * The lab as other code sees it (`ovnk lab status -o json`, the tests' `inject('lab')`): OVSDB
 * endpoints of the central databases and, per node, its ids, SSH settings, Open_vSwitch socket,
 * encap IP, gateway bridge and gateway details (breth0's address, MAC and default next hop, as
 * upstream's l3-gateway-config has them). Pure: computed from the recorded state.
 */
import { centralSocket } from './central';
import type { OvnFlavor } from './layout';
import { GATEWAY_BRIDGE, GATEWAY_PREFIX, nodeDbSocket } from './node';
import type { LabState } from './state';

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
  /** The node's network namespace on this machine. */
  namespace: string;
}

export interface LabStatus {
  name: string;
  ovn: OvnFlavor;
  nb: string;
  sb: string;
  nbTcp: string;
  sbTcp: string;
  /** Set for the trixie OVN: run its own tools with `chroot <ovnRoot> ...`. */
  ovnRoot?: string;
  dir: string;
  nodes: LabNodeStatus[];
}

export function statusOf(state: LabState, ovnRoot?: string): LabStatus {
  const { layout } = state;
  return {
    name: state.name,
    ovn: state.ovn,
    nb: `unix:${centralSocket(layout, 'nb')}`,
    sb: `unix:${centralSocket(layout, 'sb')}`,
    nbTcp: `tcp:${layout.centralIp}:${layout.nbPort}`,
    sbTcp: `tcp:${layout.centralIp}:${layout.sbPort}`,
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
      namespace: node.namespace,
    })),
  };
}
