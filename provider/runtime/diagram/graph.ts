/**
 * The planned topology as a graph to draw (`ovnk diagram`, the Cluster component's `diagram`
 * output): built from the plan alone, no I/O. Routers are the plan's Logical_Router rows (each
 * once, whatever the number of zones holding it): a network's cluster or transit router, its
 * gateway routers (one per node, collapsed into one node beyond `collapseAbove`), and the connect
 * routers, each linked to the routers of the networks it joins with their slices and
 * connectivity. Networks carry their subnets; the Uplinks a CUDN names hang off its gateway
 * routers with their host interfaces (and the bridges they resolved to, when known). Networks no
 * connect joins sit apart, in a group of their own. dot.ts writes it as DOT.
 */
import { uplinksOf } from '../../model/cudn';
import { NAME_KEY, NETWORK_KEY, OWNER_TYPE_KEY } from '../../model/externalIds';
import { naturalCompare } from '../../model/naturalOrder';
import type { Network } from '../../model/network';
import { clusterRouterName, networkPrefix, transitRouterName } from '../../topology/names';
import type { TopologyPlan } from '../topologyPlan';

export type DiagramNodeKind = 'network' | 'router' | 'gateways' | 'connect' | 'uplink';

export interface DiagramNode {
  /** Stable and unique: `network:<name>`, `router:<name>`, `gateways:<network>`, `connect:<name>`, `uplink:<name>`. */
  id: string;
  kind: DiagramNodeKind;
  lines: string[];
  /** `gateways` only: the gateway routers the node stands for. */
  members?: string[];
  /** A refused connect is drawn as such. */
  refused?: boolean;
}

export interface DiagramEdge {
  from: string;
  to: string;
  label?: string;
  kind: 'attach' | 'join' | 'connect' | 'uplink';
}

/** A network's box: its nodes. */
export interface DiagramGroup {
  id: string;
  label: string;
  nodes: string[];
  /** The network's own router (Layer3: cluster, Layer2: transit), drawn beside the network. */
  hub?: string;
}

export interface Diagram {
  title: string;
  /** Networks some connect joins (with their routers). */
  connected: DiagramGroup[];
  /** Networks no connect joins, drawn apart. */
  unconnected: DiagramGroup[];
  /** Nodes outside any network: connect routers and Uplinks. */
  nodes: DiagramNode[];
  groupNodes: DiagramNode[];
  edges: DiagramEdge[];
}

export interface DiagramOptions {
  /** Only this connect and the networks it joins. */
  connect?: string;
  /** More gateway routers than this in one network are drawn as one node (default 3). */
  collapseAbove?: number;
  /** Each Uplink's resolved bridge per node, when the nodes were asked (plan --lab). */
  bridges?: Record<string, Record<string, string>>;
}

interface RouterRow {
  name: string;
  network?: string;
  connect?: string;
  gateway: boolean;
}

/** Every Logical_Router of the plan, once, sorted by name. */
export function plannedRouters(plan: Pick<TopologyPlan, 'zones'>): RouterRow[] {
  const byName = new Map<string, RouterRow>();
  for (const row of plan.zones.flatMap((z) => z.rows).filter((r) => r.table === 'Logical_Router')) {
    const name = String(row.columns.name);
    const ids = (row.columns.external_ids ?? {}) as Record<string, string>;
    const connect = ids[OWNER_TYPE_KEY] === 'ClusterNetworkConnect' ? ids[NAME_KEY] : undefined;
    const network = ids[NETWORK_KEY];
    byName.set(name, {
      name,
      ...(network ? { network } : {}),
      ...(connect ? { connect } : {}),
      gateway: name.startsWith('GR_'),
    });
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The node of a gateway router `GR_<prefix><node>` (topology/names.ts). */
const nodeOf = (router: string, network: Network) => router.slice(`GR_${networkPrefix(network.name)}`.length);

/** The router a connect attaches to (connect/networkNames.ts): Layer3 cluster router, Layer2 transit router. */
const networkRouterOf = (network: Network) =>
  (network.topology === 'Layer2' ? transitRouterName : clusterRouterName)(networkPrefix(network.name));

export function diagramOf(plan: TopologyPlan, options: DiagramOptions = {}): Diagram {
  const { cluster, allocation } = plan;
  const routers = plannedRouters(plan);
  const connects = cluster.connects.filter((c) => options.connect === undefined || c.name === options.connect);
  const joined = new Map<string, string[]>();
  for (const c of connects)
    for (const a of Object.values(allocation.connects[c.name]?.networks ?? {}))
      if (a.network) joined.set(a.network, [...(joined.get(a.network) ?? []), c.name]);
  const inUse = cluster.networks.filter((n) => allocation.networkIds[n.name] !== undefined);
  const networks = options.connect === undefined ? inUse : inUse.filter((n) => joined.has(n.name));
  const edges: DiagramEdge[] = [];
  const groupNodes: DiagramNode[] = [];
  const groups = networks.map((n) =>
    networkGroup(n, routers, options.collapseAbove ?? 3, (node) => groupNodes.push(node), edges),
  );
  const drawn = new Set(groupNodes.map((n) => n.id));
  const gateways = new Map(groups.map((g) => [g.id, g.gateways]));
  const nodes = [
    ...connects.flatMap((c) => connectNode(plan, c.name, c.connectivity ?? [], routers, networks, drawn, edges)),
    ...uplinkNodes(plan, networks, options.bridges ?? {}, gateways, edges),
  ];
  return {
    title: cluster.inventory.name,
    connected: groups.filter((g) => joined.has(g.network)).map(drawnGroup),
    unconnected: groups.filter((g) => !joined.has(g.network)).map(drawnGroup),
    nodes,
    groupNodes,
    edges,
  };
}

const drawnGroup = ({ id, label, nodes, hub }: DiagramGroup): DiagramGroup => ({
  id,
  label,
  nodes,
  ...(hub ? { hub } : {}),
});

function networkLines(n: Network): string[] {
  const subnets = n.subnets.map((s) => (s.hostSubnet ? `${s.cidr} /${s.hostSubnet} per node` : s.cidr));
  return [n.name, `${n.topology} ${n.role}`, ...subnets];
}

/** The network, its cluster (transit) router and gateway routers: one group. */
function networkGroup(
  network: Network,
  routers: RouterRow[],
  collapseAbove: number,
  add: (node: DiagramNode) => void,
  edges: DiagramEdge[],
): DiagramGroup & { network: string; gateways: string[] } {
  const id = `network:${network.name}`;
  add({ id, kind: 'network', lines: networkLines(network) });
  const own = routers.filter((r) => r.network === network.name && !r.connect);
  const main = own.filter((r) => !r.gateway);
  // node-1 .. node-10, not node-1 .. node-9: gateways in their nodes' natural order
  const gateways = own
    .filter((r) => r.gateway)
    .sort((a, b) => naturalCompare(nodeOf(a.name, network), nodeOf(b.name, network)));
  const role = network.topology === 'Layer2' ? 'transit router' : 'cluster router';
  for (const r of main) {
    add({ id: `router:${r.name}`, kind: 'router', lines: [r.name, role] });
    edges.push({ from: id, to: `router:${r.name}`, kind: 'attach' });
  }
  const hub = main.find((r) => r.name === networkRouterOf(network));
  const joinFrom = hub ? `router:${hub.name}` : id;
  if (gateways.length > collapseAbove) {
    const first = gateways[0]!.name;
    const last = gateways[gateways.length - 1]!.name;
    const gid = `gateways:${network.name}`;
    add({
      id: gid,
      kind: 'gateways',
      lines: [`${gateways.length} gateway routers`, `GR ${nodeOf(first, network)} .. ${nodeOf(last, network)}`],
      members: gateways.map((g) => g.name),
    });
    edges.push({ from: joinFrom, to: gid, kind: 'join', label: `${gateways.length} nodes` });
  } else
    for (const g of gateways) {
      add({ id: `router:${g.name}`, kind: 'router', lines: [`GR ${nodeOf(g.name, network)}`, 'gateway router'] });
      edges.push({ from: joinFrom, to: `router:${g.name}`, kind: 'join' });
    }
  const gatewayIds =
    gateways.length > collapseAbove ? [`gateways:${network.name}`] : gateways.map((g) => `router:${g.name}`);
  const nodes = [id, ...main.map((r) => `router:${r.name}`), ...gatewayIds];
  const group = { id, label: network.ref, nodes, network: network.name, gateways: gatewayIds };
  return hub ? { ...group, hub: `router:${hub.name}` } : group;
}

/** A connect router (refused: the connect object), linked to each joined network's router with its slices. */
function connectNode(
  plan: TopologyPlan,
  name: string,
  connectivity: string[],
  routers: RouterRow[],
  networks: Network[],
  drawn: Set<string>,
  edges: DiagramEdge[],
): DiagramNode[] {
  const allocation = plan.allocation.connects[name];
  const router = routers.find((r) => r.connect === name);
  const id = router ? `router:${router.name}` : `connect:${name}`;
  const spec = plan.cluster.connects.find((c) => c.name === name);
  const subnets = (spec?.connectSubnets ?? []).map((s) => `${s.cidr} /${s.networkPrefix}`);
  const refused = !allocation?.accepted;
  const head = router
    ? [router.name, `connect ${name}`]
    : [`connect ${name}`, refused ? 'REFUSED' : 'no router in this zone'];
  const lines = [...head, connectivity.join(', ') || 'no connectivity', ...subnets];
  if (refused) lines.push(...(allocation?.problems ?? []).map((p) => p.reason));
  for (const a of Object.values(allocation?.networks ?? {})) {
    const network = networks.find((n) => n.name === a.network);
    if (!network) continue;
    const target = drawn.has(`router:${networkRouterOf(network)}`)
      ? `router:${networkRouterOf(network)}`
      : `network:${network.name}`;
    const slices = [...Object.values(a.subnets), ...Object.values(a.blocks ?? {}).map((b) => `(block ${b})`)];
    edges.push({ from: id, to: target, kind: 'connect', label: slices.join('\n') });
  }
  return [{ id, kind: router ? 'router' : 'connect', lines, ...(refused ? { refused } : {}) }];
}

/** Each Uplink a drawn network names, with its host interfaces, linked from the network's gateway routers. */
function uplinkNodes(
  plan: TopologyPlan,
  networks: Network[],
  bridges: Record<string, Record<string, string>>,
  gateways: Map<string, string[]>,
  edges: DiagramEdge[],
): DiagramNode[] {
  const nodes: DiagramNode[] = [];
  for (const uplink of plan.cluster.uplinks ?? []) {
    const users = networks.filter((n) => (uplinksOf(n) ?? []).includes(uplink.name));
    if (users.length === 0) continue;
    const id = `uplink:${uplink.name}`;
    const resolved = [...new Set(Object.values(bridges[uplink.name] ?? {}))].map((b) => `bridge ${b}`);
    const interfaces = uplink.nodeConfigs.map((c) => `host interface ${c.hostInterfaceName}`);
    nodes.push({ id, kind: 'uplink', lines: [`Uplink ${uplink.name}`, ...[...new Set(interfaces)], ...resolved] });
    for (const n of users) {
      const from = gateways.get(`network:${n.name}`) ?? [];
      for (const f of from.length > 0 ? from : [`network:${n.name}`]) edges.push({ from: f, to: id, kind: 'uplink' });
    }
  }
  return nodes;
}
