/**
 * The cluster manager's allocations, upstream's against ours: the harness runs upstream's own
 * cluster manager (oracle/harness/ovnk_oracle_clustermanager_test.go) on a topology's objects as
 * they stand before it acts (nodes with only what ovnkube-node writes, pods without the Layer2
 * addresses it assigns, CNCs without its annotations), and the annotations it writes (node ids,
 * host subnets, NAD network ids and Layer2 tunnel keys, CNC subnets and tunnel keys) are compared
 * with the ones `ovnk plan` predicts (predictedAnnotations), for our networks and connects only.
 */
import type { LoadedDocument } from '../provider/model/load';
import { goJson, predictedAnnotations, type TopologyPlan } from '../provider/runtime/cli';
import type { OracleDifference } from './compare';
import { harnessInput, type HarnessInput, type HarnessSettings } from './input';

type Annotations = Record<string, Record<string, string>>;

/** What the cluster manager wrote, by object: nodes by name, NADs as `namespace/name`, CNCs by name. */
export interface ClusterAnnotations {
  nodes: Annotations;
  nads: Annotations;
  connects: Annotations;
}

/** A committed result: the annotations upstream's cluster manager wrote for a topology file. */
export interface ClusterManagerDump {
  source: string;
  upstream: { repository: string; commit: string; harness: string };
  settings: HarnessSettings;
  errors: string[];
  controllerErrors: string[];
  annotations: ClusterAnnotations;
}

const NODE_KEYS = ['k8s.ovn.org/node-id', 'k8s.ovn.org/node-subnets'];
const NAD_KEYS = ['k8s.ovn.org/network-id', 'k8s.ovn.org/tunnel-keys'];

/** The harness input with what the cluster manager writes taken out, for it to write. */
export function clusterManagerInput(plan: TopologyPlan, documents: LoadedDocument[]): HarnessInput {
  // no zone: every network, active on some node or not, is the cluster manager's
  const input = harnessInput(plan, documents, '');
  const ours = predictedAnnotations(plan.allocation);
  const strip = (o: Record<string, unknown>, keys: string[]) => {
    const meta = (o.metadata ?? {}) as { annotations?: Record<string, string> };
    const annotations = Object.fromEntries(Object.entries(meta.annotations ?? {}).filter(([k]) => !keys.includes(k)));
    return { ...o, metadata: { ...meta, annotations } };
  };
  const connectKeys = Object.values(ours.connects).flatMap((a) => Object.keys(a));
  return {
    ...input,
    mode: 'clustermanager',
    nodes: input.nodes.map((n) => strip(n, [...NODE_KEYS, 'k8s.ovn.org/node-transit-switch-port-ifaddr'])),
    pods: input.pods.map((p) => strip(p, ['k8s.ovn.org/pod-networks'])),
    connects: input.connects.map((c) => strip(c, connectKeys)),
    networks: input.networks.map((n) => ({ ...n, nads: [] })),
  };
}

/** Only our networks' and connects' annotations, node-subnets narrowed to our networks. */
export function ourAnnotations(plan: TopologyPlan, all: ClusterAnnotations): ClusterAnnotations {
  const networks = new Set(plan.cluster.networks.map((n) => n.name));
  const nadKeys = new Set(plan.cluster.networks.flatMap((n) => n.namespaces.map((ns) => `${ns}/${n.objectName}`)));
  const pick = (a: Record<string, string> | undefined, keys: string[]) =>
    Object.fromEntries(Object.entries(a ?? {}).filter(([k]) => keys.includes(k)));
  const nodes: Annotations = {};
  for (const [name, a] of Object.entries(all.nodes)) {
    const kept = pick(a, NODE_KEYS);
    const subnets = kept['k8s.ovn.org/node-subnets'];
    if (subnets !== undefined) {
      const ofOurs = Object.entries(JSON.parse(subnets) as Record<string, unknown>).filter(([n]) => networks.has(n));
      if (ofOurs.length > 0) kept['k8s.ovn.org/node-subnets'] = goJson(Object.fromEntries(ofOurs));
      else delete kept['k8s.ovn.org/node-subnets'];
    }
    nodes[name] = kept;
  }
  const nads: Annotations = {};
  for (const [key, a] of Object.entries(all.nads)) if (nadKeys.has(key)) nads[key] = pick(a, NAD_KEYS);
  // the harness holds our CNCs only: all of their annotations are the cluster manager's
  return { nodes, nads, connects: all.connects };
}

/** Our plan's annotations in the same shape. */
export function plannedAnnotations(plan: TopologyPlan): ClusterAnnotations {
  const ours = predictedAnnotations(plan.allocation);
  const nads: Annotations = {};
  for (const network of plan.cluster.networks)
    for (const ns of network.namespaces)
      nads[`${ns}/${network.objectName}`] = Object.fromEntries(
        Object.entries(ours.networks[network.name] ?? {}).filter(([k]) => NAD_KEYS.includes(k)),
      );
  return { nodes: ours.nodes, nads, connects: ours.connects };
}

/** Every annotation that differs, as an oracle difference (table Node, NAD or CNC; column the key). */
export function compareAnnotations(upstream: ClusterAnnotations, ours: ClusterAnnotations): OracleDifference[] {
  const out: OracleDifference[] = [];
  for (const [table, kind] of [
    ['Node', 'nodes'],
    ['NAD', 'nads'],
    ['CNC', 'connects'],
  ] as const) {
    const names = [...new Set([...Object.keys(upstream[kind]), ...Object.keys(ours[kind])])].sort();
    for (const key of names) {
      const u = upstream[kind][key] ?? {};
      const o = ours[kind][key] ?? {};
      for (const column of [...new Set([...Object.keys(u), ...Object.keys(o)])].sort())
        if (u[column] !== o[column])
          out.push({ table, key, kind: 'column', column, upstream: u[column], ours: o[column] });
    }
  }
  return out;
}

const NODE_ID = 'k8s.ovn.org/node-id';
const SUBNETS = 'k8s.ovn.org/node-subnets';
const NETWORK_ID = 'k8s.ovn.org/network-id';
const TUNNEL_KEYS = 'k8s.ovn.org/tunnel-keys';
const CONNECT_KEY = 'k8s.ovn.org/connect-router-tunnel-key';
const CONNECT_SUBNETS = 'k8s.ovn.org/network-connect-subnet';

const sorted = (values: unknown[]) => JSON.stringify(values.map((v) => JSON.stringify(v)).sort());

/**
 * Upstream's annotations with what depends only on arrival order brought to ours, when it is a
 * permutation of ours: upstream numbers nodes, networks and datapath keys in the order its
 * informers deliver Node, NAD and CNC events, and gives each network's host subnets to nodes in
 * that order too, while ovnk assigns by name (node ids, network ids) and by id (ARCHITECTURE.md
 * "Where upstream assigns in random or arrival order, we assign deterministically"). So: node
 * ids, network ids and all tunnel keys are taken as ours when the sets are equal; each network's
 * host subnets when the sets are equal, or, where upstream's node patches conflicted and were
 * retried (`retried`: its log says "testing value .../node-subnets failed", and a retry releases
 * the subnet and takes the next one, next-fit), when each node holds as many distinct subnets of
 * the same sizes as ours; the connect subnets' network
 * labels (`layer3_<network id>`) are renamed through the network ids, and taken as ours when the
 * connect's subnets are the same set; an empty tunnel-keys list
 * (what upstream writes on networks that need none) is no annotation. What remains is compared
 * exactly. Pure.
 */
export function withoutArrivalOrder(
  upstream: ClusterAnnotations,
  ours: ClusterAnnotations,
  retried = false,
): ClusterAnnotations {
  const u: ClusterAnnotations = JSON.parse(JSON.stringify(upstream)) as ClusterAnnotations;
  const same = (pick: (a: ClusterAnnotations) => unknown[]) => sorted(pick(u)) === sorted(pick(ours));
  for (const a of Object.values(u.nads)) if (a[TUNNEL_KEYS] === '[]') delete a[TUNNEL_KEYS];
  if (same((a) => Object.values(a.nodes).map((n) => n[NODE_ID])))
    for (const [node, a] of Object.entries(u.nodes))
      if (ours.nodes[node]?.[NODE_ID]) a[NODE_ID] = ours.nodes[node]![NODE_ID]!;
  // host subnets, network by network
  const subnetsOf = (a: ClusterAnnotations, node: string) =>
    JSON.parse(a.nodes[node]?.[SUBNETS] ?? '{}') as Record<string, unknown>;
  const networks = new Set(Object.keys(u.nodes).flatMap((n) => Object.keys(subnetsOf(u, n))));
  const rewritten = Object.fromEntries(Object.keys(u.nodes).map((n) => [n, subnetsOf(u, n)]));
  for (const network of networks) {
    const mine = Object.keys(u.nodes).map((n) => subnetsOf(ours, n)[network]);
    const theirs = Object.keys(u.nodes).map((n) => subnetsOf(u, n)[network]);
    if (sorted(mine) === sorted(theirs) || (retried && sameShape(mine, theirs)))
      for (const [i, n] of Object.keys(u.nodes).entries()) if (mine[i] !== undefined) rewritten[n]![network] = mine[i];
  }
  for (const [n, subnets] of Object.entries(rewritten))
    if (Object.keys(subnets).length > 0) u.nodes[n]![SUBNETS] = goJson(subnets);
  // network ids, and the connect subnets labelled with them
  const ids = (a: ClusterAnnotations) => Object.values(a.nads).map((n) => n[NETWORK_ID]);
  if (same(ids)) {
    const rename = new Map<string, string>();
    for (const [nad, a] of Object.entries(u.nads))
      if (a[NETWORK_ID] && ours.nads[nad]?.[NETWORK_ID]) rename.set(a[NETWORK_ID], ours.nads[nad]![NETWORK_ID]!);
    for (const [nad, a] of Object.entries(u.nads))
      if (ours.nads[nad]?.[NETWORK_ID]) a[NETWORK_ID] = ours.nads[nad]![NETWORK_ID]!;
    for (const a of Object.values(u.connects))
      if (a[CONNECT_SUBNETS])
        a[CONNECT_SUBNETS] = goJson(
          Object.fromEntries(
            Object.entries(JSON.parse(a[CONNECT_SUBNETS]) as Record<string, unknown>).map(([label, v]) => [
              label.replace(/_(\d+)$/, (_m, id: string) => `_${rename.get(id) ?? id}`),
              v,
            ]),
          ),
        );
  }
  // each connect's subnets go to its networks in the order they arrive
  for (const [cnc, a] of Object.entries(u.connects)) {
    const mine = ours.connects[cnc]?.[CONNECT_SUBNETS];
    const parse = (text: string) => Object.values(JSON.parse(text) as Record<string, unknown>);
    if (a[CONNECT_SUBNETS] && mine && sorted(parse(a[CONNECT_SUBNETS])) === sorted(parse(mine)))
      a[CONNECT_SUBNETS] = mine;
  }
  // every datapath key (Layer2 switches and transit routers, connect routers), as one set
  const keys = (a: ClusterAnnotations) => [
    ...Object.values(a.nads).flatMap((n) => (n[TUNNEL_KEYS] ? (JSON.parse(n[TUNNEL_KEYS]) as number[]) : [])),
    ...Object.values(a.connects).flatMap((c) => (c[CONNECT_KEY] ? [Number(c[CONNECT_KEY])] : [])),
  ];
  if (same(keys)) {
    for (const [nad, a] of Object.entries(u.nads))
      if (a[TUNNEL_KEYS] && ours.nads[nad]?.[TUNNEL_KEYS]) a[TUNNEL_KEYS] = ours.nads[nad]![TUNNEL_KEYS]!;
    for (const [cnc, a] of Object.entries(u.connects))
      if (a[CONNECT_KEY] && ours.connects[cnc]?.[CONNECT_KEY]) a[CONNECT_KEY] = ours.connects[cnc]![CONNECT_KEY]!;
  }
  return u;
}

/** Per node the subnets of one network: distinct upstream, and of the same sizes as ours. */
function sameShape(mine: unknown[], theirs: unknown[]): boolean {
  const lengths = (list: unknown[]) =>
    sorted(list.map((l) => (Array.isArray(l) ? l.map((c) => String(c).split('/')[1]) : l)));
  const all = theirs.flatMap((l) => (Array.isArray(l) ? l.map(String) : []));
  return lengths(mine) === lengths(theirs) && new Set(all).size === all.length;
}
