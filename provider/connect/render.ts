/**
 * The NB rows of one ClusterNetworkConnect in one zone (upstream's ovnkube-controller,
 * §3): the connect router, per network its links' ports and routes (local nodes: full pairs;
 * per-node layout: remote Layer3 nodes get a bound `crtor-` port and their routes), the reroute
 * policies of local links, and for ServiceNetwork the load-balancer group and, without
 * PodNetwork, the tier-0 ACLs. A node a network is not active on (Dynamic UDN) gets none of its
 * links: no local pair, no remote port or route, no policy from it; a Layer2 network inactive on
 * the zone's nodes has no link there.
 * The connect router is built as every router is (topology/parts.ts: the row, then its ports and
 * routes, its reference columns sorted); then the rows attached to the network routers, in order
 * of networks by id, then nodes by id: independent of input order.
 */
import type { Zone } from '../model/zones';
import type { DesiredRow } from '../nb/desired';
import { DEFAULT_COPP } from '../topology/names';
import { RouterParts } from '../topology/parts';
import { SharedRows } from '../topology/remoteRows';
import type { Columns } from '../topology/rows';
import { partialIsolation } from './acls';
import { connectRouterName, routerIds } from './ids';
import type { ConnectedNetwork, ConnectInput, ConnectNode } from './input';
import { type Link, linkOf } from './links';
import { isActiveOn } from './networkNames';
import { policyRows } from './policies';
import { localPortRows, remotePortRow } from './ports';
import { routeRows } from './routes';
import { serviceGroup } from './services';

export interface ConnectRender {
  /** The rows; the LBG and ACLs name the switches they attach to as their `parents`. */
  rows: DesiredRow[];
  /** What upstream would skip quietly, said aloud (a remote node without a chassis id). */
  notes: string[];
}

/** What the zone's links add: the connect router's children, and rows attached to other owners' routers. */
interface Parts {
  router: RouterParts;
  /** Network-router ports and reroute policies: each names its network router as its parent. */
  attached: DesiredRow[];
  /** Remote nodes whose Layer3 ports could not be bound (no chassis id). */
  unbound: Set<string>;
}

/**
 * `counts`: the remote nodes' shared rows (the same in every zone) are counted there per table
 * instead of listed among the rows (a per-node plan counting its zones, issue 25.4).
 */
export function renderConnect(
  input: ConnectInput,
  nodes: ConnectNode[],
  zone: Zone,
  counts?: Map<string, number>,
): ConnectRender {
  const local = new Set(zone.localNodes);
  const byId = sortedById(nodes);
  const networks = [...input.networks].sort((a, b) => a.id - b.id);
  const sorted = { ...input, networks };
  const parts: Parts = { router: new RouterParts(), attached: [], unbound: new Set() };
  const remote = zone.layout === 'per-node' ? remoteLinks(input, sorted, byId) : undefined;
  if (remote) {
    parts.router.remote.ports = () => remote.zoneIds('ports', local);
    parts.router.remote.routes = () => remote.zoneIds('routes', local);
  }
  for (const network of networks) {
    if (network.topology === 'layer3') {
      for (const node of byId.filter((n) => isActiveOn(network, n.name))) {
        const shared = local.has(node.name) ? undefined : remote?.rowsOf(network.name, node.name);
        if (shared && !counts) parts.router.addShared(shared);
        else if (!shared) addLayer3Node(sorted, network, node, local.has(node.name), zone, parts);
      }
      if (counts) remote?.countInto(network.name, local, counts);
    } else if (zone.localNodes.some((n) => isActiveOn(network, n))) {
      addLink(sorted, linkOf(sorted, network), parts, undefined);
    }
  }
  const rows: DesiredRow[] = [...parts.router.build(routerColumns(input)), ...parts.attached];
  const localNodes = byId.filter((n) => local.has(n.name)).map((n) => n.name);
  if (input.serviceNetwork && localNodes.length > 0) {
    rows.push(serviceGroup(sorted, localNodes));
    if (!input.podNetwork) rows.push(...partialIsolation(sorted, localNodes));
  }
  const notes = [...parts.unbound].map(
    (node) =>
      `zone ${zone.name}: connect ${input.name}: node ${node} has no chassisId, so its remote connect-router ports and their routes are not rendered (upstream skips them too)`,
  );
  return { rows, notes };
}

function addLayer3Node(
  input: ConnectInput,
  network: ConnectedNetwork,
  node: ConnectNode,
  isLocal: boolean,
  zone: Zone,
  parts: Parts,
): void {
  const link = linkOf(input, network, node);
  if (isLocal) return addLink(input, link, parts, zone.layout === 'central' ? node.name : undefined);
  if (zone.layout === 'central') return;
  if (node.chassisId === undefined) {
    parts.unbound.add(node.name);
    return;
  }
  parts.router.ports.push(remotePortRow(input.name, link, node.chassisId));
  parts.router.routes.push(...routeRows(input.name, link));
}

/**
 * Every node's remote Layer3 links of the connect (per-node layout), built once for all zones:
 * each zone holds every other node's `crtor-` port and routes (remoteRows.ts).
 */
const remoteByConnect = new WeakMap<ConnectInput, { nodes: ConnectNode[]; block: SharedRows }>();

function remoteLinks(input: ConnectInput, sorted: ConnectInput, byId: ConnectNode[]): SharedRows {
  const known = remoteByConnect.get(input);
  if (known && known.nodes === byId) return known.block;
  const block = new SharedRows();
  for (const network of sorted.networks.filter((n) => n.topology === 'layer3')) {
    for (const node of byId.filter((n) => isActiveOn(network, n.name) && n.chassisId !== undefined)) {
      const link = linkOf(sorted, network, node);
      block.add(network.name, node.name, [
        { column: 'ports', row: remotePortRow(input.name, link, node.chassisId!) },
        ...routeRows(input.name, link).map((row) => ({ column: 'routes', row })),
      ]);
    }
  }
  remoteByConnect.set(input, { nodes: byId, block });
  return block;
}

const sortedNodes = new WeakMap<ConnectNode[], ConnectNode[]>();

/** The nodes by id, sorted once per list (every zone of a plan renders with the same list). */
function sortedById(nodes: ConnectNode[]): ConnectNode[] {
  let sorted = sortedNodes.get(nodes);
  if (sorted === undefined) {
    sorted = [...nodes].sort((a, b) => a.id - b.id);
    sortedNodes.set(nodes, sorted);
  }
  return sorted;
}

/** A local link: both ports, its routes, and the source network's policies from it. */
function addLink(input: ConnectInput, link: Link, parts: Parts, centralNode: string | undefined): void {
  const pair = localPortRows(input.name, link);
  parts.router.ports.push(pair.connect);
  parts.attached.push(pair.network);
  parts.router.routes.push(...routeRows(input.name, link));
  parts.attached.push(...policyRows(input.name, link, input.networks, centralNode));
}

/** The connect router's own columns; topology/parts.ts adds its ports and routes. */
function routerColumns(input: ConnectInput): Columns {
  return {
    name: connectRouterName(input.name),
    options: { 'requested-tnl-key': String(input.tunnelKey) },
    copp: DEFAULT_COPP,
    external_ids: routerIds(input.name),
  };
}
