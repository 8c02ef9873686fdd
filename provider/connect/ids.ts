/**
 * Upstream's NB identifiers for a ClusterNetworkConnect (ovnkube-network-connect-controller):
 * names of the connect router, its ports and the service load-balancer group, the external_ids
 * of each row kind with its `k8s.ovn.org/id` (model/dbObjectIds.ts, the connect's name its first
 * key), and the FNV-1a-64 address-set names. The one extension is ours (ARCHITECTURE): an id with
 * no node in it gets `:<node>` appended when the central layout renders that row once per node.
 */
import type { Family } from '../model/cidr';
import { objectIds, ownerIds } from '../model/dbObjectIds';
import { NAME_KEY, UPSTREAM_ID_KEY } from '../model/externalIds';
import { hashForOvn } from '../model/hash';

export const CONTROLLER = 'ovnkube-network-connect-controller';
export const OWNER_TYPE = 'ClusterNetworkConnect';
export const POLICY_PRIORITY = 9001;
export const PASS_SERVICE_PRIORITY = 500;
export const PASS_SAME_NETWORK_PRIORITY = 475;
export const DROP_POD_PRIORITY = 450;

type Ids = Record<string, string>;

export const connectRouterName = (cnc: string): string => `connect_router_${cnc}`;
export const serviceGroupName = (cnc: string): string => `cnc_svc_${cnc}`;

/** `crtor-<cnc>_<network>[_<node>]`: on the connect router (node only for Layer3). */
export function connectPortName(cnc: string, network: string, node?: string): string {
  return `crtor-${cnc}_${network}${node === undefined ? '' : `_${node}`}`;
}

/** `rtocr-<network>[_<node>]_<cnc>`: on the network router. */
export function networkPortName(cnc: string, network: string, node?: string): string {
  return `rtocr-${network}${node === undefined ? '' : `_${node}`}_${cnc}`;
}

export function familyTag(family: Family): 'v4' | 'v6' {
  return family === 4 ? 'v4' : 'v6';
}

const owned = (cnc: string, keys: [string, string][], idSuffix?: string): Ids =>
  objectIds(CONTROLLER, OWNER_TYPE, [[NAME_KEY, cnc], ...keys], idSuffix);

/** The connect router carries no `k8s.ovn.org/id`: its name is its identity. */
export function routerIds(cnc: string): Ids {
  return ownerIds(CONTROLLER, OWNER_TYPE, [[NAME_KEY, cnc]]);
}

/** Both ports of a pair; `nodeId` is 0 for Layer2. */
export function portIds(cnc: string, networkId: number, nodeId: number, router: string): Ids {
  return owned(cnc, [
    ['network-id', String(networkId)],
    ['node-id', String(nodeId)],
    ['router-name', router],
  ]);
}

/** A reroute policy; `node` is given only in the central layout (our `:<node>` extension). */
export function policyIds(cnc: string, src: number, dst: number, family: Family, router: string, node?: string): Ids {
  const keys: [string, string][] = [
    ['source-network-id', String(src)],
    ['destination-network-id', String(dst)],
    ['ip-family', familyTag(family)],
    ['router-name', router],
  ];
  return owned(cnc, keys, node);
}

/**
 * A connect-router static route: upstream's id, which has no prefix. That is unique per (connect,
 * network, node, family): a node's host subnets are one per family, also for multi-subnet Layer3
 * networks (routes.ts). `extra` (the prefix) would keep a second same-family route distinct.
 */
export function routeIds(cnc: string, networkId: number, nodeId: number, family: Family, extra?: string): Ids {
  const keys: [string, string][] = [
    ['network-id', String(networkId)],
    ['node-id', String(nodeId)],
    ['ip-family', familyTag(family)],
  ];
  return owned(cnc, keys, extra);
}

export function aclIds(cnc: string, type: string): Ids {
  return owned(cnc, [['type', type]]);
}

export function addressSetIds(cnc: string, family: Family): Ids {
  return owned(cnc, [['ip-family', familyTag(family)]]);
}

export function addressSetPrimaryId(cnc: string, family: Family): string {
  return addressSetIds(cnc, family)[UPSTREAM_ID_KEY]!;
}

/** Upstream's address-set name: HashForOVN of the primary id. */
export function addressSetName(primary: string): string {
  return hashForOvn(primary);
}
