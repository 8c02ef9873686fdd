/**
 * ClusterAllocations (`pulumi-nodejs:dynamic/ovnk:ClusterAllocations`): the cluster-manager of a
 * stack. check plans the whole topology against the previous allocations (its olds), with no I/O
 * and no row rendering, and returns what preview shows: every allocation, the state that keeps
 * them stable, and the packed slice of each network, connect and zone for the per-zone
 * resources. create/update write the shared Copp/meter rows in each zone with an endpoint, and
 * publish the allocation state there (`ovnk.io/state/<owner>`): other owners of that Northbound
 * (another stack, an `ovnk apply` file) take its network ids and tunnel keys as taken. check has
 * no I/O and cannot see them, so this first write refuses, before any row of the stack is
 * written, a value another owner already holds, naming that owner (pin another one). In the
 * per-node layout the same write publishes the zone catalog the ZoneRows render (catalog.ts).
 * State of version 1 has the same inputs and is migrated by the next update.
 */
import { connectRouterName } from '../../connect/ids';
import { sameJson } from '../../model/canonical';
import { dict, own } from '../../model/dict';
import { clusterRouterName, networkPrefix, transitRouterName } from '../../topology/names';
import { renderSharedRows } from '../../topology/shared';
import { comparableAllocations, layoutOf, layoutSliceDigests, packState, stateDigest } from './clusterInputs';
import { asReplacement, fieldDiff, topologyDiff, upkeepDiff } from './detailedDiff';
import { keyPathFailures } from './keyPaths';
import { driftCount, inputChanged, ownerFailure, zoneRowMethods } from './kind';
import type { HomeKeys } from './nbRows';
import { isPacked } from './pack';
import {
  type CheckResult,
  containsUnknown,
  type DiffResult,
  jsonClean,
  type Props,
  type ResourceKind,
  SCHEMA_VERSION,
} from './protocol';
import { configureSettings, endpointOf } from './settings';
import { clusterSlices, type ClusterSlices } from './slices';
import { type Allocated, allocateFailures, allocateInputs, readTopology, stateOf } from './topologyInput';

/** What downstream code needs of each network, keyed by its object reference (`Kind/[ns/]name`). */
function networksByRef(allocated: Allocated): Props {
  const out: Props = dict();
  for (const n of allocated.cluster.networks) {
    const prefix = networkPrefix(n.name);
    // a secondary Layer2 network and a Localnet one have no router
    const router =
      n.topology === 'Layer3'
        ? clusterRouterName(prefix)
        : n.topology === 'Layer2' && n.role === 'Primary'
          ? transitRouterName(prefix)
          : '';
    out[n.ref] = {
      name: n.name,
      topology: n.topology,
      id: own(allocated.allocation.networkIds, n.name) ?? null,
      routerName: router,
      hostSubnets: own(allocated.allocation.hostSubnets, n.name) ?? {},
    };
  }
  return out;
}

/** What preview shows of the cluster's allocations (no rows, no cursors). */
export function allocationSummary(allocated: Allocated): Props {
  const { networkIds, nodeIds, hostSubnets, datapathKeys, connects } = allocated.allocation;
  const connectSummary: Props = dict();
  for (const [name, c] of Object.entries(connects)) {
    connectSummary[name] = {
      accepted: c.accepted,
      // said, not refused (InsufficientNetworks): the components log them as preview warnings;
      // absent when none, so a state written before warnings existed plans no change
      ...(c.warnings && { warnings: c.warnings.map(({ reason, message, path }) => ({ reason, message, path })) }),
      tunnelKey: c.tunnelKey ?? null,
      routerName: connectRouterName(name),
      networks: c.networks,
      annotations: c.annotations,
    };
  }
  const zones = allocated.connects.zones.map((z) => z.name);
  return {
    networkIds,
    nodeIds,
    hostSubnets,
    datapathKeys,
    connects: connectSummary,
    networks: networksByRef(allocated),
    zones,
  };
}

function check(olds: Props, news: Props): CheckResult<Props> {
  if (containsUnknown(news)) return { inputs: news };
  const props = [...ownerFailure(news.owner), ...keyPathFailures(news.inventory)];
  const read = readTopology(news);
  if (!read.topology) return { inputs: news, failures: [...props, ...read.failures] };
  const result = allocateInputs(read.topology, stateOf(olds));
  const failures = [...props, ...allocateFailures(result, read.topology)];
  if (!result.ok || failures.length > 0) return { inputs: news, failures };
  const { allocated } = result;
  const inputs = {
    owner: news.owner,
    ...read.topology,
    // small inputs: they cross gRPC in every Check and Diff (clusterInputs.ts)
    allocations: comparableAllocations(allocationSummary(allocated)),
    state: packState(allocated.state),
    slices: clusterSlices(allocated),
  };
  return { inputs: jsonClean(inputs) };
}

/** Whether what the inputs hold changed (not their shape: clusterInputs.ts), objects first. */
function inputsChanged(olds: Props, news: Props): boolean {
  const differs = (key: string) => inputChanged(olds, news, key);
  if (['inventory', 'networks', 'connects', 'routeAdvertisements'].some(differs)) return true;
  if (containsUnknown(news.allocations) || containsUnknown(news.state)) return true;
  const allocations =
    news.allocations !== undefined &&
    !sameJson(comparableAllocations(olds.allocations), comparableAllocations(news.allocations));
  return allocations || (news.state !== undefined && stateDigest(olds.state) !== stateDigest(news.state));
}

function diff(olds: Props, news: Props): DiffResult {
  const replaces = inputChanged(olds, news, 'owner') ? ['owner'] : [];
  const inputs = inputsChanged(olds, news);
  const layout = layoutOf(news);
  const slices =
    containsUnknown(news.slices) ||
    !sameJson(layoutSliceDigests(olds.slices, layout), layoutSliceDigests(news.slices, layout));
  const changes =
    replaces.length > 0 || inputs || slices || driftCount(olds) > 0 || olds.schemaVersion !== SCHEMA_VERSION;
  if (!changes) return { changes, replaces, deleteBeforeReplace: false };
  const words = { ...topologyDiff(olds, news), ...upkeepDiff(olds, driftCount(olds), SCHEMA_VERSION) };
  // allocations and slices follow from the objects; said on their own only when no object says why
  const detailedDiff = Object.keys(words).length > 0 ? words : fieldDiff(olds, news, 'slices');
  return {
    changes,
    replaces,
    deleteBeforeReplace: replaces.length > 0,
    detailedDiff: asReplacement(detailedDiff, replaces.length > 0),
  };
}

/** The shared rows in every zone of the cluster whose Northbound the stack configures. */
function sharedRows(props: Props): Record<string, ReturnType<typeof renderSharedRows>> {
  const zones = ((props.allocations as { zones?: string[] } | undefined)?.zones ?? []).filter(
    (z) => endpointOf(z) !== undefined,
  );
  return dict(zones.map((z) => [z, renderSharedRows()]));
}

/**
 * What each write publishes beside the shared rows: the allocation state and, in the per-node
 * layout, the zone catalog its ZoneRows render from (catalog.ts).
 */
function homeOf(props: Props): HomeKeys {
  const zone = (props.slices as Partial<ClusterSlices> | undefined)?.zone;
  const catalog = layoutOf(props) === 'per-node' && isPacked(zone) ? { catalog: zone.data } : {};
  return { state: stateOf(props), ...catalog };
}

export const ClusterAllocations: ResourceKind = {
  configure: async ({ config }) => configureSettings(config),
  check: async (olds, news) => check(olds, news),
  diff: async (_id, olds, news) => diff(olds, news),
  // the allocation state is published in each zone, so other owners take its ids and keys as taken
  ...zoneRowMethods(sharedRows, homeOf),
};
