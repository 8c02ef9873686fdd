/**
 * The resource kinds (`pulumi-nodejs:dynamic/ovnk:<Type>`), each a KindSpec for kind.ts:
 * ClusterAllocations (every allocation of the cluster, previewed; the shared Copp/meter rows in
 * each zone with a configured Northbound), NetworkRows (one network, central layout),
 * ConnectRouter (one connect, central layout; its connectSubnets are immutable), ZoneRows (one
 * zone of the per-node layout, every network and connect in it).
 */
import { connectRouterName } from '../../connect/ids';
import { clusterRouterName, networkPrefix, transitRouterName } from '../../topology/names';
import { endpointOf } from './settings';
import { makeKind, type KindSpec } from './kind';
import type { Props, ResourceKind } from './protocol';
import { stateOf } from './topologyInput';
import type { TopologyPlan } from '../plan';

const zoneOf = (props: Props) => String(props.zone ?? 'central');

/** What downstream code needs of each network, keyed by its object reference (`Kind/[ns/]name`). */
function networksByRef(plan: TopologyPlan): Props {
  const out: Props = {};
  for (const n of plan.cluster.networks) {
    const prefix = networkPrefix(n.name);
    const router = n.topology === 'Layer2' ? transitRouterName(prefix) : clusterRouterName(prefix);
    out[n.ref] = { name: n.name, topology: n.topology, id: plan.allocation.networkIds[n.name] ?? null, routerName: router, hostSubnets: plan.allocation.hostSubnets[n.name] ?? {} };
  }
  return out;
}

/** What preview shows of the cluster's allocations (small: no rows, no cursors). */
function allocationSummary(plan: TopologyPlan): Props {
  const { networkIds, nodeIds, hostSubnets, datapathKeys, connects } = plan.allocation;
  const connectSummary: Props = {};
  for (const [name, c] of Object.entries(connects)) {
    connectSummary[name] = { accepted: c.accepted, tunnelKey: c.tunnelKey ?? null, routerName: connectRouterName(name), networks: c.networks, annotations: c.annotations };
  }
  return { networkIds, nodeIds, hostSubnets, datapathKeys, connects: connectSummary, networks: networksByRef(plan), zones: plan.zones.map((z) => z.name) };
}

const clusterSpec: KindSpec = {
  replaceKeys: ['owner'],
  updateKeys: ['inventory', 'networks', 'connects', 'allocations', 'state'],
  previous: (olds) => stateOf(olds),
  scope: () => ({ kind: 'shared' }),
  zones: (plan) => plan.zones.map((z) => z.name).filter((z) => endpointOf(z) !== undefined),
  extras: (plan) => ({ allocations: allocationSummary(plan), state: plan.state }),
};

/** Per-zone kinds plan against the cluster's state (an input from ClusterAllocations). */
const zoneSpec = (scope: KindSpec['scope'], replaceKeys: string[], extras: KindSpec['extras'] = () => ({})): KindSpec => ({
  replaceKeys: ['owner', 'zone', ...replaceKeys],
  updateKeys: [],
  previous: (_olds, news) => stateOf(news),
  scope,
  zones: (_plan, props) => [zoneOf(props)],
  extras,
});

function connectExtras(plan: TopologyPlan, news: Props): Props {
  const name = String(news.connect);
  const cnc = plan.cluster.connects.find((c) => c.name === name);
  const allocation = plan.allocation.connects[name];
  return { connectSubnets: cnc?.connectSubnets ?? [], tunnelKey: allocation?.tunnelKey ?? null, connectNetworks: allocation?.networks ?? {} };
}

function networkExtras(plan: TopologyPlan, news: Props): Props {
  const network = plan.cluster.networks.find((n) => n.ref === news.network);
  const name = network?.name ?? '';
  return { networkName: name, networkId: plan.allocation.networkIds[name] ?? null, hostSubnets: plan.allocation.hostSubnets[name] ?? {} };
}

export const ClusterAllocations: ResourceKind = makeKind(clusterSpec);
export const NetworkRows: ResourceKind = makeKind(zoneSpec((news) => ({ kind: 'network', ref: String(news.network) }), ['network'], networkExtras));
export const ConnectRouter: ResourceKind = makeKind(zoneSpec((news) => ({ kind: 'connect', name: String(news.connect) }), ['connect', 'connectSubnets'], connectExtras));
export const ZoneRows: ResourceKind = makeKind(zoneSpec(() => ({ kind: 'zone' }), []));
