/**
 * Upstream's NB identifiers for a ClusterNetworkConnect (ovnkube-network-connect-controller):
 * names of the connect router, its ports and the service load-balancer group, the external_ids
 * of each row kind with its `k8s.ovn.org/id`, and the FNV-1a-64 address-set names. The one
 * extension is ours (ARCHITECTURE): an id with no node in it gets `:<node>` appended when the
 * central layout renders that row once per node.
 */
import type { Family } from '../model/cidr';
import { hashForOvn } from '../model/hash';
import { NAME_KEY, OWNER_CONTROLLER_KEY, OWNER_TYPE_KEY, UPSTREAM_ID_KEY } from '../model/externalIds';

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

function primaryId(cnc: string, ...parts: (string | number)[]): string {
  return [CONTROLLER, OWNER_TYPE, cnc, ...parts].join(':');
}

/** Upstream's owner keys, the row's own keys, then its id (hot: one object per row, no spreads). */
function owned(cnc: string, id: string, extra: Ids): Ids {
  const ids: Ids = {
    [OWNER_CONTROLLER_KEY]: CONTROLLER,
    [OWNER_TYPE_KEY]: OWNER_TYPE,
    [NAME_KEY]: cnc,
  };
  for (const key in extra) ids[key] = extra[key]!;
  ids[UPSTREAM_ID_KEY] = id;
  return ids;
}

/** The connect router carries no `k8s.ovn.org/id`: its name is its identity. */
export function routerIds(cnc: string): Ids {
  return { [NAME_KEY]: cnc, [OWNER_CONTROLLER_KEY]: CONTROLLER, [OWNER_TYPE_KEY]: OWNER_TYPE };
}

/** Both ports of a pair; `nodeId` is 0 for Layer2. */
export function portIds(cnc: string, networkId: number, nodeId: number, router: string): Ids {
  const keys = { 'network-id': String(networkId), 'node-id': String(nodeId), 'router-name': router };
  return owned(cnc, primaryId(cnc, networkId, nodeId, router), keys);
}

/** A reroute policy; `node` is given only in the central layout (our `:<node>` extension). */
export function policyIds(cnc: string, src: number, dst: number, family: Family, router: string, node?: string): Ids {
  const keys = {
    'source-network-id': String(src),
    'destination-network-id': String(dst),
    'ip-family': familyTag(family),
    'router-name': router,
  };
  const id = primaryId(cnc, src, dst, familyTag(family), router);
  return owned(cnc, node === undefined ? id : `${id}:${node}`, keys);
}

/**
 * A connect-router static route: upstream's id, which has no prefix. That is unique per (connect,
 * network, node, family): a node's host subnets are one per family, also for multi-subnet Layer3
 * networks (routes.ts). `extra` (the prefix) would keep a second same-family route distinct.
 */
export function routeIds(cnc: string, networkId: number, nodeId: number, family: Family, extra?: string): Ids {
  const keys = { 'network-id': String(networkId), 'node-id': String(nodeId), 'ip-family': familyTag(family) };
  const id = primaryId(cnc, networkId, nodeId, familyTag(family));
  return owned(cnc, extra === undefined ? id : `${id}:${extra}`, keys);
}

export function aclIds(cnc: string, type: string): Ids {
  return owned(cnc, primaryId(cnc, type), { type });
}

export function addressSetIds(cnc: string, family: Family): Ids {
  return owned(cnc, addressSetPrimaryId(cnc, family), { 'ip-family': familyTag(family) });
}

export function addressSetPrimaryId(cnc: string, family: Family): string {
  return primaryId(cnc, familyTag(family));
}

/** Upstream's address-set name: HashForOVN of the primary id. */
export function addressSetName(primary: string): string {
  return hashForOvn(primary);
}
