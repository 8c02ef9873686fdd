/**
 * Model + allocation -> the connect renderer's inputs: the nodes with their ids and chassis, and
 * one ConnectInput per accepted connect that has a tunnel key and connect subnets. Refused
 * connects render nothing (the plan is refused as a whole and nothing is applied).
 */
import type { ClusterAllocation } from '../alloc/cluster';
import { servedNodeNames } from '../alloc/served';
import { type Cidr, mustParseCidr } from '../model/cidr';
import type { Cluster } from '../model/cluster';
import type { ClusterNetworkConnect } from '../model/cnc';
import { dict, own } from '../model/dict';
import type { Network } from '../model/network';
import { loadBalancerNames } from '../topology/services';
import type { ConnectedNetwork, ConnectInput, ConnectNode } from './input';

/** Nodes by id; a node without a chassis id uses its name, as provider/topology/fromCluster.ts does. */
export function connectNodes(cluster: Cluster, allocation: ClusterAllocation): ConnectNode[] {
  const chassis = new Map(cluster.inventory.nodes.map((n) => [n.name, n.chassisId]));
  return Object.entries(allocation.nodeIds)
    .map(([name, id]) => ({ name, id, chassisId: chassis.get(name) ?? name }))
    .sort((a, b) => a.id - b.id);
}

export function connectInputs(cluster: Cluster, allocation: ClusterAllocation): ConnectInput[] {
  return cluster.connects.flatMap((cnc) => {
    const input = connectInput(cluster, allocation, cnc);
    return input ? [input] : [];
  });
}

function connectInput(
  cluster: Cluster,
  allocation: ClusterAllocation,
  cnc: ClusterNetworkConnect,
): ConnectInput | undefined {
  const result = own(allocation.connects, cnc.name);
  const state = own(allocation.state.connects, cnc.name);
  if (!result?.accepted || result.tunnelKey === undefined || !state) return undefined;
  const byName = new Map(cluster.networks.map((n) => [n.name, n]));
  const networks: ConnectedNetwork[] = [];
  for (const a of Object.values(result.networks)) {
    const network = a.network === undefined ? undefined : byName.get(a.network);
    if (!network) continue;
    const subnets = [a.subnets.ipv4, a.subnets.ipv6].flatMap((s) => (s ? [mustParseCidr(s)] : []));
    networks.push(connectedNetwork(cluster, allocation, network, a.networkId, subnets));
  }
  const connectivity = cnc.connectivity ?? [];
  return {
    name: cnc.name,
    tunnelKey: result.tunnelKey,
    podNetwork: connectivity.includes('PodNetwork'),
    serviceNetwork: connectivity.includes('ServiceNetwork'),
    connectSubnets: state.connectSubnets.map((s) => ({ cidr: mustParseCidr(s.cidr), networkPrefix: s.networkPrefix })),
    networks: networks.sort((a, b) => a.id - b.id),
    serviceCIDRs: cluster.inventory.serviceCIDRs.map(mustParseCidr),
    ipFamilies: cluster.inventory.ipFamilies,
  };
}

function connectedNetwork(
  cluster: Cluster,
  allocation: ClusterAllocation,
  network: Network,
  id: number,
  connectSubnets: Cidr[],
): ConnectedNetwork {
  const hostSubnets = dict<Cidr[]>();
  for (const [node, cidrs] of Object.entries(own(allocation.hostSubnets, network.name) ?? {}))
    hostSubnets[node] = cidrs.map(mustParseCidr);
  const active = servedNodeNames(cluster, network, allocation);
  return {
    name: network.name,
    id,
    topology: network.topology === 'Layer2' ? 'layer2' : 'layer3',
    subnets: network.subnets.map((s) => mustParseCidr(s.cidr)),
    connectSubnets,
    hostSubnets,
    loadBalancers: loadBalancerNames(network.name, network.namespaces, cluster.inventory.services),
    ...(active === undefined ? {} : { activeNodes: active }),
  };
}
