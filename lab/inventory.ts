/**
 * The running lab as an Inventory object (ovnk/v1alpha1, kind Inventory): the lab's zone layout
 * (per-node: one zone per node; or central), the nodes with their ids, chassis ids, gateway bridges
 * and gateway details (nodeIPs, gatewayMac,
 * gatewayNextHops: what renders the gateway routers' external side), and `spec.targets` mapping
 * each zone to its Northbound and Southbound endpoints and each node (of a lab with a data plane)
 * to its SSH settings and host-key pin. Only
 * the client key's path appears, never key material. Pure.
 */
import type { ZoneLayout } from './layout';
import type { LabNodeStatus, LabStatus } from './status';
import { uplinkLabelsOf } from './uplinks';

export interface LabInventoryDocument {
  apiVersion: 'ovnk/v1alpha1';
  kind: 'Inventory';
  metadata: { name: string };
  spec: {
    zones: ZoneLayout;
    nodes: LabInventoryNode[];
    targets: {
      zones: Record<string, { nb: string; sb: string }>;
      nodes: Record<
        string,
        { host: string; port: number; user: string; hostKey: string; keyPath: string; ovsDb: string }
      >;
    };
  };
}

export interface LabInventoryNode {
  name: string;
  id: number;
  chassisId: string;
  gatewayBridge: string;
  nodeIPs: string[];
  gatewayMac?: string;
  gatewayNextHops: string[];
  labels: Record<string, string>;
}

function nodeOf(n: LabNodeStatus): LabInventoryNode {
  const { name, id, chassisId, gatewayBridge, nodeIPs, gatewayMac, gatewayNextHops } = n;
  return {
    name,
    id,
    chassisId,
    gatewayBridge,
    nodeIPs,
    ...(gatewayMac ? { gatewayMac } : {}),
    gatewayNextHops,
    labels: uplinkLabelsOf(n),
  };
}

export function inventoryOf(status: LabStatus): LabInventoryDocument {
  return {
    apiVersion: 'ovnk/v1alpha1',
    kind: 'Inventory',
    metadata: { name: status.name },
    spec: {
      zones: status.zoneLayout,
      nodes: status.nodes.map(nodeOf),
      targets: {
        zones: Object.fromEntries(status.zones.map((z) => [z.name, { nb: z.nb, sb: z.sb }])),
        nodes: Object.fromEntries(
          (status.dataPlane ? status.nodes : []).map((n) => [
            n.name,
            {
              host: n.ssh.host,
              port: n.ssh.port,
              user: n.ssh.user,
              hostKey: n.ssh.hostKeyFingerprint,
              keyPath: n.ssh.keyPath,
              ovsDb: n.ovsDb,
            },
          ]),
        ),
      },
    },
  };
}
