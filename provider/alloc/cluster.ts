/**
 * allocateCluster: every cluster-wide allocation of one plan, from the model, the connect
 * requests (selection and validation done by provider/connect/) and the previous state. Order,
 * fixed so plans are reproducible: node ids, network ids, host subnets, tunnel keys (Layer2
 * transit routers by network id, then connect routers by name), then each connect's subnets.
 */
import { activeNodeNames } from '../model/active';
import type { Cluster } from '../model/cluster';
import { compare, inUse } from '../model/cluster';
import { connectSubnetAnnotation, connectTunnelKeyAnnotation } from '../model/cnc';
import { dict, own } from '../model/dict';
import { type Network, tunnelKeysAnnotation } from '../model/network';
import { failure } from '../model/outcome';
import { type Problem, problem } from '../model/problem';
import type { Warning } from '../model/warnings';
import { adoptAllocations, adoptNetworkIds, clusterReservations } from './adopt';
import {
  allocateConnectSubnets,
  type ConnectNetworkAllocation,
  type ConnectReplacement,
  type ConnectRequest,
  subnetAnnotationText,
} from './connects';
import { TunnelKeyAllocator, transitSwitchKey } from './datapathKeys';
import { allocateHostSubnets } from './hostSubnets';
import { assignNetworkIds, assignNodeIds } from './ids';
import { type OtherOwners, takenByOthers } from './others';
import { type AllocationState, type ConnectState, emptyState, stateVersion } from './state';

export interface AllocationInput {
  cluster: Cluster;
  /** One per connect of the cluster, from provider/connect/ (selection + validation). */
  connects: ConnectRequest[];
}

export interface ConnectAllocation {
  accepted: boolean;
  problems: Problem[];
  /** Said but not refused (InsufficientNetworks); absent when none, so states written before it stay equal. */
  warnings?: Warning[];
  tunnelKey?: number;
  /** By owner key (`layer3_<id>`, `layer2_<id>`). */
  networks: Record<string, ConnectNetworkAllocation>;
  /** Upstream's annotations as they would be written (absent until allocated). */
  annotations: Record<string, string>;
  /** Its connectSubnets changed since the previous state: applying it replaces the connect. */
  replaced?: ConnectReplacement;
}

export interface DatapathKeys {
  /** Layer3 transit switch / Layer2 switch key (16711683 + id) and, for Layer2, the transit router's. */
  networks: Record<string, { transitSwitch: number; transitRouter?: number }>;
  connects: Record<string, number>;
}

export interface ClusterAllocation {
  networkIds: Record<string, number>;
  nodeIds: Record<string, number>;
  /** Network -> node -> host subnets (IPv4 first); Layer3 networks in use only. */
  hostSubnets: Record<string, Record<string, string[]>>;
  datapathKeys: DatapathKeys;
  connects: Record<string, ConnectAllocation>;
  /** Cluster-wide problems (ids, host subnets, keys); connect problems are under `connects`. */
  problems: Problem[];
  state: AllocationState;
}

/**
 * `remembered`: the previous state, under the allocations the cluster records (adopt.ts); `others`:
 * the allocation states of the other owners of the Northbound, whose values are taken (others.ts).
 */
export function allocateCluster(
  input: AllocationInput,
  remembered: AllocationState = emptyState(),
  others: OtherOwners = {},
): ClusterAllocation {
  const { cluster } = input;
  const previous = adoptAllocations(remembered, cluster.inventory.allocations);
  const taken = takenByOthers(others);
  const problems: Problem[] = [];
  const nodeResult = assignNodeIds(
    cluster.inventory.nodes.map((n) => ({ name: n.name, pinned: n.id, ref: 'Inventory' })),
    previous.nodeIds,
  );
  const networks = cluster.networks.filter(inUse);
  const reserved = clusterReservations(cluster.inventory.allocations, {
    networks: networks.map((n) => n.name),
    connects: input.connects.map((c) => c.name),
  });
  const networkResult = networkIdsOf(cluster, previous.networkIds, taken.networkIds);
  problems.push(...nodeResult.problems, ...networkResult.problems);
  const { ids: nodeIds } = nodeResult;
  const { ids: networkIds } = networkResult;
  const nodes = Object.entries(nodeIds)
    .map(([name, id]) => ({ name, id }))
    .sort((a, b) => a.id - b.id);
  const hostState = allocateAllHostSubnets(cluster, networks, nodes, previous, problems);
  const keys = new TunnelKeyAllocator(
    adoptAllocations(previous, { networks: [], connects: {} }, reserved.keys).tunnelKeys,
    taken.tunnelKeys,
  );
  // Copies: adopting a tunnel key may add a problem to a request, and inputs stay untouched.
  const connects = input.connects
    .map((c) => ({ ...c, problems: [...c.problems] }))
    .sort((a, b) => compare(a.name, b.name));
  const datapathKeys = allocateKeys(
    keys,
    networks,
    networkIds,
    connects,
    previous,
    problems,
    Object.keys(reserved.keys),
  );
  const topologyOf = (name: string) =>
    (networks.find((n) => n.name === name)?.topology === 'Layer2' ? 'layer2' : 'layer3') as 'layer2' | 'layer3';
  const context = { families: cluster.inventory.ipFamilies, networkIds, topologyOf, nodes };
  const results = dict<ConnectAllocation>();
  const connectStates: AllocationState['connects'] = dict();
  for (const request of connects) {
    const before = own(previous.connects, request.name);
    const result = allocateConnectSubnets(request, context, before);
    if (result.state) connectStates[request.name] = result.state;
    const annotated = request.subnetAnnotation !== undefined || hadNetworks(before);
    results[request.name] = {
      ...connectResult(request, result.problems, result.networks, datapathKeys.connects[request.name], annotated),
      ...(result.replaced ? { replaced: result.replaced } : {}),
    };
  }
  const hostSubnets: ClusterAllocation['hostSubnets'] = dict();
  for (const [name, state] of Object.entries(hostState)) hostSubnets[name] = state.owners;
  const state: AllocationState = {
    version: stateVersion,
    networkIds,
    nodeIds,
    hostSubnets: hostState,
    tunnelKeys: keys.toState(),
    connects: connectStates,
  };
  return { networkIds, nodeIds, hostSubnets, datapathKeys, connects: results, problems, state };
}

/**
 * The network ids of the networks in use, as allocateCluster assigns them (connect validation names
 * owner keys with them).
 */
export function networkIdsOf(
  cluster: Cluster,
  previous: Record<string, number> = {},
  taken: ReadonlyMap<number, string> = new Map(),
): ReturnType<typeof assignNetworkIds> {
  const networks = cluster.networks.filter(inUse);
  const names = networks.map((n) => n.name);
  const adopted = cluster.inventory.allocations;
  return assignNetworkIds(
    networks.map((n) => ({ name: n.name, pinned: n.pinnedId, ref: n.ref })),
    adoptNetworkIds(previous, adopted),
    new Map([...taken, ...clusterReservations(adopted, { networks: names, connects: [] }).networkIds]),
  );
}

function allocateAllHostSubnets(
  cluster: Cluster,
  networks: Network[],
  nodes: { name: string; id: number }[],
  previous: AllocationState,
  problems: Problem[],
): AllocationState['hostSubnets'] {
  const pins = new Map(cluster.inventory.nodes.map((n) => [n.name, n.hostSubnets]));
  const pinned = new Set(cluster.inventory.nodes.flatMap((n) => Object.keys(n.hostSubnets)));
  const out: AllocationState['hostSubnets'] = dict();
  for (const network of networks.filter((n) => n.topology === 'Layer3')) {
    const pinsOf = pinned.has(network.name) ? (node: string) => own(pins.get(node), network.name) : () => undefined;
    // Dynamic UDN: a node the network is not active on gets no host subnet (upstream releases it)
    const active = activeNodeNames(cluster.inventory, network);
    const served = active === undefined ? nodes : nodes.filter((n) => active.includes(n.name));
    const result = allocateHostSubnets(network, served, pinsOf, own(previous.hostSubnets, network.name));
    problems.push(...result.problems);
    out[network.name] = result.state;
  }
  return out;
}

function allocateKeys(
  keys: TunnelKeyAllocator,
  networks: Network[],
  networkIds: Record<string, number>,
  connects: ConnectRequest[],
  previous: AllocationState,
  problems: Problem[],
  reservedOwners: string[],
): DatapathKeys {
  const l2 = networks
    .filter((n) => n.topology === 'Layer2' && n.role === 'Primary' && networkIds[n.name] !== undefined)
    .sort((a, b) => networkIds[a.name]! - networkIds[b.name]!);
  const wanted = new Set([
    ...l2.map((n) => `transit-router/${n.name}`),
    ...connects.map((c) => `connect-router/${c.name}`),
    ...reservedOwners,
  ]);
  for (const owner of keys.owners()) if (!wanted.has(owner)) keys.release(owner);
  for (const n of networks) pinTransitRouterKey(keys, n, networkIds[n.name], problems);
  for (const c of connects) adoptKey(keys, c, previous);
  const out: DatapathKeys = { networks: dict(), connects: dict() };
  for (const n of networks.filter((n) => networkIds[n.name] !== undefined && n.topology !== 'Localnet')) {
    out.networks[n.name] = { transitSwitch: transitSwitchKey(networkIds[n.name]!) };
  }
  for (const n of l2) {
    const key = keys.allocate(`transit-router/${n.name}`);
    if (key === undefined)
      problems.push(
        problem('TunnelKeysExhausted', n.ref, '', `no datapath tunnel key is left for the transit router of ${n.name}`),
      );
    else out.networks[n.name]!.transitRouter = key;
  }
  for (const c of connects) {
    const key =
      c.problems.length === 0 ? keys.allocate(`connect-router/${c.name}`) : keys.keyOf(`connect-router/${c.name}`);
    if (key !== undefined) out.connects[c.name] = key;
    else if (c.problems.length === 0)
      problems.push(
        problem('TunnelKeysExhausted', c.ref, '', `no datapath tunnel key is left for the connect router of ${c.name}`),
      );
  }
  return out;
}

/**
 * A primary Layer2 network's `k8s.ovn.org/tunnel-keys` pin: [0] must be its switch key (16711683 +
 * network id), [1] is reserved for its transit router, before any key is handed out.
 */
function pinTransitRouterKey(keys: TunnelKeyAllocator, n: Network, id: number | undefined, problems: Problem[]): void {
  if (n.pinnedTunnelKeys === undefined || id === undefined) return;
  const field = `metadata.annotations["${tunnelKeysAnnotation}"]`;
  const [switchKey, routerKey] = n.pinnedTunnelKeys;
  const refuse = (reason: 'InvalidSpec' | 'OwnerConflict', why: string) =>
    problems.push(problem(reason, n.ref, field, `${field} ${JSON.stringify(n.pinnedTunnelKeys)} ${why}`));
  if (n.topology !== 'Layer2' || n.role !== 'Primary')
    return void refuse('InvalidSpec', 'is only for a primary Layer2 network (its switch and transit router)');
  if (switchKey !== transitSwitchKey(id))
    return void refuse(
      'InvalidSpec',
      `starts with ${switchKey}, but network id ${id} makes the switch key ${transitSwitchKey(id)}`,
    );
  const reserved = keys.reserve(`transit-router/${n.name}`, routerKey);
  if (reserved.ok) return;
  if (reserved.reason === 'otherOwner')
    refuse(
      'OwnerConflict',
      `pins tunnel key ${routerKey}, which ${reserved.holder} holds in this Northbound: pin another one`,
    );
  else refuse('InvalidSpec', `cannot be used: ${reserved.why}`);
}

/** Upstream's tunnel-key annotation is reserved when the previous state does not know the connect. */
function adoptKey(keys: TunnelKeyAllocator, request: ConnectRequest, previous: AllocationState): void {
  const owner = `connect-router/${request.name}`;
  if (request.tunnelKeyAnnotation === undefined || own(previous.tunnelKeys.keys, owner) !== undefined) return;
  const field = `metadata.annotations["${connectTunnelKeyAnnotation}"]`;
  const key = /^\d+$/.test(request.tunnelKeyAnnotation) ? Number(request.tunnelKeyAnnotation) : NaN;
  const reserved = Number.isNaN(key)
    ? failure(`"${request.tunnelKeyAnnotation}" is not a decimal number`)
    : keys.reserve(owner, key);
  if (!reserved.ok)
    request.problems.push(problem('InvalidSpec', request.ref, field, `${field} cannot be adopted: ${reserved.why}`));
}

/** Whether a previous allocation gave the connect's networks subnets (upstream then wrote its annotation). */
function hadNetworks(state: ConnectState | undefined): boolean {
  return state !== undefined && Object.keys(state.l3.owners).length + Object.keys(state.l2.owners).length > 0;
}

/**
 * Upstream writes the subnet annotation only when a network is allocated or released
 * (clustermanager/networkconnect/cluster_network_connect.go): a connect that never had a
 * network has only its tunnel-key annotation (controller_test.go "1. CNC created with 0 matching
 * networks only has tunnel ID annotation"); one whose networks all went keeps `{}`.
 */
function connectResult(
  request: ConnectRequest,
  allocationProblems: Problem[],
  networks: Record<string, ConnectNetworkAllocation>,
  tunnelKey: number | undefined,
  annotated: boolean,
): ConnectAllocation {
  const problems = [...request.problems, ...allocationProblems];
  const annotations: Record<string, string> = {};
  if (Object.keys(networks).length > 0 || (tunnelKey !== undefined && annotated))
    annotations[connectSubnetAnnotation] = subnetAnnotationText(networks);
  if (tunnelKey !== undefined) annotations[connectTunnelKeyAnnotation] = String(tunnelKey);
  const warnings = request.warnings?.length ? { warnings: request.warnings } : {};
  return { accepted: problems.length === 0, problems, ...warnings, tunnelKey, networks, annotations };
}
